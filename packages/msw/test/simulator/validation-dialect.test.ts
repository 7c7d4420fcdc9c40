import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import { INVALID_JSON, isReset, type SimOutcome, type SimRequest } from "../../src/simulator/types.js";
import { sampledRequest } from "../support/requests.js";
import { TEST_SCOPES } from "../support/scopes.js";

/**
 * The released server's validation dialect (docs/compatibility.md,
 * "Validation"): each kind of fault with the exact status, code and details
 * a 1.4.1 server (auth on) sends, in the order it checks them.
 */
const sim = createPowerContextSimulator({ scopes: TEST_SCOPES, clock: new ManualClock(), seed: 9 });

function send(operationId: string, request: SimRequest, token = "pc-admin"): { status: number; body: unknown } {
  const outcome: SimOutcome = sim.handle(operationId, { token, ...request });
  if (isReset(outcome)) throw new Error("unexpected reset");
  return { status: outcome.status, body: outcome.body };
}

const accessRefusal = {
  status: 422,
  body: { error: { code: "invalid_access_request", message: "The Access request is invalid.", details: null } },
};

function violation(status: number, type: string, loc: readonly (string | number)[], msg: string) {
  return {
    status,
    body: {
      error: {
        code: "invalid_request",
        message: "The request violates the API contract.",
        details: { errors: [{ type, loc, msg }] },
      },
    },
  };
}

function queryRefusal(reason: string) {
  return {
    status: 422,
    body: {
      error: { code: "invalid_request", message: "The request is invalid.", details: { field: "query", reason } },
    },
  };
}

describe("a body the access layer reads (operations with an access rule)", () => {
  const scope = { title: "Notes", summary: "Team notes", idempotency_key: "k-1" };
  it.each([
    ["a missing member", { title: "Notes", summary: "Team notes" }],
    ["a wrong type", { ...scope, title: 5 }],
    ["an extra member", { ...scope, colour: "blue" }],
    ["a blank string", { ...scope, title: "   " }],
    ["an array", [scope]],
    ["no body", undefined],
  ])("%s is 422 invalid_access_request with details null", (_, body) => {
    expect(send("create_scope", { body })).toEqual(accessRefusal);
  });

  it("is refused with 422 even where the operation declares no 422", () => {
    expect(send("set_default_scope", { body: {} })).toEqual(accessRefusal);
  });

  it("is read before access is decided, so a reader's bad body is 422, not 403", () => {
    expect(send("flush_memory", { body: { scope_id: "s1", extra: true } }, "pc-reader")).toEqual(accessRefusal);
    expect(send("flush_memory", { body: { scope_id: "s1" } }, "pc-reader").status).toBe(403);
  });

  it("that is not JSON is 422 invalid_request with the framework's json_invalid issue", () => {
    expect(send("create_scope", { body: INVALID_JSON })).toEqual(
      violation(422, "json_invalid", ["body", 0], "JSON decode error"),
    );
  });
});

describe("a body without an access rule (the remote receiver routes)", () => {
  it("gets the framework's issues: missing member, wrong type, extra member", () => {
    expect(send("enroll_remote_skill_target", { body: {} }, "")).toEqual(
      violation(422, "missing", ["body", "enrollment_code"], "Field required"),
    );
    const typed = { enrollment_code: 5, installation_id: "i-1", receiver_version: "1.4.1" };
    expect(send("enroll_remote_skill_target", { body: typed }, "")).toEqual(
      violation(422, "string_type", ["body", "enrollment_code"], "Input should be a valid string"),
    );
    const extra = { ...(sampledRequest("enroll_remote_skill_target").body as object), colour: "blue" };
    expect(send("enroll_remote_skill_target", { body: extra }, "")).toEqual(
      violation(422, "extra_forbidden", ["body", "colour"], "Extra inputs are not permitted"),
    );
  });
});

