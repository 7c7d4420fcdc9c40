import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import {
  createPowerContextSimulator,
  type PowerContextSimulator,
  type SimulatorOptions,
} from "../../src/simulator/simulator.js";
import { isReset, type SimRequest } from "../../src/simulator/types.js";
import { TEST_SCOPES } from "../support/scopes.js";

/**
 * The contract's refusals (`x-powercontext-refusals`) as a 1.4.1 server answers
 * them, measured on a live server with authentication on: the legacy Memory
 * operations always, and, with `inference: "off"`, what a default install
 * without a model answers. Each in the release's order: after the body and
 * access checks, before any lookup (legacy) or once the Scope is found.
 */

function simulator(options: SimulatorOptions = {}): PowerContextSimulator {
  return createPowerContextSimulator({ scopes: TEST_SCOPES, clock: new ManualClock(), seed: 3, ...options });
}

function send(
  sim: PowerContextSimulator,
  operationId: string,
  request: SimRequest,
  token = "pc-admin",
): { status: number; body: any } {
  const outcome = sim.handle(operationId, { token, ...request });
  if (isReset(outcome)) throw new Error("unexpected reset");
  return { status: outcome.status, body: outcome.body };
}

const LEGACY_MESSAGE =
  "The legacy Memory collection is not served; rebuild the request on the Atomic Memory operations in details.alternatives, and keep its preconditions.";
const scopeNotFound = {
  status: 404,
  body: { error: { code: "scope_not_found", message: "The requested Scope was not found.", details: null } },
};

function legacy(operation: string, alternatives: string[]) {
  return {
    status: 422,
    body: {
      error: {
        code: "legacy_memory_operation_unsupported",
        message: LEGACY_MESSAGE,
        details: { kind: "artifact_family", name: "memory", operation, alternatives, instruction: expect.any(String) },
      },
    },
  };
}

