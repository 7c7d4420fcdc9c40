// Every request of the client carries the contract's client headers, as the release's own
// client sends them: against the embedded mock (which answers as the release does), the
// Dream operations are served and reported without the caller naming the header, and a
// header the caller sets of the same name is the one sent. (That the spec's client headers
// are the release client's is test/contract/client-headers.test.ts.)
import { startMockServer, type MockServer } from "@powercontext/msw/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServerResponseError } from "@powercontext/runtime";
import { PowerContextClient } from "../src/client.js";

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ seed: 5, simulatorOptions: { scopes: ["dream"] } });
});
afterAll(() => server.close());

const client = (headers?: Record<string, string>) =>
  new PowerContextClient({ baseUrl: server.url, token: "pc-admin", maxRetries: 0, ...(headers ? { headers } : {}) });

const run = {
  scope_id: "dream",
  // A Dream operation of contract 2: the release refuses it (426) to a client that does not declare it.
  operation: "revise_tags",
  artifacts: [{ family: "experience", artifact_id: "art_x", revision: 1 }],
  tag_target: {
    target: { type: "artifact", family: "experience", artifact_id: "art_x" },
    expected_etag: "e",
    basis_ref: { family: "experience", artifact_id: "art_x", revision: 1 },
  },
} as const;

describe("the client headers", () => {
  it("let a client that names no header create a Dream run and see the Dream operations", async () => {
    const created = await client().createDreamRun({ ...run, idempotency_key: "d-1" });
    expect(created).toMatchObject({ status: 200, body: { scope_id: "dream", operation: "revise_tags" } });
    expect(await client().getCapabilities()).toHaveProperty("artifact_dreaming_operations");
  });

  it("give way to a header of the same name the caller sets", async () => {
    const error = await client({ "x-powercontext-dream-contract": "1" })
      .createDreamRun({ ...run, idempotency_key: "d-2" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerResponseError);
    expect(error).toMatchObject({ statusCode: 426, code: "client_upgrade_required" });
  });
});
