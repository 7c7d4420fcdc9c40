import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import type { SimOperationId } from "../../src/simulator/contract/operation-table.js";
import { asAdmin } from "../support/world.js";
import { TEST_SCOPES } from "../support/scopes.js";

/**
 * A Handoff's generation receipt must be one the server issued. The mock drafts without a
 * model and issues none, so finalize and commit refuse any receipt, as a 1.4.1 server
 * refuses one it cannot verify, before looking at the cited evidence; an Artifact written
 * with generation metadata naming the wrong Prompt is refused before the Scope is looked up.
 */
describe("Handoff generation receipts", () => {
  const sim = createPowerContextSimulator({ scopes: TEST_SCOPES, clock: new ManualClock(), seed: 8 });
  const send = (operationId: SimOperationId, body: unknown): { status: number; body: any } =>
    asAdmin(sim, operationId, { body });
  const draft = (generation: unknown) => ({
    generation,
    objective: "Ship the release.",
    state: [
      { text: "Tests pass.", citations: [{ kind: "source", source_ref: { name: "content", source_id: "missing" } }] },
    ],
    disposition: "continuable",
    next_action: null,
    omissions: [],
  });

  /** Generation metadata of a built-in draft, with `over` in place of its members. */
  const metadata = (over: Record<string, unknown> = {}) => ({
    scope_id: "s1",
    prompt_key: "handoff.generate",
    selection: "built_in",
    artifact: null,
    definition_version: "v1",
    builtin_version: "v1",
    compiled_digest: "0".repeat(64),
    original_draft_digest: "0".repeat(64),
    edit_status: "unchanged",
    ...over,
  });

  it("finalize refuses a draft carrying a receipt before it checks the evidence", () => {
    expect(send("finalize_handoff", { scope_id: "s1", draft: draft({ receipt: "forged" }) })).toMatchObject({
      status: 422,
      body: { error: { code: "invalid_handoff_generation" } },
    });
    expect(send("finalize_handoff", { scope_id: "s1", draft: draft(null) })).toMatchObject({
      status: 404,
      body: { error: { code: "handoff_evidence_not_found" } },
    });
  });

  it("finalize resolves the draft's direct evidence: a held Source passes, a Prompt never does", () => {
    expect(send("capture_content_source", { scope_id: "s2", source_id: "n1", content: "Tests pass." }).status).toBe(
      202,
    );
    const prompt = asAdmin(sim, "create_artifact", {
      params: { scope_id: "s2" },
      body: {
        family: "prompt",
        prompt_key: "skill.generate",
        content: { schema_version: "powercontext.prompt.v1", mode: "auto", instructions: "", demonstrations: [] },
      },
    });
    expect(prompt.status).toBe(201);
    const cite = (citation: unknown) => ({
      ...draft(null),
      state: [{ text: "Tests pass.", citations: [citation] }],
    });
    const source = { kind: "source", source_ref: { name: "content", source_id: "n1" } };
    expect(send("finalize_handoff", { scope_id: "s2", draft: cite(source) }).status).toBe(200);
    const promptRef = {
      kind: "artifact",
      artifact_ref: { family: "prompt", artifact_id: "skill.generate", revision: 1 },
    };
    expect(send("finalize_handoff", { scope_id: "s2", draft: cite(promptRef) })).toMatchObject({
      status: 404,
      body: { error: { code: "handoff_evidence_not_found" } },
    });
  });

  it("commit refuses a prepared Handoff carrying a receipt, or generation metadata without one", () => {
    send("capture_content_source", { scope_id: "scope-a", source_id: "missing", content: "Tests pass." });
    const prepared = send("finalize_handoff", { scope_id: "scope-a", draft: draft(null) });
    expect(prepared.status).toBe(200);
    const commit = (handoff: unknown) => send("commit_handoff", { scope_id: "scope-a", handoff });
    expect(commit({ ...prepared.body, generation: { receipt: "forged" } }).body.error?.code).toBe(
      "invalid_handoff_generation",
    );
    const content = { ...prepared.body.content, generation: metadata({ scope_id: "scope-a" }) };
    expect(commit({ ...prepared.body, content }).body.error?.code).toBe("invalid_handoff_generation");
    expect(commit(prepared.body).status).toBe(200);
  });
  it("create_artifact refuses an origin naming the wrong Prompt before the Scope is looked up", () => {
    const prompt = { family: "prompt", artifact_id: "handoff.generate", revision: 1 };
    const create = (scope_id: string, over: Record<string, unknown>) => {
      const content = { ...draft(metadata(over)), schema: "powercontext.handoff.v1" };
      const answer = asAdmin(sim, "create_artifact", { params: { scope_id }, body: { family: "handoff", content } });
      return [answer.status, (answer.body as { error?: { code: string } }).error?.code];
    };
    for (const over of [
      { artifact: prompt },
      { selection: "artifact" },
      { selection: "artifact", artifact: { ...prompt, family: "skill" } },
      { selection: "artifact", artifact: { ...prompt, artifact_id: "other" } },
    ])
      expect(create("nowhere", over)).toEqual([422, "invalid_request"]);
    expect(create("nowhere", {})).toEqual([404, "scope_not_found"]);
  });
});