describe("the legacy Memory operations (with or without a model)", () => {
  const sim = simulator();
  const tags = ["POST /v1/scopes/{scope_id}/artifacts", "POST /v1/atomic-memory/list"];

  it("refuse with 422 legacy_memory_operation_unsupported and the release's details, before the Scope is looked up", () => {
    expect(send(sim, "get_memory_capacity", { body: { scope_id: "nowhere" } })).toEqual(
      legacy("collection capacity", []),
    );
    expect(send(sim, "list_memory_changes", { body: { scope_id: "nowhere" } })).toEqual(
      legacy("continuous collection changes", []),
    );
    expect(send(sim, "retire_memory_entry", { body: { scope_id: "nowhere", citation: {} } })).toEqual(
      legacy("citation retire", ["POST /v1/atomic-memory/lifecycle"]),
    );
    expect(
      send(sim, "revise_memory_entry", { body: { scope_id: "nowhere", citation: {}, kind: "fact", text: "Revised." } }),
    ).toEqual(legacy("citation revise", ["PUT /v1/scopes/{scope_id}/artifacts/atomic-memory/{artifact_id}"]));
    expect(
      send(sim, "get_memory_entry_tags", { params: { scope_id: "nowhere", artifact_id: "a", entry_id: "e" } }),
    ).toEqual(legacy("entry tags", tags));
  });

  it("refuse a tag replacement before its missing If-Match (428)", () => {
    const request = { params: { scope_id: "s1", artifact_id: "a", entry_id: "e" }, body: { tags: ["x"] } };
    expect(send(sim, "replace_memory_entry_tags", request)).toEqual(legacy("entry tags", tags));
  });

  it("still answer a body the access layer cannot read with 422 invalid_access_request, and a bad parameter first", () => {
    expect(send(sim, "retire_memory_entry", { body: { scope_id: "nowhere" } })).toEqual({
      status: 422,
      body: { error: { code: "invalid_access_request", message: "The Access request is invalid.", details: null } },
    });
    const long = send(sim, "get_memory_entry_tags", {
      params: { scope_id: "s1", artifact_id: "a", entry_id: "e".repeat(300) },
    });
    expect([long.status, long.body.error.code, long.body.error.details.errors[0].type]).toEqual([
      422,
      "invalid_request",
      "string_too_long",
    ]);
  });

  it("refuse the Artifact routes of the memory family: tags, writes and tag queries before the Scope lookup", () => {
    const collection = ["POST /v1/scopes/{scope_id}/artifacts", "POST /v1/atomic-memory/list"];
    const at = { scope_id: "nowhere", family: "memory", artifact_id: "a" };
    expect(send(sim, "get_artifact_tags", { params: at })).toEqual(legacy("collection tags", collection));
    expect(send(sim, "replace_artifact_tags", { params: at, body: { tags: ["x"] } })).toEqual(
      legacy("collection tags", collection),
    );
    expect(
      send(sim, "replace_artifact", { params: at, body: { content: { entries: [{ kind: "fact", text: "x" }] } } }),
    ).toEqual(legacy("collection writes", collection));
    const query = (families?: string[]) =>
      send(sim, "query_artifact_tags", {
        params: { scope_id: "nowhere" },
        body: { tags: ["x"], ...(families ? { families } : {}) },
      });
    expect(query(["experience", "memory"])).toEqual(legacy("tag query", collection));
    expect(query(["experience"]).body?.error?.code ?? null).not.toBe("legacy_memory_operation_unsupported");
    expect(query().body?.error?.code ?? null).not.toBe("legacy_memory_operation_unsupported");
  });

  it("refuse the memory family's creation and reads once the Scope is found, and leave other families alone", () => {
    const collection = ["POST /v1/scopes/{scope_id}/artifacts", "POST /v1/atomic-memory/list"];
    const create = (scope_id: string) =>
      send(sim, "create_artifact", {
        params: { scope_id },
        body: { family: "memory", content: { entries: [{ kind: "fact", text: "x" }] } },
      });
    expect(create("nowhere")).toEqual(scopeNotFound);
    expect(create("s1")).toEqual(legacy("collection writes", collection));
    const read = legacy("legacy Memory collection read", collection);
    expect(send(sim, "get_artifact", { params: { scope_id: "nowhere", family: "memory", artifact_id: "a" } })).toEqual(
      scopeNotFound,
    );
    expect(send(sim, "get_artifact", { params: { scope_id: "s1", family: "memory", artifact_id: "a" } })).toEqual(read);
    expect(send(sim, "list_artifacts", { params: { scope_id: "s1", family: "memory" } })).toEqual(read);
    expect(
      send(sim, "list_artifact_revisions", { params: { scope_id: "s1", family: "memory", artifact_id: "a" } }),
    ).toEqual(read);
    expect(
      send(sim, "get_artifact_revision", {
        params: { scope_id: "s1", family: "memory", artifact_id: "a", revision: "1" },
      }),
    ).toEqual(read);
    const other = send(sim, "get_artifact", { params: { scope_id: "s1", family: "experience", artifact_id: "a" } });
    expect(other.body?.error?.code ?? null).not.toBe("legacy_memory_operation_unsupported");
  });

  it("refuse get_memory_entry by citation once its Scope is found, and leave a target read alone", () => {
    expect(send(sim, "get_memory_entry", { body: { scope_id: "nowhere", citation: {} } })).toEqual(scopeNotFound);
    expect(send(sim, "get_memory_entry", { body: { scope_id: "s1", citation: { a: 1 } } })).toEqual(
      legacy("citation read", [
        "GET /v1/scopes/{scope_id}/artifacts/atomic-memory/{artifact_id}/revisions/{revision}",
        "POST /v1/memory/entries/get",
      ]),
    );
    const target = send(sim, "get_memory_entry", {
      body: { scope_id: "s1", target: { type: "memory_entry", family: "memory", artifact_id: "a", entry_id: "e" } },
    });
    expect(target.body?.error?.code).not.toBe("legacy_memory_operation_unsupported");
  });
});

const unavailable = (
  status: number,
  code: string,
  message: string,
  details: Record<string, unknown> | null = null,
) => ({
  status,
  body: { error: { code, message, details } },
});
const NO_MODEL = "needs an inference model, and none is configured.";

/** One valid request of each operation a default install refuses without a model. */
const GENERATION: [string, SimRequest, ReturnType<typeof unavailable>][] = [
  [
    "flush_topic_memory",
    { body: { scope_id: "s1" } },
    unavailable(503, "topic_memory_processing_unavailable", `Topic Memory processing ${NO_MODEL}`),
  ],
  [
    "generate_experience",
    { body: { scope_id: "s1", source_refs: [{ name: "content", source_id: "n1" }], artifact_refs: [] } },
    unavailable(503, "generation_unavailable", `Generation ${NO_MODEL}`, { family: "experience" }),
  ],
  [
    "generate_skill",
    {
      body: {
        scope_id: "s1",
        origin: "source",
        source_refs: [{ name: "content", source_id: "n1" }],
        artifact_refs: [],
      },
    },
    unavailable(503, "generation_unavailable", `Generation ${NO_MODEL}`, { family: "skill" }),
  ],
  [
    "create_dream_run",
    {
      params: { scope_id: "s1" },
      body: {
        operation: "refine_experience",
        artifacts: [{ family: "experience", artifact_id: "art_x", revision: 1 }],
        idempotency_key: "d1",
      },
    },
    unavailable(503, "capability_unavailable", "Dream runs need an inference model, and none is configured."),
  ],
  [
    "prepare_handoff",
    {
      body: {
        scope_id: "s1",
        objective: "Automate.",
        evidence: [{ kind: "source", source_ref: { name: "content", source_id: "n1" } }],
      },
    },
    unavailable(503, "handoff_generation_unavailable", `Handoff drafting ${NO_MODEL}`),
  ],
  [
    "generate_prompt_demonstrations",
    {
      params: { scope_id: "s1", prompt_key: "memory.extract" },
      body: { instructions: "Extract facts.", demonstration_count: 1 },
    },
    unavailable(
      422,
      "prompt_customization_unavailable",
      "Prompt demonstrations need a customizable prompt component and an inference model; neither is configured.",
    ),
  ],
];

