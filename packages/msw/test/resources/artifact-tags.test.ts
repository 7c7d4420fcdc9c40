import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import { contractProblems } from "../support/contract.js";
import { call, type Reply } from "../support/flat-call.js";

/**
 * The tag set of an Artifact, kept by the resource engine as the release keeps
 * it: empty until the first replace, sent with the ETag
 * `"tags:<sha256 of the Scope, the target and the label digest>"`, replaced only
 * under the current ETag (428 without one, 412 tag_precondition_failed for a
 * stale one), 304 for If-None-Match on the current ETag only, and 404
 * artifact_not_found for an Artifact the Scope does not have.
 */
function fresh(): PowerContextSimulator {
  return createPowerContextSimulator({ seed: 3, clock: new ManualClock(), scopes: ["s1"] });
}

function valid(operationId: Parameters<typeof call>[1], reply: Reply): Reply {
  expect(contractProblems(operationId, reply.status, { ...reply.headers }, reply.body), operationId).toEqual([]);
  return reply;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The release's digests: canonical JSON (sorted keys, no spaces) of the labels, then of the Scope, target and digest. */
function releaseEtag(scopeId: string, artifactId: string, tags: string[]): { digest: string; etag: string } {
  const digest = `sha256:${sha256(JSON.stringify({ tags }))}`;
  const target = { artifact_id: artifactId, family: "atomic-memory", type: "artifact" };
  return { digest, etag: `"tags:${sha256(JSON.stringify({ scope_id: scopeId, tag_digest: digest, target }))}"` };
}

function artifact(sim: PowerContextSimulator): string {
  const created = call(sim, "create_artifact", {
    scope_id: "s1",
    family: "atomic-memory",
    content: { kind: "fact", text: "The nightly backup runs at three." },
  });
  expect(created.status).toBe(201);
  return created.body.artifact_id as string;
}

describe("resource engine: Artifact tags", () => {
  it("reads an untagged Artifact as its empty set under the release's ETag, and answers 304 on that ETag", () => {
    const sim = fresh();
    const id = artifact(sim);
    const read = valid(
      "get_artifact_tags",
      call(sim, "get_artifact_tags", { scope_id: "s1", family: "atomic-memory", artifact_id: id }),
    );
    const expected = releaseEtag("s1", id, []);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      scope_id: "s1",
      target: { type: "artifact", family: "atomic-memory", artifact_id: id },
      tags: [],
      tag_digest: expected.digest,
    });
    expect(read.headers.ETag).toBe(expected.etag);
    const again = call(sim, "get_artifact_tags", {
      scope_id: "s1",
      family: "atomic-memory",
      artifact_id: id,
      "If-None-Match": expected.etag,
    });
    expect([again.status, again.headers.ETag]).toEqual([304, expected.etag]);
  });

  it("replaces only under the current ETag: 428 without one, 412 tag_precondition_failed for a stale one", () => {
    const sim = fresh();
    const id = artifact(sim);
    const at = { scope_id: "s1", family: "atomic-memory", artifact_id: id };
    const first = call(sim, "get_artifact_tags", at).headers.ETag as string;
    const missing = call(sim, "replace_artifact_tags", { ...at, tags: ["backup"] });
    expect([missing.status, missing.code]).toEqual([428, "precondition_required"]);

    const replaced = valid(
      "replace_artifact_tags",
      call(sim, "replace_artifact_tags", { ...at, tags: ["backup", "ops"], "If-Match": first }),
    );
    const expected = releaseEtag("s1", id, ["backup", "ops"]);
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ tags: ["backup", "ops"], tag_digest: expected.digest });
    expect(replaced.headers.ETag).toBe(expected.etag);

    const stale = call(sim, "replace_artifact_tags", { ...at, tags: ["backup"], "If-Match": first });
    expect([stale.status, stale.code, stale.body.error.details]).toEqual([412, "tag_precondition_failed", null]);

    const after = call(sim, "get_artifact_tags", { ...at, "If-None-Match": first });
    expect([after.status, after.body.tags, after.headers.ETag]).toEqual([200, ["backup", "ops"], expected.etag]);
  });

  it("keeps the Artifact's earlier revisions readable and bindable after its tags are replaced", () => {
    const sim = fresh();
    const id = artifact(sim);
    const at = { scope_id: "s1", family: "atomic-memory", artifact_id: id };
    const etag = call(sim, "get_artifact", at).headers.ETag as string;
    const content = { kind: "fact", text: "The nightly backup runs at four." };
    expect(call(sim, "replace_artifact", { ...at, content, "If-Match": etag }).status).toBe(200);
    const tagsEtag = call(sim, "get_artifact_tags", at).headers.ETag as string;
    expect(call(sim, "replace_artifact_tags", { ...at, tags: ["backup"], "If-Match": tagsEtag }).status).toBe(200);

    const first = valid("get_artifact_revision", call(sim, "get_artifact_revision", { ...at, revision: 1 }));
    expect([first.status, first.body.revision, first.body.content.text]).toEqual([
      200,
      1,
      "The nightly backup runs at three.",
    ]);
    const revisions = call(sim, "list_artifact_revisions", { ...at, limit: 10 });
    expect(revisions.body.items.map((r: { revision: number }) => r.revision).sort()).toEqual([1, 2]);
    const bound = valid(
      "bind_artifact_handle",
      call(sim, "bind_artifact_handle", { ...at, key: "nightly", revision: 1 }),
    );
    expect([bound.status, bound.body.artifact.artifact_id, bound.body.artifact.revision]).toEqual([200, id, 1]);
    const head = call(sim, "get_artifact", at);
    expect([head.status, head.body.revision, head.headers.ETag]).toEqual([200, 2, expect.any(String)]);
    expect(head.body).not.toHaveProperty("tag_labels");
  });

  it("reads the tags of an Artifact the Scope does not have as 404 artifact_not_found, and refuses to write them (403)", () => {
    const sim = fresh();
    const at = { scope_id: "s1", family: "atomic-memory", artifact_id: "art_00000000000000000000000000" };
    const read = call(sim, "get_artifact_tags", at);
    expect([read.status, read.code]).toEqual([404, "artifact_not_found"]);
    // As on the release: an unknown Artifact has no owner, and only its owner holds artifact.write.
    const write = call(sim, "replace_artifact_tags", { ...at, tags: ["x"], "If-Match": '"tags:0"' });
    expect([write.status, write.code]).toEqual([403, "forbidden"]);
  });
});
