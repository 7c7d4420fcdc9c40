import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import { isReset, type SimRequest } from "../../src/simulator/types.js";
import { TEST_SCOPES } from "../support/scopes.js";

/**
 * Where the mock looks a Scope up relative to the runtime model rules, as the
 * released server does (docs/compatibility.md, "Validation"): an operation whose
 * body names its Scope (`x-powercontext-scope-mode: current`) finds it before its
 * handler builds any model; one whose Scope is a path parameter builds its models
 * first; one whose handler finds its record first (`x-powercontext-rule-answer`
 * `after: access`) refuses a missing record before a broken rule.
 */
const sim = createPowerContextSimulator({ scopes: TEST_SCOPES, clock: new ManualClock(), seed: 5 });

function send(operationId: string, request: SimRequest): { status: number; code: unknown; body: unknown } {
  const outcome = sim.handle(operationId, { token: "pc-admin", ...request });
  if (isReset(outcome)) throw new Error("unexpected reset");
  const body = outcome.body as { error?: { code?: unknown } } | null;
  return { status: outcome.status, code: body?.error?.code ?? null, body: outcome.body };
}

const contract = {
  schema: "powercontext.work-contract.v1",
  trust: "untrusted_input",
  objective: " spaced objective ",
  facts: [],
  in_scope: ["notes"],
  exclusions: [],
  completion_criteria: ["done"],
  authorization_notes: [],
  open_questions: [],
};