/** The request with its Scope replaced by one the simulator does not hold. */
function elsewhere(request: SimRequest): SimRequest {
  const body = request.body as Record<string, unknown>;
  return request.params?.scope_id !== undefined
    ? { ...request, params: { ...request.params, scope_id: "nowhere" } }
    : { ...request, body: { ...body, scope_id: "nowhere" } };
}

describe("inference off: what a default 1.4.1 install without a model answers", () => {
  it.each(GENERATION)(
    "%s is refused once its Scope is found, even on an empty Scope",
    (operationId, request, refusal) => {
      const sim = simulator({ inference: "off" });
      expect(send(sim, operationId, request)).toEqual(refusal);
      expect(send(sim, operationId, elsewhere(request))).toEqual(scopeNotFound);
    },
  );

  it("activate_handoff finds its boundary Source (by type and id) in the Scope before it needs a model", () => {
    const sim = simulator({ inference: "off" });
    const activate = {
      body: { scope_id: "s1", boundary_source: { name: "content", source_id: "n1" }, objective: "A." },
    };
    expect([
      send(sim, "activate_handoff", activate).status,
      send(sim, "activate_handoff", activate).body.error.code,
    ]).toEqual([404, "handoff_evidence_not_found"]);
    expect(send(sim, "activate_handoff", elsewhere(activate))).toEqual(scopeNotFound);
    send(sim, "capture_content_source", { body: { scope_id: "s1", source_id: "n1", content: "Cut on Tuesdays." } });
    const otherType = { body: { ...activate.body, boundary_source: { name: "tickets", source_id: "n1" } } };
    expect(send(sim, "activate_handoff", otherType).body.error.code).toBe("handoff_evidence_not_found");
    expect(send(sim, "activate_handoff", activate)).toEqual(
      unavailable(503, "handoff_generation_unavailable", `Handoff drafting ${NO_MODEL}`),
    );
  });

  it("flush_memory answers 200 idle with nothing pending, 503 inference_unavailable once a Source waits", () => {
    const sim = simulator({ inference: "off" });
    const idle = send(sim, "flush_memory", { body: { scope_id: "s1" } });
    expect([idle.status, idle.body.status, idle.body.processed_source_count]).toEqual([200, "idle", 0]);
    expect(
      send(sim, "capture_content_source", {
        body: { scope_id: "s1", source_id: "n1", content: "Releases are cut on Tuesdays." },
      }).status,
    ).toBe(202);
    expect(send(sim, "flush_memory", { body: { scope_id: "s1" } })).toEqual(
      unavailable(503, "inference_unavailable", "No inference model is available to process the pending Sources."),
    );
    expect(send(sim, "flush_memory", { body: { scope_id: "nowhere" } })).toEqual(scopeNotFound);
    expect(sim.inspect.memoryCursor("s1")).toBe(0);
  });

  it("keeps Topic Memory processing from running: a Scope with Sources stays pending", () => {
    const clock = new ManualClock();
    const sim = simulator({ inference: "off", clock });
    send(sim, "capture_content_source", {
      body: { scope_id: "s1", source_id: "n1", content: "Releases are cut on Tuesdays." },
    });
    clock.advance(60_000);
    const status = send(sim, "get_topic_memory_processing_status", { body: { scope_id: "s1" } });
    expect(status).toEqual({
      status: 200,
      body: { state: "pending", source_cursor: 0, source_head: 1, target_source_through: null, block: null },
    });
  });

  it("still checks access first: a reader is 403 before the refusal", () => {
    const sim = simulator({ inference: "off" });
    expect(send(sim, "flush_topic_memory", { body: { scope_id: "s1" } }, "pc-reader").status).toBe(403);
  });
});

describe("inference on (the mock's default): a model is present", () => {
  it.each(GENERATION)("%s is not refused for want of a model", (operationId, request, refusal) => {
    const answer = send(simulator(), operationId, request);
    expect(answer.body?.error?.code ?? null).not.toBe(refusal.body.error.code);
  });

  it("flush_memory processes pending Sources", () => {
    const sim = simulator({ waitBudgetMs: 60_000 });
    send(sim, "capture_content_source", {
      body: { scope_id: "s1", source_id: "n1", content: "Releases are cut on Tuesdays." },
    });
    const flush = send(sim, "flush_memory", { body: { scope_id: "s1" } });
    expect(flush.status === 200 || flush.status === 202).toBe(true);
  });

  it("refuses an inference mode it does not know", () => {
    expect(() => simulator({ inference: "maybe" as never })).toThrow(RangeError);
  });
});

