import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import { contractProblems } from "../support/contract.js";
import { call, type Reply } from "../support/flat-call.js";

/**
 * Connector ingestion state and reads the release answers from what it stores:
 * a binding's checkpoint is null until the first commit, a Source definition's
 * manifest is kept as registered (the same one again changes nothing, another
 * under its name and version is 409 source_conflict), a created Source is
 * answered with the Location of its read, and a Prompt key has no saved Prompt
 * (artifact and artifact_etag null) until one is written.
 */
function fresh(): PowerContextSimulator {
  return createPowerContextSimulator({ seed: 4, clock: new ManualClock(), scopes: ["s1"] });
}

function valid(operationId: Parameters<typeof call>[1], reply: Reply): Reply {
  expect(contractProblems(operationId, reply.status, { ...reply.headers }, reply.body), operationId).toEqual([]);
  return reply;
}

const binding = { scope_id: "s1", binding_id: "b-1", connector_name: "tickets", connector_version: "1" };

describe("connector checkpoints and Source definitions", () => {
  it("reads no checkpoint before the first commit, and the committed one after it", () => {
    const sim = fresh();
    const before = valid("get_connector_checkpoint", call(sim, "get_connector_checkpoint", { binding }));
    expect([before.status, before.body]).toEqual([200, { binding, checkpoint: null }]);
    const committed = valid(
      "commit_connector_checkpoint",
      call(sim, "commit_connector_checkpoint", { binding, expected: null, checkpoint: { cursor: "1" } }),
    );
    expect(committed.body).toEqual({ binding, checkpoint: { cursor: "1" } });
    expect(call(sim, "get_connector_checkpoint", { binding }).body.checkpoint).toEqual({ cursor: "1" });
    const other = call(sim, "get_connector_checkpoint", { binding: { ...binding, binding_id: "b-2" } });
    expect(other.body.checkpoint).toBeNull();
    const unknownScope = call(sim, "get_connector_checkpoint", { binding: { ...binding, scope_id: "nope" } });
    expect([unknownScope.status, unknownScope.code]).toEqual([404, "scope_not_found"]);
  });

  it("keeps a registered manifest as sent and refuses another under the same name and version", () => {
    const sim = fresh();
    // The fingerprints are the release's sha256 of each manifest's declaration.
    const manifest = {
      name: "parity.ticket",
      version: "1",
      fingerprint: "sha256:34b228b34df6e14929b64a26f4ee9dd1ece5d5c2f8bbeaba92ffe35d93a3fac6",
      source_schema: { type: "object" },
      projections: [{ key: { name: "summary", version: "1" }, schema: { type: "string" } }],
    };
    const registered = valid("register_source_definition", call(sim, "register_source_definition", { manifest }));
    expect([registered.status, registered.body]).toEqual([200, manifest]);
    expect(call(sim, "register_source_definition", { manifest }).body).toEqual(manifest);
    const changed = call(sim, "register_source_definition", {
      manifest: {
        ...manifest,
        source_schema: { type: "object", title: "x \u00e9" },
        fingerprint: "sha256:0693504ba225e9485dc33bcf2a332fe19b94726db957c8e54724a487ab77a1e1",
      },
    });
    expect([changed.status, changed.code]).toEqual([409, "source_conflict"]);
  });

  it("refuses a manifest whose fingerprint is not the digest of its declaration", () => {
    const sim = fresh();
    const manifest = {
      name: "tickets.ticket",
      version: "1",
      fingerprint: `sha256:${"a".repeat(64)}`,
      source_schema: { type: "object" },
      projections: [],
    };
    const refused = call(sim, "register_source_definition", { manifest });
    expect([refused.status, refused.code, refused.body.error.details]).toEqual([422, "invalid_request", null]);
  });

  it("refuses an observation whose payload does not repeat its envelope, before its Scope is looked up", () => {
    const sim = fresh();
    const observation = {
      name: "t-1",
      definition_version: "1",
      materialization: "captured",
      source_type: "parity.ticket",
      definition_fingerprint: `sha256:${"a".repeat(64)}`,
      payload: { name: "t-1", definition_version: "1", materialization: "captured" },
      projections: [],
    };
    const submit = (scope_id: string, payload: Record<string, unknown>) =>
      call(sim, "submit_source_observation", { scope_id, observation: { ...observation, payload } });
    for (const payload of [{}, { ...observation.payload, name: "t-2" }, { ...observation.payload, description: "d" }]) {
      const refused = submit("nope", payload);
      expect([refused.status, refused.code, refused.body.error.details]).toEqual([422, "invalid_request", null]);
    }
    expect(submit("nope", observation.payload).code).toBe("scope_not_found");
  });

  it("stores an observation of a registered definition as a Source of its type", () => {
    const sim = fresh();
    const fingerprint = "sha256:34b228b34df6e14929b64a26f4ee9dd1ece5d5c2f8bbeaba92ffe35d93a3fac6";
    const observation = {
      name: "t-1",
      definition_version: "1",
      materialization: "captured",
      source_type: "parity.ticket",
      definition_fingerprint: fingerprint,
      payload: { name: "t-1", definition_version: "1", materialization: "captured", title: "Automate" },
      projections: [{ key: { name: "summary", version: "1" }, value: "Automate" }],
    };
    const submit = (changes: Record<string, unknown> = {}) =>
      call(sim, "submit_source_observation", { scope_id: "s1", observation: { ...observation, ...changes } });
    expect([submit().status, submit().code]).toEqual([404, "source_definition_not_found"]);
    call(sim, "register_source_definition", {
      manifest: {
        name: "parity.ticket",
        version: "1",
        fingerprint,
        source_schema: { type: "object" },
        projections: [{ key: { name: "summary", version: "1" }, schema: { type: "string" } }],
      },
    });
    expect(submit({ definition_fingerprint: `sha256:${"a".repeat(64)}` }).code).toBe("invalid_source_ingestion");
    expect(submit({ projections: [] }).code).toBe("invalid_source_ingestion");
    const stored = valid("submit_source_observation", submit());
    expect([stored.status, stored.body.source]).toEqual([202, { name: "parity.ticket", source_id: "t-1" }]);
    expect(submit().body.position).toBe(stored.body.position);
    const changed = submit({ payload: { ...observation.payload, title: "Other" } });
    expect([changed.status, changed.code]).toEqual([409, "source_conflict"]);
  });

  it("moves a checkpoint only from the one expected, for the connector first committed", () => {
    const sim = fresh();
    const commit = (expected: unknown, checkpoint: unknown, b = binding) =>
      call(sim, "commit_connector_checkpoint", { binding: b, expected, checkpoint });
    expect([commit(1, 2).status, commit(1, 2).code]).toEqual([409, "connector_checkpoint_conflict"]);
    expect(commit(null, { a: 1 }).status).toBe(200);
    expect(commit(null, 3).code).toBe("connector_checkpoint_conflict");
    expect(commit({ a: 1 }, null).body).toEqual({ binding, checkpoint: null });
    expect(commit(null, 5).body.checkpoint).toBe(5);
    const other = { ...binding, connector_name: "other" };
    expect(call(sim, "get_connector_checkpoint", { binding: other }).code).toBe("connector_checkpoint_conflict");
    expect(commit(5, 6, other).code).toBe("connector_checkpoint_conflict");
    expect(call(sim, "get_connector_checkpoint", { binding }).body.checkpoint).toBe(5);
  });
});