describe("the Scope lookup against the runtime rules", () => {
  it("a body naming an unknown Scope is 404 before its runtime rules", () => {
    const answer = send("create_work_contract", { body: { scope_id: "nowhere", source_id: "c1", contract } });
    expect([answer.status, answer.code]).toEqual([404, "scope_not_found"]);
  });

  it("the same body on a known Scope meets the runtime rule", () => {
    const answer = send("create_work_contract", { body: { scope_id: "s", source_id: "c1", contract } });
    expect([answer.status, answer.code]).toEqual([422, "invalid_request"]);
  });

  it("a path naming an unknown Scope meets the runtime rules first", () => {
    const answer = send("create_dream_run", {
      params: { scope_id: "nowhere" },
      body: {
        operation: "derive_skill",
        artifacts: [{ family: "experience", artifact_id: "art_1", revision: 1 }],
        sources: [{ source_type: "notes", source_id: " spaced " }],
        idempotency_key: "k1",
      },
    });
    expect([answer.status, answer.code]).toEqual([422, "invalid_request"]);
    expect(answer.body).toMatchObject({ error: { details: { errors: [{ loc: ["sources", 0, "source_id"] }] } } });
  });

  it("a tag replacement wants its If-Match, then its Scope, then labels it can read, then the Artifact", () => {
    const at = (scope_id: string) => ({ scope_id, family: "topic-memory", artifact_id: "x" });
    const tags = (scope_id: string, labels: string[], ifMatch = true) =>
      send("replace_artifact_tags", {
        params: at(scope_id),
        headers: ifMatch ? { "If-Match": "no" } : {},
        body: { tags: labels },
      });
    expect([tags("nowhere", [" bad "], false).status]).toEqual([428]);
    expect([tags("nowhere", [" bad "]).status, tags("nowhere", [" bad "]).code]).toEqual([404, "scope_not_found"]);
    expect([tags("s", [" bad "]).status, tags("s", [" bad "]).code]).toEqual([422, "invalid_request"]);
    expect([tags("s", ["ok"]).status, tags("s", ["ok"]).code]).toEqual([404, "artifact_not_found"]);
  });

  it("an access resource naming its Scope with whitespace around it is the access layer's refusal, in its words", () => {
    for (const [operationId, body] of [
      ["list_access_bindings", { management_resource: { type: "scope", scope_id: " s" } }],
      ["list_access_audit", { resource: { type: "scope", scope_id: "s " } }],
    ] as const)
      expect(send(operationId, { body }).body).toEqual({
        error: { code: "invalid_access_request", message: "The Access request is invalid.", details: null },
      });
  });

  it("a handler that finds its record first refuses an unknown one before a broken rule", () => {
    const answer = send("reject_candidate", {
      body: { scope_id: "s", candidate_id: "cand_unknown", expected_version: 1, reason: " spaced " },
    });
    expect([answer.status, answer.code]).toEqual([404, "candidate_not_found"]);
  });

  it("a Handoff's references are checked as its content is mapped, before the Scope lookup; another family's rules after it", () => {
    const handoff = (name: string, source_id = "note-1") => ({
      family: "handoff",
      content: {
        generation: null,
        schema: "powercontext.handoff.v1",
        objective: "one",
        state: [{ text: "Configured.", citations: [{ kind: "source", source_ref: { name, source_id } }] }],
        disposition: "continuable",
        next_action: null,
        omissions: [],
      },
    });
    for (const scope_id of ["nowhere", "s"]) {
      const padded = send("create_artifact", { params: { scope_id }, body: handoff(" content ") });
      expect([padded.status, padded.code], scope_id).toEqual([422, "invalid_request"]);
      // The reference's own issue, not the family model's field refusal.
      expect(padded.body).toMatchObject({ error: { details: { errors: [{ loc: ["source_type"] }] } } });
      const id = send("create_artifact", { params: { scope_id }, body: handoff("content", " note-1") });
      expect(id.body).toMatchObject({ error: { details: { errors: [{ loc: ["source_id"] }] } } });
    }
    const memory = {
      family: "atomic-memory",
      content: { schema: "powercontext.atomic-memory.v1", kind: " ", text: "t" },
    };
    const unknown = send("create_artifact", { params: { scope_id: "nowhere" }, body: memory });
    expect([unknown.status, unknown.code]).toEqual([404, "scope_not_found"]);
  });

  it("a Scope listing's filter with surrounding whitespace is refused before its cursor is read", () => {
    const answer = send("list_scopes", { query: { binding_kind: " notes ", limit: "1", cursor: "not-a-cursor" } });
    expect([answer.status, answer.code]).toEqual([422, "invalid_request"]);
    expect(answer.body).toMatchObject({ error: { details: { errors: [{ loc: ["binding_kind"] }] } } });
  });

  it("a rule the access layer answers comes before the Scope lookup; the handler's model after it", () => {
    const acknowledgement = { source_id: "ack1", receiver: "someone", status: "declined", message: "not now" };
    const exact = send("acknowledge_handoff", {
      body: { scope_id: "nowhere", ...acknowledgement, selection: "exact" },
    });
    expect([exact.status, exact.code]).toEqual([422, "invalid_access_request"]);
    const revision = { family: "handoff", artifact_id: "art_1", revision: 1 };
    const unknown = send("acknowledge_handoff", {
      body: { scope_id: "nowhere", ...acknowledgement, selection: "prepared", revision },
    });
    expect([unknown.status, unknown.code]).toEqual([404, "scope_not_found"]);
    // The handler's own access fault (an accepted acknowledgement without its checks) comes after the lookup.
    const accepted = send("acknowledge_handoff", {
      body: { scope_id: "nowhere", ...acknowledgement, status: "accepted", selection: "prepared", revision },
    });
    expect([accepted.status, accepted.code]).toEqual([404, "scope_not_found"]);
    const known = send("acknowledge_handoff", {
      body: { scope_id: "s", ...acknowledgement, selection: "prepared", revision },
    });
    expect([known.status, known.code, known.body]).toMatchObject([
      422,
      "invalid_request",
      { error: { details: null } },
    ]);
  });

  it("an acceptance comes from its receiver, refused before the handler's model; the model's checks answer without details", () => {
    const confirmed = { live_state: "confirmed", capability: "confirmed", authorization: "confirmed" };
    const acceptance = { scope_id: "s", source_id: "ack2", status: "accepted", selection: "prepared" };
    const codeOf = (body: Record<string, unknown>) => {
      const answer = send("acknowledge_handoff", { body: { ...acceptance, ...body } });
      return [answer.status, answer.code];
    };
    // Another receiver than the caller (the static bearer, service:server-token): refused as an
    // access fault, before the model's own faults (a missing `prepared`, a blank-edged id).
    expect(codeOf({ receiver: "someone", receiver_checks: confirmed })).toEqual([422, "invalid_access_request"]);
    expect(codeOf({ receiver: "someone", source_id: " ack2", receiver_checks: confirmed })).toEqual([
      422,
      "invalid_access_request",
    ]);
    // The Scope is found first.
    expect(codeOf({ scope_id: "nowhere", receiver: "someone", receiver_checks: confirmed })).toEqual([
      404,
      "scope_not_found",
    ]);
    // From its receiver, a check not confirmed is the model's fault.
    const mismatch = { ...confirmed, live_state: "mismatch" };
    expect(codeOf({ receiver: "server-token", receiver_checks: mismatch })).toEqual([422, "invalid_request"]);
    expect(codeOf({ receiver: "server-token" })).toEqual([422, "invalid_request"]);
  });

  it("a search picks its family's searcher before the Scope is looked up", () => {
    const search = (family: string) =>
      send("search_artifacts", { params: { scope_id: "nowhere", family }, body: { query: "notes" } });
    expect([search("nope").status, search("nope").code]).toEqual([404, "artifact_family_not_found"]);
    expect([search("memory").status, search("memory").code]).toEqual([404, "artifact_family_not_found"]);
    expect(search("profile").body).toMatchObject({
      error: { code: "artifact_search_not_supported", details: { field: "family" } },
    });
    expect([search("skill").status, search("skill").code]).toEqual([404, "scope_not_found"]);
  });
});