describe("refusals of an access target outside the families the release resolves (when.outside)", () => {
  const sim = simulator();
  const invalid = {
    status: 422,
    body: { error: { code: "invalid_access_request", message: "The Access request is invalid.", details: null } },
  };

  it("refuse get_experience and get_skill for an Artifact of another family, before the Scope is looked up", () => {
    expect(
      send(sim, "get_experience", {
        body: { scope_id: "nowhere", artifact: { family: "skill", artifact_id: "a", revision: 1 } },
      }),
    ).toEqual(invalid);
    expect(
      send(sim, "get_skill", {
        body: { scope_id: "nowhere", artifact: { family: "experience", artifact_id: "a", revision: 1 } },
      }),
    ).toEqual(invalid);
    expect(
      send(sim, "get_experience", {
        body: { scope_id: "nowhere", artifact: { family: "experience", artifact_id: "a", revision: 1 } },
      }).body.error.code,
    ).toBe("scope_not_found");
  });

  it("refuse a server resource naming another deployment than the release's (powercontext), and let a Scope resource through", () => {
    const server = (deployment_id: string) => ({ type: "server", deployment_id });
    expect(send(sim, "list_access_bindings", { body: { management_resource: server("local") } })).toEqual(invalid);
    expect(send(sim, "list_access_audit", { body: { resource: server("local") } })).toEqual(invalid);
    expect(
      send(sim, "create_access_binding", {
        body: {
          subject: { type: "user", id: "u" },
          resource: server("local"),
          role: "server.observer",
          idempotency_key: "k-local",
        },
      }),
    ).toEqual(invalid);
    expect(send(sim, "list_access_bindings", { body: { management_resource: server("powercontext") } }).status).toBe(
      200,
    );
    expect(
      send(sim, "list_access_bindings", { body: { management_resource: { type: "scope", scope_id: "s1" } } }).status,
    ).toBe(200);
  });

  it("refuse check_access when any requirement names a server resource of another deployment (a list step of outside)", () => {
    const requirement = (deployment_id: string) => ({
      action: "server.observe",
      resource: { type: "server", deployment_id },
    });
    const scoped = { action: "scope.read", resource: { type: "scope", scope_id: "s1" } };
    expect(send(sim, "check_access", { body: { match: "all", requirements: [scoped, requirement("local")] } })).toEqual(
      invalid,
    );
    expect(
      send(sim, "check_access", { body: { match: "all", requirements: [scoped, requirement("powercontext")] } }).status,
    ).toBe(200);
    expect(send(sim, "check_access", { body: { match: "all", requirements: [scoped] } }).status).toBe(200);
  });

  it("refuse an Artifact access target of the legacy memory family before the other checks of the Access routes", () => {
    const memory = (scope_id: string, selector?: unknown) => ({
      type: "artifact",
      scope_id,
      identity: { family: "memory", artifact_id: "mem_x" },
      ...(selector === undefined ? {} : { selector }),
    });
    const refused = legacy("access target", ["POST /v1/scopes/{scope_id}/artifacts", "POST /v1/atomic-memory/list"]);
    const entry = { type: "memory_entry", entry_id: "e1" };
    // With or without an entry selector, in a Scope that exists or not.
    expect(send(sim, "list_access_bindings", { body: { management_resource: memory("s1") } })).toEqual(refused);
    expect(send(sim, "list_access_bindings", { body: { management_resource: memory("nowhere", entry) } })).toEqual(
      refused,
    );
    // Every requirement is mapped before any is decided, so a bad deployment beside it does not come first.
    const scoped = { action: "scope.read", resource: { type: "scope", scope_id: "s1" } };
    const elsewhere = { action: "server.observe", resource: { type: "server", deployment_id: "local" } };
    const legacyRead = { action: "artifact.read", resource: memory("s1", entry) };
    for (const requirements of [
      [scoped, legacyRead],
      [elsewhere, legacyRead],
      [legacyRead, elsewhere],
    ])
      expect(send(sim, "check_access", { body: { match: "any", requirements } })).toEqual(refused);
    // Before the subject's kind, which the access service refuses later.
    expect(
      send(sim, "create_access_binding", {
        body: {
          subject: { type: "group", id: "g" },
          resource: memory("nowhere"),
          role: "artifact.viewer",
          idempotency_key: "k-m",
        },
      }),
    ).toEqual(refused);
    // Other families are targets as before.
    const prompt = { type: "artifact", scope_id: "s1", identity: { family: "prompt", artifact_id: "p" } };
    expect(send(sim, "list_access_bindings", { body: { management_resource: prompt } }).status).toBe(200);
    expect(
      send(sim, "check_access", {
        body: { match: "all", requirements: [{ action: "artifact.read", resource: prompt }] },
      }).status,
    ).toBe(200);
  });

  it("refuse get_source of an id with whitespace around it once the Scope is found, as its Source reference does", () => {
    const at = (scope: string, id: string) => ({ params: { scope_id: scope, source_type: "content", source_id: id } });
    for (const id of [" report", "report ", "report\t"])
      expect(send(sim, "get_source", at("s1", id))).toEqual({
        status: 422,
        body: {
          error: {
            code: "invalid_request",
            message: "The request violates the API contract.",
            details: { errors: [{ type: "value_error", loc: ["source_id"], msg: expect.any(String) }] },
          },
        },
      });
    expect(send(sim, "get_source", at("nowhere", " report"))).toEqual(scopeNotFound);
    expect(send(sim, "get_source", at("s1", "report")).body.error.code).toBe("source_not_found");
  });

  it("refuse publish_artifact from a family the release does not know, and let a known one through", () => {
    const request = (family: string) => ({
      body: {
        source: { scope_id: "s1", artifact: { family, artifact_id: "a", revision: 1 } },
        target_scope_id: "s1",
        idempotency_key: `publish-${family}`,
      },
    });
    expect(send(sim, "publish_artifact", request("conformance"))).toEqual(invalid);
    expect(send(sim, "publish_artifact", request("experience")).body?.error?.code).not.toBe("invalid_access_request");
  });

  it("refuse publish_remote_skill of an Artifact outside the skill family, before the Scope is looked up", () => {
    const request = (family: string) => ({
      body: {
        scope_id: "nowhere",
        target_id: "t",
        artifact: { family, artifact_id: "a", revision: 1 },
        expected_generation: null,
      },
    });
    expect(send(sim, "publish_remote_skill", request("experience"))).toEqual(invalid);
    expect(send(sim, "publish_remote_skill", request("skill")).body.error.code).toBe("scope_not_found");
  });
});

