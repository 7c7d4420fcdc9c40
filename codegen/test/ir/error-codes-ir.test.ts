import { describe, expect, it } from "vitest";
import { SpecErrorList } from "../../src/errors.js";
import { buildIr } from "../../src/ir/build-ir.js";
import type { ApiIr } from "../../src/ir/model.js";
import { loadSpecText } from "../../src/load/load-spec.js";

type Json = Record<string, any>;

/** Given a spec (paths and document extras), want the IR built under `upstream`. */
async function given(paths: Json, extra: Json = {}): Promise<ApiIr> {
  const document = { openapi: "3.0.3", info: { title: "t", version: "1" }, paths, ...extra };
  const spec = await loadSpecText(JSON.stringify(document), "spec.json", { lint: "upstream" });
  return buildIr(spec, "upstream");
}

const ok = { description: "ok", content: { "application/json": { schema: { type: "object" } } } };
const failed = { description: "failed", content: { "application/json": { schema: { type: "object" } } } };

function thing(errors: Json | undefined): Json {
  return {
    "/v1/thing": {
      post: {
        operationId: "make_thing",
        ...(errors === undefined ? {} : { "x-powercontext-errors": errors }),
        responses: { "200": ok, "409": failed, "503": failed },
      },
    },
  };
}

const registry = {
  "x-powercontext-error-codes": {
    runtime_not_ready: { status: 503, transient: true },
    inference_unavailable: { status: 503, transient: false },
    generation_unavailable: { status: 503, transient: false, details: ["family"] },
    version_conflict: {
      status: 409,
      transient: false,
      details: { current_version: { type: "integer" } },
      class: "VersionConflictError",
    },
  },
};

async function refusal(paths: Json, extra: Json): Promise<string[]> {
  const error = await given(paths, extra).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SpecErrorList);
  return (error as SpecErrorList).issues.map((issue) => `${issue.pointer}: ${issue.detail}`);
}