describe("parameters", () => {
  it("out of range on a route under a path parameter is 400; on a top-level route 422", () => {
    const params = { scope_id: "s1" };
    expect(send("list_sources", { params, query: { limit: "0" } })).toEqual(
      violation(400, "greater_than_equal", ["query", "limit"], "Input should be greater than or equal to 1"),
    );
    expect(send("list_sources", { params, query: { limit: "1000" } })).toEqual(
      violation(400, "less_than_equal", ["query", "limit"], "Input should be less than or equal to 100"),
    );
    expect(send("list_scopes", { query: { limit: "0" } })).toEqual(
      violation(422, "greater_than_equal", ["query", "limit"], "Input should be greater than or equal to 1"),
    );
  });

  it("a value the request model checks (x-powercontext-query-model) is 422 at its name, after the framework's faults and the query names", () => {
    const params = { scope_id: "s1" };
    const enumFault = expect.objectContaining({ type: "enum", loc: ["operation"] });
    const bad = send("list_dream_runs", { params, query: { operation: "REFINE" } });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ error: { code: "invalid_request", details: { errors: [enumFault] } } });
    // The framework reads limit first (400 under a path parameter); the unknown name comes before the model too.
    expect(send("list_dream_runs", { params, query: { operation: "REFINE", limit: "0" } })).toEqual(
      violation(400, "greater_than_equal", ["query", "limit"], "Input should be greater than or equal to 1"),
    );
    expect(send("list_dream_runs", { params, query: { operation: "REFINE", colour: "blue" } })).toEqual(
      queryRefusal("contains unknown parameters"),
    );
    // Each tag is the model's; the list's own bounds stay the framework's.
    const tags = (list: string[]) =>
      send("list_artifacts", { params: { ...params, family: "handoff" }, queryAll: { tag: list } });
    expect(tags(["", "m"])).toEqual(
      violation(422, "string_too_short", ["tag", 0], "String should have at least 1 character"),
    );
    expect(tags(Array.from({ length: 17 }, (_, i) => `t${i}`)).status).toBe(400);
  });

  it("a query string that is not an integer is int_parsing", () => {
    expect(send("list_scopes", { query: { limit: "ten" } })).toEqual(
      violation(
        422,
        "int_parsing",
        ["query", "limit"],
        "Input should be a valid integer, unable to parse string as an integer",
      ),
    );
  });

  it("a path parameter outside its enum is 422 with the allowed values", () => {
    const answer = send("list_artifacts", { params: { scope_id: "s1", family: "bogus" } });
    expect(answer).toEqual(
      violation(
        422,
        "enum",
        ["path", "family"],
        expect.stringMatching(/^Input should be 'memory', .* or 'topic-memory'$/) as unknown as string,
      ),
    );
  });

  it("an unknown or repeated query parameter is refused by name", () => {
    expect(send("list_scopes", { query: { colour: "blue" }, queryAll: { colour: ["blue"] } })).toEqual(
      queryRefusal("contains unknown parameters"),
    );
    expect(send("list_scopes", { query: { limit: "5" }, queryAll: { limit: ["5", "6"] } })).toEqual(
      queryRefusal("parameters must be provided at most once"),
    );
  });

  it("is checked after access: a parameter fault from a token without the permission is 403", () => {
    const principals = { tokens: { "pc-none": { name: "none", scopes: {} } } };
    const strict = createPowerContextSimulator({ principals, clock: new ManualClock() });
    const outcome = strict.handle("list_scopes", { token: "pc-none", query: { limit: "0" } });
    expect(isReset(outcome) ? null : outcome.status).toBe(403);
    expect(send("list_scopes", { query: { limit: "0" } }, "pc-reader").status).toBe(422);
  });
});

describe("preconditions", () => {
  it("a change without its If-Match is 428 precondition_required, after the other checks", () => {
    const request = sampledRequest("replace_artifact_tags");
    const headers = Object.fromEntries(
      Object.entries(request.headers ?? {}).filter(([name]) => name.toLowerCase() !== "if-match"),
    );
    // The sampled Artifact is no Artifact the caller owns: the release's access layer refuses its write first.
    expect(send("replace_artifact_tags", { ...request, headers }).status).toBe(403);
    // A family whose tags only a Scope administrator writes reaches the handler's 428.
    const prompt = { ...request, headers, params: { ...request.params, family: "prompt" } };
    expect(send("replace_artifact_tags", prompt)).toEqual({
      status: 428,
      body: {
        error: {
          code: "precondition_required",
          message: "The change requires the current ETag in If-Match.",
          details: null,
        },
      },
    });
    const badFamily = { ...request, headers, params: { ...request.params, family: "bogus" } };
    expect(send("replace_artifact_tags", badFamily).status).toBe(422);
  });
});

describe("refusals keep the release's status", () => {
  it("an unknown Scope is 404 scope_not_found where the operation declares no 404", () => {
    const answer = send("capture_content_source", {
      body: { scope_id: "no-such-scope", source_id: "a", content: "x" },
    });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: { code: "scope_not_found", details: null } });
  });
});

describe("strings with a lone surrogate", () => {
  it("are string_unicode where they are, on an operation without an access rule", () => {
    const answer = send(
      "enroll_remote_skill_target",
      { body: { enrollment_code: "code", installation_id: "install-\ud800", receiver_version: "1.4.1" } },
      "",
    );
    expect(answer).toEqual(
      violation(
        422,
        "string_unicode",
        ["body", "installation_id"],
        "Input should be a valid string, unable to parse raw data as a unicode string",
      ),
    );
  });

  it("are the access layer's refusal on an operation with an access rule, in keys too", () => {
    expect(send("create_scope", { body: { title: "a\udc00", summary: "s", idempotency_key: "k" } })).toEqual(
      accessRefusal,
    );
    expect(send("create_scope", { body: { title: "t", summary: "s", idempotency_key: "k", "\ud800": 1 } })).toEqual(
      accessRefusal,
    );
  });
});