describe("external Skills: the mock, as a default install, has no external Skill folders", () => {
  const sim = simulator();
  const notFound = {
    status: 404,
    body: {
      error: {
        code: "external_skill_not_found",
        message: "No external Skill has this id and fingerprint on this host.",
        details: null,
      },
    },
  };
  const request = (scope_id: string) => ({
    body: { scope_id, external_skill_id: "codex:one", fingerprint: "0".repeat(64) },
  });

  it("resolve and import nothing (404 external_skill_not_found) once the Scope is found", () => {
    expect(send(sim, "resolve_external_skill", request("s1"))).toEqual(notFound);
    expect(send(sim, "import_external_skill", { body: { ...request("s1").body, mode: "import" } })).toEqual(notFound);
    expect(send(sim, "resolve_external_skill", request("nowhere"))).toEqual(scopeNotFound);
    expect(send(sim, "list_external_skills", { body: { scope_id: "s1" } }).body).toMatchObject({ skills: [] });
  });
});

describe("refusals of an empty selection (when.empty) and of a record the Scope does not hold (when.unknown)", () => {
  const sim = simulator();

  it("refuse a Dream run that selects no Artifact (422 evidence_selection_required) before the Scope is looked up", () => {
    const run = (body: Record<string, unknown>) =>
      send(sim, "create_dream_run", {
        params: { scope_id: "nowhere" },
        body: { operation: "refine_experience", ...body },
      });
    for (const selection of [{}, { artifacts: [] }]) {
      const answer = run({ ...selection, idempotency_key: "empty" });
      expect(answer.status).toBe(422);
      expect(answer.body.error.code).toBe("invalid_request");
      expect(answer.body.error.details.errors[0]).toMatchObject({
        type: "evidence_selection_required",
        loc: ["artifacts"],
      });
    }
    const selected = run({
      artifacts: [{ family: "experience", artifact_id: "a", revision: 1 }],
      idempotency_key: "k",
    });
    expect(selected.body.error.code).toBe("scope_not_found");
  });

  it("refuse a lifecycle change of a Skill the Scope does not hold with 403 forbidden, an unknown Scope included", () => {
    const change = (scope_id: string) =>
      send(sim, "update_skill_lifecycle", {
        body: { scope_id, artifact_id: "art_missing", expected_generation: 0, lifecycle_state: "deprecated" },
      });
    expect([change("s1").status, change("s1").body.error.code]).toEqual([403, "forbidden"]);
    expect(change("nowhere").status).toBe(403);
  });
});

