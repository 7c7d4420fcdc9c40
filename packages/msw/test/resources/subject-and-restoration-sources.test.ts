import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import { contractProblems } from "../support/contract.js";
import { call, type Reply } from "../support/flat-call.js";

/**
 * The Sources two domain writes leave, as the release leaves them: subject
 * evidence is one Source written into the named Scope and into the subject's
 * own Scope (created on first use, titled "Subject"), and a restoration of an
 * Atomic Memory record journals the restoration itself, not the restored content.
 */
function fresh(): PowerContextSimulator {
  return createPowerContextSimulator({ seed: 8, clock: new ManualClock(), scopes: ["s1"] });
}

function valid(operationId: Parameters<typeof call>[1], reply: Reply): Reply {
  expect(contractProblems(operationId, reply.status, { ...reply.headers }, reply.body), operationId).toEqual([]);
  return reply;
}

const sourcesOf = (sim: PowerContextSimulator, scopeId: string) =>
  call(sim, "list_sources", { scope_id: scopeId, limit: 100 }).body.items as {
    source_id: string;
    content: unknown;
    position: number;
  }[];

describe("subject evidence", () => {
  it("writes one Source into the Scope and the subject's own Scope, which a second write reuses", () => {
    const sim = fresh();
    const content = { text: "Prefers short release notes." };
    const made = valid(
      "create_subject_source",
      call(sim, "create_subject_source", { scope_id: "s1", subject_key: "user-1", content }),
    );
    expect(made.status).toBe(201);
    const subjectScope = made.body.subject_scope_id as string;
    expect(made.body).toMatchObject({ subject_key: "user-1", subject_type: "user" });
    expect(subjectScope).not.toBe("s1");
    const [here, there] = made.body.sources;
    expect(here).toMatchObject({ scope_id: "s1", content, position: 1, receipt_identity: null });
    expect(there).toMatchObject({ scope_id: subjectScope, content, position: 1, source_id: here.source_id });
    expect(here.source_id).toMatch(/^source_[0-9a-f]{32}$/);
    expect(sourcesOf(sim, subjectScope).map((s) => s.content)).toEqual([content]);
    expect(call(sim, "get_scope", { scope_id: subjectScope }).body).toMatchObject({
      title: "Subject",
      summary: "Subject evidence",
    });
    // The subject's new Scope starts with Profile generation on (version 1).
    expect(call(sim, "get_profile_policy", { scope_id: subjectScope }).body).toMatchObject({
      scope_id: subjectScope,
      generation_enabled: true,
      activation_mode: "automatic",
      pending_candidate_id: null,
      version: 1,
    });

    const again = call(sim, "create_subject_source", {
      scope_id: "s1",
      subject_key: "user-1",
      content: { text: "More." },
    });
    expect([again.body.subject_scope_id, again.body.sources[0].position, again.body.sources[1].position]).toEqual([
      subjectScope,
      2,
      2,
    ]);
    const elsewhere = call(sim, "create_subject_source", {
      scope_id: "s1",
      subject_key: "user-1",
      subject_scope_id: "s1",
      content,
    });
    expect([elsewhere.status, elsewhere.code]).toEqual([409, "subject_scope_conflict"]);
    const itself = call(sim, "create_subject_source", {
      scope_id: "s1",
      subject_key: "user-2",
      subject_scope_id: "s1",
      content,
    });
    expect([itself.status, itself.code]).toEqual([422, "distinct_scopes_required"]);
  });

  it("decides access once the subject's Scope is known: a named Scope the access layer cannot name is refused there", () => {
    const sim = fresh();
    const named = (subject_key: string, subject_scope_id: string, scope_id = "s1") =>
      call(sim, "create_subject_source", { scope_id, subject_key, subject_scope_id, content: "x" });
    // A Scope id with whitespace around it is no Access resource: 422, before the Scope is looked up.
    expect([named("user-1", " s2 ").status, named("user-1", " s2 ").code]).toEqual([422, "invalid_access_request"]);
    // The Scope the request names is looked up first, the binding and the two Scopes next.
    expect(named("user-1", " s2 ", "nowhere").code).toBe("scope_not_found");
    expect(named("user-1", "s1").code).toBe("distinct_scopes_required");
    // A well-formed Scope that does not exist is looked up after access.
    expect([named("user-1", "s2").status, named("user-1", "s2").code]).toEqual([404, "scope_not_found"]);
    const bound = call(sim, "create_subject_source", { scope_id: "s1", subject_key: "user-2", content: "x" });
    expect(named("user-2", " s2 ").code).toBe("subject_scope_conflict");
    expect(named("user-2", bound.body.subject_scope_id).status).toBe(201);
  });

  it("draws a new subject's Scope id only once the request is allowed", () => {
    const subjectScopeOf = (refusedFirst: boolean) => {
      const sim = fresh();
      if (refusedFirst) {
        const refused = sim.handle("create_subject_source", {
          token: "pc-writer",
          params: { scope_id: "s1" },
          body: { subject_key: "user-1", content: "x" },
        }) as { status: number };
        expect(refused.status).toBe(403);
      }
      return call(sim, "create_subject_source", { scope_id: "s1", subject_key: "user-1", content: "x" }).body
        .subject_scope_id;
    };
    expect(subjectScopeOf(true)).toBe(subjectScopeOf(false));
  });
});

describe("Atomic Memory restoration", () => {
  it("journals the restoration as a Source of its own, and the new revision cites it", () => {
    const sim = fresh();
    const record = call(sim, "remember_memory", { scope_id: "s1", kind: "fact", text: "Backups run nightly." }).body
      .records[0];
    call(sim, "change_atomic_memory_lifecycle", {
      scope_id: "s1",
      target: { artifact: record.artifact, state_version: record.state_version },
      state: "forgotten",
    });
    const before = sourcesOf(sim, "s1").length;
    const target = { artifact_id: record.artifact.artifact_id };
    const preview = call(sim, "preview_atomic_memory_restoration", { scope_id: "s1", target }).body;
    const restored = call(sim, "restore_atomic_memory", {
      scope_id: "s1",
      target,
      preview_token: preview.preview_token,
    });
    expect([restored.status, restored.body.changed]).toEqual([200, true]);
    const sources = sourcesOf(sim, "s1");
    expect(sources).toHaveLength(before + 1);
    const journal = sources.at(-1) as { source_id: string; content: unknown };
    expect(journal.content).toBe("Artifact restoration completed.");
    expect(journal.source_id).toMatch(/^artifact-restoration_[0-9a-f]{32}$/);
    const head = call(sim, "get_artifact", {
      scope_id: "s1",
      family: "atomic-memory",
      artifact_id: target.artifact_id,
    });
    expect(head.body.sources).toEqual([{ source_type: "content", source_id: journal.source_id }]);
  });
});

describe("the Profile policy beside the Profile", () => {
  it("is created (generation off) by the first Profile write and raised by each one", () => {
    const sim = fresh();
    expect(call(sim, "get_profile_policy", { scope_id: "s1" }).status).toBe(404);
    const made = call(sim, "create_artifact", {
      scope_id: "s1",
      family: "profile",
      content: { content: "Prefers short answers." },
    });
    expect(made.status).toBe(201);
    expect(valid("get_profile_policy", call(sim, "get_profile_policy", { scope_id: "s1" })).body).toMatchObject({
      scope_id: "s1",
      generation_enabled: false,
      activation_mode: "automatic",
      version: 2,
    });
  });
});