describe("reads of what the server stores", () => {
  it("answers a created Source with the Location of its read", () => {
    const sim = fresh();
    const made = valid("create_source", call(sim, "create_source", { scope_id: "s1", content: { text: "A note." } }));
    expect(made.status).toBe(201);
    expect(made.headers.Location).toBe(`/v1/scopes/s1/sources/content/${made.body.source_id}`);
    const read = call(sim, "get_source", { scope_id: "s1", source_type: "content", source_id: made.body.source_id });
    expect(read.body).toEqual(made.body);
  });

  it("has no saved Prompt for a key until one is written", () => {
    const sim = fresh();
    const configuration = valid(
      "get_prompt_configuration",
      call(sim, "get_prompt_configuration", { scope_id: "s1", prompt_key: "memory.extract" }),
    );
    expect(configuration.body).toMatchObject({
      scope_id: "s1",
      prompt_key: "memory.extract",
      status: "supported",
      reason: null,
      mode: "auto",
      artifact: null,
      artifact_etag: null,
      effective: { demonstrations: [] },
    });
    expect(configuration.body.effective.instructions).toBe(configuration.body.builtin.instructions);
    expect(configuration.body.builtin.profile).toBe("coding");
    const withoutModel = createPowerContextSimulator({
      seed: 4,
      clock: new ManualClock(),
      scopes: ["s1"],
      inference: "off",
    });
    expect(
      call(withoutModel, "get_prompt_configuration", { scope_id: "s1", prompt_key: "memory.extract" }).body,
    ).toMatchObject({ status: "disabled", reason: "provider_not_configured" });
  });

  it("lists every Prompt key in the capabilities, disabled without a model", () => {
    const withModel = valid("get_capabilities", call(fresh(), "get_capabilities", {}));
    const off = createPowerContextSimulator({ seed: 4, clock: new ManualClock(), inference: "off" });
    const without = valid("get_capabilities", call(off, "get_capabilities", {}));
    expect(Object.keys(without.body.prompts)).toContain("memory.extract");
    expect(Object.keys(without.body.prompts)).toHaveLength(16);
    expect(without.body.prompts["memory.extract"]).toEqual({
      status: "disabled",
      reason: "provider_not_configured",
      definition_version: "powercontext.prompt.memory.extract.v1",
      builtin_version: "powercontext.memory.extract.v1",
      builtin_profile: "coding",
    });
    expect(withModel.body.prompts["memory.extract"]).toMatchObject({ status: "supported", reason: null });
    expect([without.body.memory_extraction, without.body.extraction.configuration]).toEqual([false, "unconfigured"]);
    expect([withModel.body.memory_extraction, withModel.body.extraction.configuration]).toEqual([true, "configured"]);
    expect(without.body.artifact_dreaming).toBe(false);
  });
});