describe("search_artifacts: the family's own search model, as the release reads it", () => {
  const sim = simulator();
  const search = (family: string, body: Record<string, unknown>, scope_id = "s1") =>
    send(sim, "search_artifacts", { params: { scope_id, family }, body: { query: "backup", ...body } });
  const code = (answer: { status: number; body: any }) => [answer.status, answer.body?.error?.code ?? null];

  it("refuses an unknown family (404) and a family without a searcher (422) before the Scope is looked up", () => {
    expect(code(search("no-such-family", {}, "nowhere"))).toEqual([404, "artifact_family_not_found"]);
    expect(code(search("memory", {}, "nowhere"))).toEqual([404, "artifact_family_not_found"]);
    expect(search("prompt", {}, "nowhere")).toMatchObject({
      status: 422,
      body: { error: { code: "artifact_search_not_supported", details: { field: "family" } } },
    });
    expect(code(search("skill", { rerank: { a: 1 } }, "nowhere"))).toEqual([404, "scope_not_found"]);
  });

  it("refuses keys a family's filters or admission do not declare (when.outside through an object's keys)", () => {
    expect(code(search("skill", { filters: {} }))).toEqual([200, null]);
    expect(code(search("skill", { filters: { kind: "k" } }))).toEqual([422, "invalid_request"]);
    expect(code(search("atomic-memory", { filters: { kind: "k" } }))).toEqual([200, null]);
    expect(code(search("atomic-memory", { filters: { other: "k" } }))).toEqual([422, "invalid_request"]);
    expect(code(search("experience", { admission: { lexical_coverage: 0.5 } }))).toEqual([200, null]);
    expect(code(search("experience", { admission: { min_semantic_similarity: 0.5 } }))).toEqual([
      422,
      "invalid_request",
    ]);
  });

  it("refuses a limit above the family's own bound (when.above), members a family does not take, and modes it cannot run", () => {
    expect(code(search("topic-memory", { limit: 20 }))).toEqual([200, null]);
    expect(code(search("topic-memory", { limit: 21 }))).toEqual([422, "invalid_request"]);
    expect(code(search("atomic-memory", { limit: 100 }))).toEqual([200, null]);
    expect(code(search("atomic-memory", { limit: 101 }))).toEqual([422, "invalid_request"]);
    expect(code(search("skill", { limit: 200 }))).toEqual([200, null]);
    expect(code(search("atomic-memory", { rerank: {} }))).toEqual([422, "invalid_request"]);
    expect(code(search("skill", { fusion: { method: "rrf" } }))).toEqual([422, "invalid_request"]);
    expect(code(search("topic-memory", { fusion: { method: "rrf" } }))).toEqual([200, null]);
    expect(code(search("topic-memory", { fusion: { method: "other" } }))).toEqual([422, "invalid_request"]);
    expect(code(search("atomic-memory", { mode: "vector" }))).toEqual([422, "artifact_search_not_supported"]);
    expect(code(search("topic-memory", { mode: "vector" }))).toEqual([422, "invalid_request"]);
  });
});

describe("publish_artifact: the families that are never published (when.equals through a path)", () => {
  const sim = simulator();
  const publish = (family: string, scope_id = "s1", target_scope_id = "s2") =>
    send(sim, "publish_artifact", {
      body: {
        source: { scope_id, artifact: { family, artifact_id: "art_x", revision: 1 } },
        target_scope_id,
        idempotency_key: `k-${family}-${scope_id}`,
      },
    });
  const code = (answer: { status: number; body: any }) => [answer.status, answer.body?.error?.code ?? null];

  it("refuses Atomic Memory before any Scope is looked up, then needs both Scopes and the exact source", () => {
    expect(publish("atomic-memory", "nowhere")).toMatchObject({
      status: 422,
      body: { error: { code: "artifact_publication_unsupported", details: { family: "atomic-memory" } } },
    });
    expect(code(publish("atomic-memory", "s1", "s1"))).toEqual([422, "invalid_request"]);
    expect(code(publish("skill", "nowhere"))).toEqual([404, "scope_not_found"]);
    expect(code(publish("skill", "s1", "nowhere"))).toEqual([404, "scope_not_found"]);
    expect(code(publish("profile"))).toEqual([404, "not_found"]);
  });

  it("refuses a Profile once it is found", () => {
    expect(
      send(sim, "create_artifact", {
        params: { scope_id: "s1" },
        body: { family: "profile", content: { content: "Prefers short answers." } },
      }).status,
    ).toBe(201);
    const answer = send(sim, "publish_artifact", {
      body: {
        source: { scope_id: "s1", artifact: { family: "profile", artifact_id: "profile", revision: 1 } },
        target_scope_id: "s2",
        idempotency_key: "k-profile-found",
      },
    });
    expect(answer).toMatchObject({ status: 422, body: { error: { details: { family: "profile" } } } });
  });
});