describe("build-ir: error codes", () => {
  it("carries the registry sorted by code, details as names or typed members, and the class a row names", async () => {
    const ir = await given(thing(undefined), registry);
    expect(ir.errorCodes.map((row) => [row.code, row.status, row.transient, row.className])).toEqual([
      ["generation_unavailable", 503, false, null],
      ["inference_unavailable", 503, false, null],
      ["runtime_not_ready", 503, true, null],
      ["version_conflict", 409, false, "VersionConflictError"],
    ]);
    expect(ir.errorCodes[0]!.details).toEqual([{ name: "family", schema: null }]);
    expect(ir.errorCodes[3]!.details).toEqual([{ name: "current_version", schema: { type: "integer" } }]);
    expect(ir.errorCodes[3]!.pointer).toBe("/x-powercontext-error-codes/version_conflict");
    expect(ir.operations[0]!.errorCodes).toEqual([]);
  });

  it("carries each operation's declared codes by ascending status", async () => {
    const ir = await given(
      thing({ "503": ["inference_unavailable", "runtime_not_ready"], "409": ["version_conflict"] }),
      registry,
    );
    expect(ir.operations[0]!.errorCodes).toEqual([
      { status: 409, codes: ["version_conflict"] },
      { status: 503, codes: ["inference_unavailable", "runtime_not_ready"] },
    ]);
  });

  it("a document without a registry has no codes", async () => {
    const ir = await given(thing(undefined));
    expect(ir.errorCodes).toEqual([]);
  });

  it("refuses a code missing from the registry, a code under another status and an undeclared status, naming each pointer", async () => {
    const issues = await refusal(
      thing({ "409": ["version_conflict", "inference_unavailable", "nope"], "404": ["version_conflict"] }),
      registry,
    );
    const at = "/paths/~1v1~1thing/post/x-powercontext-errors";
    expect(issues).toEqual([
      `${at}/404: status 404 is not a declared error response of this operation`,
      `${at}/409/1: error code "inference_unavailable" is a 503, listed under 409`,
      `${at}/409/2: error code "nope" is not in x-powercontext-error-codes`,
    ]);
  });

  it("refuses a malformed registry row and bad details by the schema, naming each member's pointer", async () => {
    const issues = await refusal(thing(undefined), {
      "x-powercontext-error-codes": {
        a_code: { status: 200, transient: false },
        b_code: { status: 503 },
        c_code: { status: 409, transient: false, details: "family" },
        f_code: { status: 409, transient: false, class: "lowercase" },
      },
    });
    expect(issues).toEqual([
      "/x-powercontext-error-codes/a_code/status: must be >= 400",
      "/x-powercontext-error-codes/b_code/transient: transient is required",
      "/x-powercontext-error-codes/c_code/details: expected a list of member names or a map of member name to schema",
      "/x-powercontext-error-codes/f_code/class: expected a PascalCase name ending in Error",
    ]);
  });

  it("refuses a class name two codes use, and a class of the runtime", async () => {
    const issues = await refusal(thing(undefined), {
      "x-powercontext-error-codes": {
        d_code: { status: 409, transient: false, class: "SameError" },
        e_code: { status: 409, transient: false, class: "SameError" },
        g_code: { status: 409, transient: false, class: "ConflictError" },
      },
    });
    expect(issues).toEqual([
      '/x-powercontext-error-codes/e_code/class: error codes "d_code" and "e_code" both name class SameError',
      '/x-powercontext-error-codes/g_code/class: error code "g_code": ConflictError is a class of the runtime; a contract class needs a name of its own',
    ]);
  });

  it("names the reconcile conflict code, version_conflict by default", async () => {
    const reconciled = (extra: Json) => ({
      "/v1/op/{id}": {
        get: {
          operationId: "get_op",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: { "200": ok },
        },
      },
      "/v1/op/{id}/cancel": {
        post: {
          operationId: "cancel_op",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          "x-powercontext-retry-class": "guarded",
          "x-powercontext-reconcile": {
            read_operation: "get_op",
            id_parameter: "id",
            holds_when: { status: ["cancelled"] },
            ...extra,
          },
          responses: { "200": ok, "409": failed },
        },
      },
    });
    const byDefault = await given(reconciled({}), registry);
    expect(byDefault.operations.find((op) => op.operationId === "cancel_op")!.reconcile!.conflictCode).toBe(
      "version_conflict",
    );
    const named = await given(reconciled({ conflict_code: "stale_version" }), registry);
    expect(named.operations.find((op) => op.operationId === "cancel_op")!.reconcile!.conflictCode).toBe(
      "stale_version",
    );
  });
});

describe("build-ir: error-code names that would break the output", () => {
  const row = (extra: Json) => ({
    "x-powercontext-error-codes": { warming_up: { status: 503, transient: true, ...extra } },
  });

  it.each(["ConflictError", "ServerResponseError", "OperationNotServedError", "TimeoutError"])(
    "refuses a class named like the runtime's %s",
    async (name) => {
      const issues = await refusal(thing(undefined), row({ class: name }));
      expect(issues).toEqual([
        `/x-powercontext-error-codes/warming_up/class: error code "warming_up": ${name} is a class of the runtime; a contract class needs a name of its own`,
      ]);
    },
  );

  it("refuses two details that become the same camelCase member", async () => {
    const issues = await refusal(
      thing(undefined),
      row({ details: { current_version: { type: "integer" }, currentVersion: { type: "string" } } }),
    );
    expect(issues).toEqual([
      '/x-powercontext-error-codes/warming_up/details: error code "warming_up": details "current_version" and "currentVersion" both become member currentVersion',
    ]);
  });

  it.each(["__proto__", "constructor", "toString"])("refuses the code %s, a member every object has", async (code) => {
    const issues = await refusal(thing(undefined), {
      "x-powercontext-error-codes": { [code]: { status: 503, transient: false } },
    });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toContain(`not a member every JavaScript object has`);
  });

  it("refuses a code listed twice under one status", async () => {
    const issues = await refusal(thing({ "503": ["inference_unavailable", "inference_unavailable"] }), registry);
    expect(issues).toEqual([
      '/paths/~1v1~1thing/post/x-powercontext-errors/503/1: "inference_unavailable" is listed twice',
    ]);
  });
});