describe("the access target a binding listing names", () => {
  const artifact = (family: string, selector?: string) => ({
    type: "artifact",
    scope_id: "s",
    identity: { family, artifact_id: "art_1" },
    ...(selector === undefined ? {} : { selector: { type: "memory_entry", entry_id: selector } }),
  });
  const list = (resource: unknown) => send("list_access_bindings", { body: { management_resource: resource } });

  it("refuses a family no access profile has, and an entry selector off a memory collection", () => {
    expect(list(artifact("nope")).code).toBe("invalid_access_request");
    expect(list(artifact("nope", "entry_1")).code).toBe("invalid_access_request");
    expect(list(artifact("skill", "entry_1")).code).toBe("invalid_access_request");
  });

  it("lists the bindings of an Artifact of a profiled family", () => {
    expect(list(artifact("skill")).status).toBe(200);
    expect(list(artifact("handoff")).status).toBe(200);
  });
});

describe("an Access Binding change", () => {
  it("refuses an idempotency key with surrounding whitespace before it looks the binding up", () => {
    const body = { binding_id: "bnd_unknown", expected_version: 1 };
    const spaced = send("revoke_access_binding", { body: { ...body, idempotency_key: " key " } });
    expect([spaced.status, spaced.code]).toEqual([422, "invalid_access_request"]);
    const plain = send("revoke_access_binding", { body: { ...body, idempotency_key: "key" } });
    expect([plain.status, plain.code]).toEqual([404, "access_binding_not_found"]);
  });

  it("refuses a group subject the built-in provider cannot hold, and a subject id with surrounding whitespace", () => {
    const grant = (subject: unknown) =>
      send("create_access_binding", {
        body: { subject, resource: { type: "scope", scope_id: "s" }, role: "scope.viewer", idempotency_key: "k-group" },
      });
    expect(grant({ type: "group", id: "team" }).code).toBe("invalid_access_request");
    expect(grant({ type: "user", id: " ada " }).code).toBe("invalid_access_request");
    expect(grant({ type: "user", id: "ada" }).status).toBe(201);
  });

  it("keeps no description of a replacement subject, so a padded one is no fault before the lookup", () => {
    const answer = send("replace_access_binding", {
      body: {
        binding_id: "bnd_unknown",
        expected_version: 1,
        replacement: { subject: { type: "user", id: "ada", description: " padded " } },
        idempotency_key: "k-replace",
      },
    });
    expect([answer.status, answer.code]).toEqual([404, "access_binding_not_found"]);
  });
});

describe("a legacy Memory target", () => {
  it("is refused before a tag query's own rules and its Scope lookup", () => {
    const answer = send("query_artifact_tags", {
      params: { scope_id: "nowhere" },
      body: { tags: [" padded "], target_types: ["artifact", "memory_entry"] },
    });
    expect([answer.status, answer.code]).toEqual([422, "legacy_memory_operation_unsupported"]);
  });
});