describe("an empty cursor is one no list hands out; a fork needs the generation model", () => {
  const sim = simulator({ inference: "off" });
  const code = (answer: { status: number; body: any }) => [answer.status, answer.body?.error?.code ?? null];

  it("refuses an empty cursor with the list's own bad-cursor refusal", () => {
    expect(code(send(sim, "list_dream_runs", { params: { scope_id: "s1" }, query: { cursor: "" } }))).toEqual([
      422,
      "invalid_cursor",
    ]);
    expect(code(send(sim, "list_atomic_memories", { body: { scope_id: "s1", cursor: "" } }))).toEqual([
      400,
      "invalid_cursor",
    ]);
    expect(code(send(sim, "list_atomic_memories", { body: { scope_id: "s1" } }))).toEqual([200, null]);
  });

  it("answers an external Skill fork 503 generation_unavailable before the Skill is looked up, an import 404", () => {
    const body = (mode: string) => ({
      scope_id: "s1",
      external_skill_id: "x",
      fingerprint: "e".repeat(64),
      mode,
      reason: "r",
    });
    expect(send(sim, "import_external_skill", { body: body("fork") })).toMatchObject({
      status: 503,
      body: { error: { code: "generation_unavailable", details: { family: "skill" } } },
    });
    expect(code(send(sim, "import_external_skill", { body: body("import") }))).toEqual([
      404,
      "external_skill_not_found",
    ]);
  });
});

describe("query_artifact_tags: legacy Memory targets and cursors", () => {
  const sim = simulator();
  const query = (scope_id: string, body: Record<string, unknown>) =>
    send(sim, "query_artifact_tags", { params: { scope_id }, body: { tags: ["a"], ...body } });

  it("refuses memory_entry targets as a legacy Memory operation before the Scope and the request's own rules", () => {
    expect(query("nowhere", { target_types: ["memory_entry", "memory_entry"] }).body.error.code).toBe(
      "legacy_memory_operation_unsupported",
    );
  });

  it("refuses a cursor it never handed out, once the Scope is found", () => {
    expect(query("s1", { cursor: "abc" })).toMatchObject({ status: 400, body: { error: { code: "invalid_cursor" } } });
    expect(query("nowhere", { cursor: "abc" }).body.error.code).toBe("scope_not_found");
    expect(query("s1", {}).status).toBe(200);
  });
});

describe("remember_memory: a collection revision precondition is legacy Memory", () => {
  const sim = simulator();

  it("refuses a non-null expected_revision once the Scope is found, and accepts a null one", () => {
    const remember = (body: Record<string, unknown>, scope_id = "nowhere") =>
      send(sim, "remember_memory", { body: { scope_id, kind: "fact", text: "x", ...body } });
    expect(remember({ expected_revision: 2 }).body.error.code).toBe("scope_not_found");
    expect(remember({ expected_revision: 2 }, "s1")).toMatchObject({
      status: 422,
      body: {
        error: {
          code: "legacy_memory_operation_unsupported",
          details: { operation: "collection revision precondition" },
        },
      },
    });
    expect(remember({ expected_revision: null }).body.error.code).toBe("scope_not_found");
  });
});

describe("a proposal without evidence (when.empty over several members)", () => {
  const sim = simulator();
  const proposal = { situation: "s", action: "a", outcome: "o", lesson: "l" };

  it("refuses an Experience proposal citing nothing with 422 invalid_request, once the Scope is found", () => {
    const propose = (scope_id: string, refs: Record<string, unknown>) =>
      send(sim, "propose_experience", { body: { scope_id, proposal, reason: "r", ...refs } });
    expect(propose("s1", { source_refs: [], artifact_refs: [] })).toEqual({
      status: 422,
      body: { error: { code: "invalid_request", message: "The request is invalid.", details: null } },
    });
    expect(propose("nowhere", { source_refs: [], artifact_refs: [] }).body.error.code).toBe("scope_not_found");
  });

  it("refuses evidence the Scope does not hold (when.unknown through a list step: one unknown item is enough)", () => {
    const propose = (refs: Record<string, unknown>) =>
      send(sim, "propose_experience", { body: { scope_id: "s1", proposal, reason: "r", artifact_refs: [], ...refs } });
    expect(
      send(sim, "capture_content_source", { body: { scope_id: "s1", source_id: "ev1", content: "seen" } }).status,
    ).toBe(202);
    const known = { name: "content", source_id: "ev1" };
    expect(propose({ source_refs: [known] }).status).toBe(201);
    expect(propose({ source_refs: [known, { name: "content", source_id: "nope" }] }).body.error.code).toBe(
      "invalid_request",
    );
    expect(
      propose({ source_refs: [known], artifact_refs: [{ family: "skill", artifact_id: "art_none", revision: 1 }] })
        .status,
    ).toBe(422);
  });
});

