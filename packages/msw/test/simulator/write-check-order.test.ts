import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import type { SimRequest } from "../../src/simulator/types.js";
import type { SimOperationId } from "../../src/simulator/contract/operation-table.js";
import { asAdmin } from "../support/world.js";

/**
 * Which refusal a write meets first, as a 1.4.1 server orders them (measured against the
 * release): a Scope's version before its new parent; for Topic Memory and Prompts, which
 * the access layer authorizes on their Scope, the Scope, then the body's model, then the
 * Artifact; for families authorized on the Artifact itself, the access layer's 403.
 */
function simulator(): PowerContextSimulator {
  return createPowerContextSimulator({ scopes: ["s1"], clock: new ManualClock(), seed: 12 });
}

/** One request as `pc-admin`: its status and error code. */
function send(
  sim: PowerContextSimulator,
  operationId: SimOperationId,
  request: SimRequest,
): [number, string | undefined] {
  const answer = asAdmin(sim, operationId, request);
  return [answer.status, (answer.body as { error?: { code?: string } } | null)?.error?.code];
}

describe("the order of a write's checks", () => {
  it("update_scope: a stale version before an unknown parent", () => {
    const update = (expected_version: number) =>
      send(simulator(), "update_scope", {
        params: { scope_id: "s1" },
        body: { expected_version, title: "s1", summary: "Scope s1", parent_scope_id: "nowhere" },
      });
    expect(update(7)).toEqual([409, "scope_version_conflict"]);
    expect(update(1)).toEqual([404, "scope_not_found"]);
  });

  it("replace_artifact: the Scope, the family's model, then the Artifact, on a family authorized on its Scope", () => {
    const sim = simulator();
    const replace = (scope_id: string, content: unknown) =>
      send(sim, "replace_artifact", {
        params: { scope_id, family: "topic-memory", artifact_id: "art_unknown" },
        headers: { "If-Match": '"revision:1"' },
        body: { content },
      });
    const atomic = { schema: "powercontext.atomic-memory.v1", kind: "fact", text: "Cut on Tuesdays." };
    const topic = { title: "Release", summary: "How releases are cut", detail: "On Tuesdays" };
    expect(replace("nowhere", topic)).toEqual([404, "scope_not_found"]);
    expect(replace("s1", atomic)).toEqual([422, "invalid_request"]);
    expect(replace("s1", topic)).toEqual([404, "artifact_not_found"]);
  });

  it("replace_artifact_tags: the Scope then the Artifact on Topic Memory, the access layer on Experience", () => {
    const sim = simulator();
    const tags = (scope_id: string, family: string) =>
      send(sim, "replace_artifact_tags", {
        params: { scope_id, family, artifact_id: "art_unknown" },
        headers: { "If-Match": '"x"' },
        body: { tags: [] },
      });
    expect(tags("nowhere", "topic-memory")).toEqual([404, "scope_not_found"]);
    expect(tags("s1", "topic-memory")).toEqual([404, "artifact_not_found"]);
    expect(tags("nowhere", "experience")).toEqual([403, "forbidden"]);
    expect(tags("s1", "experience")).toEqual([403, "forbidden"]);
  });

  it("create_artifact: a Profile names a revision to restore only when it is replaced", () => {
    const created = simulator().handle("create_artifact", {
      token: "pc-admin",
      params: { scope_id: "s1" },
      body: { family: "profile", content: { content: "Prefers short answers.", restored_from_revision: 3 } },
    }) as { status: number; body: any };
    expect(created).toMatchObject({
      status: 422,
      body: {
        error: { code: "invalid_request", details: { field: "restored_from_revision", reason: "requires Replace" } },
      },
    });
  });
});
