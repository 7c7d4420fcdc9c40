// Methods of operations that answer 304 to a conditional request (get_artifact,
// get_artifact_tags, ...): a plain call resolves to the body, a call with If-None-Match
// to the outcome keyed by status (docs/architecture.md, "Conditional reads").
import { describe, expect, expectTypeOf, it } from "vitest";
import { json, scripted } from "@powercontext/runtime/testing";
import { PowerContextClient, type ResponseOf } from "../src/index.js";

const tags = {
  scope_id: "s1",
  target: { type: "artifact", family: "atomic-memory", artifact_id: "art_1" },
  tags: ["kept"],
  tag_digest: `sha256:${"0".repeat(64)}`,
};

function client(...steps: Parameters<typeof scripted>) {
  const server = scripted(...steps);
  return { server, client: new PowerContextClient({ baseUrl: "https://pc.example.com", fetch: server.fetch }) };
}

const address = { scope_id: "s1", family: "atomic-memory", artifact_id: "art_1" } as const;

describe("conditional reads", () => {
  it("a plain call resolves to the body, its raw response beside it", async () => {
    const { client: sdk, server } = client(json(200, tags, { etag: '"r2"' }));
    const call = sdk.getArtifactTags(address);
    const { data, response } = await call.withResponse();
    expect(data).toEqual(tags);
    expect(response.headers.get("etag")).toBe('"r2"');
    expect(server.seen[0]?.headers["if-none-match"]).toBeUndefined();
  });

  it("a call with If-None-Match resolves to the outcome keyed by status: 304 while the ETag matches", async () => {
    const { client: sdk, server } = client(new Response(null, { status: 304, headers: { etag: '"r2"' } }));
    const outcome = await sdk.getArtifactTags({ ...address, "If-None-Match": '"r2"' });
    expect(outcome.status).toBe(304);
    expect(outcome.body).toBeUndefined();
    expect(outcome.headers.get("etag")).toBe('"r2"');
    expect(server.seen[0]?.headers["if-none-match"]).toBe('"r2"');
  });

  it("types: the plain form is the body, the conditional form the union", () => {
    const sdk = new PowerContextClient({ baseUrl: "https://pc.example.com" });
    expectTypeOf(sdk.getArtifact(address)).resolves.toEqualTypeOf<
      Extract<ResponseOf<"get_artifact">, { readonly status: 200 }>["body"]
    >();
    expectTypeOf(sdk.getArtifact({ ...address, "If-None-Match": '"r2"' })).resolves.toEqualTypeOf<
      ResponseOf<"get_artifact">
    >();
  });
});