describe("flush_memory without a model: only Sources with content to extract are pending", () => {
  it("processes a window of working notes (200) and refuses one with a content Source (503)", () => {
    const sim = simulator({ inference: "off" });
    expect(
      send(sim, "capture_working_note", {
        body: { scope_id: "s1", source_id: "wn1", content: "note", session_id: "s", note_kind: "inspection" },
      }).status,
    ).toBe(202);
    expect(send(sim, "flush_memory", { body: { scope_id: "s1" } })).toMatchObject({
      status: 200,
      body: { status: "processed", current_cursor: 1, processed_source_count: 0 },
    });
    expect(
      send(sim, "capture_content_source", { body: { scope_id: "s1", source_id: "c1", content: "hello" } }).status,
    ).toBe(202);
    expect(send(sim, "flush_memory", { body: { scope_id: "s1" } }).body.error.code).toBe("inference_unavailable");
  });
});

describe("create_dream_run: each operation reads Artifacts of its own families", () => {
  const sim = simulator({ inference: "off" });
  const run = (scope_id: string, operation: string, family: string) =>
    send(sim, "create_dream_run", {
      params: { scope_id },
      body: {
        operation,
        artifacts: [{ family, artifact_id: "x", revision: 1 }],
        idempotency_key: `k-${operation}-${family}`,
      },
    });

  it("refuses another family before the Scope is looked up, and lets the operation's own through to the capability", () => {
    expect(run("nowhere", "derive_skill", "atomic-memory")).toMatchObject({
      status: 422,
      body: { error: { code: "invalid_request" } },
    });
    expect(run("s1", "refine_experience", "skill").body.error.code).toBe("invalid_request");
    expect(run("s1", "refine_experience", "atomic-memory").body.error.code).toBe("capability_unavailable");
    expect(run("s1", "derive_skill", "experience").body.error.code).toBe("capability_unavailable");
  });
});

describe("create_dream_run: a tag target is an Artifact's, and only revise_tags has one", () => {
  const sim = simulator({ inference: "off" });
  const target = { type: "artifact", family: "skill", artifact_id: "x" };
  const tagTarget = (over: Record<string, unknown>) => ({
    target: { ...target, ...over },
    expected_etag: "e",
    basis_ref: { family: "skill", artifact_id: "x", revision: 1 },
  });
  const run = (scope_id: string, body: Record<string, unknown>) =>
    send(sim, "create_dream_run", {
      params: { scope_id },
      headers: { "X-PowerContext-Dream-Contract": "2" },
      body: { artifacts: [{ family: "atomic-memory", artifact_id: "x", revision: 1 }], idempotency_key: "k", ...body },
    });
  const codeAt = (answer: { status: number; body: any }) => [
    answer.status,
    answer.body.error.code,
    answer.body.error.details?.errors?.[0]?.loc,
  ];

  it("refuses a memory entry's target or an untaggable family before the Scope is looked up", () => {
    const entry = { type: "memory_entry", family: "memory", artifact_id: "x", entry_id: "2" };
    const refine = { operation: "refine_experience" };
    expect(codeAt(run("nowhere", { ...refine, tag_target: tagTarget(entry) }))).toEqual([
      422,
      "invalid_request",
      ["tag_target", "target", "type"],
    ]);
    const memory = { type: "artifact", family: "memory", artifact_id: "x" };
    expect(codeAt(run("nowhere", { ...refine, tag_target: tagTarget(memory) }))).toEqual([
      422,
      "invalid_request",
      ["tag_target", "target", "family"],
    ]);
  });

  it("refuses a tag target on another operation, and revise_tags without one or with another target", () => {
    const refused = [422, "invalid_request", []];
    expect(codeAt(run("nowhere", { operation: "refine_experience", tag_target: tagTarget({}) }))).toEqual(refused);
    expect(codeAt(run("nowhere", { operation: "revise_tags" }))).toEqual(refused);
    const other = { family: "atomic-memory", artifact_id: "x", revision: 1 };
    expect(codeAt(run("nowhere", { operation: "revise_tags", tag_target: tagTarget({}), target: other }))).toEqual(
      refused,
    );
    expect(run("nowhere", { operation: "revise_tags", tag_target: tagTarget({}) }).status).toBe(404);
    expect(run("s1", { operation: "revise_tags", tag_target: tagTarget({}) }).body.error.code).toBe(
      "capability_unavailable",
    );
  });
});

describe("flush_profile without a model (when.record: a stored policy's members)", () => {
  it("answers 503 generation_unavailable for a policy with generation on and evidence, a success otherwise", () => {
    const sim = simulator({ inference: "off" });
    expect(send(sim, "flush_profile", { body: { scope_id: "s1" } }).status).toBe(200);
    const made = send(sim, "create_subject_source", {
      params: { scope_id: "s1" },
      body: { subject_key: "user-1", content: { text: "Prefers short answers." } },
    });
    expect(made.status).toBe(201);
    expect(send(sim, "flush_profile", { body: { scope_id: made.body.subject_scope_id } })).toMatchObject({
      status: 503,
      body: { error: { code: "generation_unavailable", details: { family: "profile" } } },
    });
    expect(send(sim, "flush_profile", { body: { scope_id: "s1" } }).status).toBe(200);
  });
});
