import { describe, expect, it } from "vitest";
import { SpecError, SpecErrorList } from "../../src/errors.js";
import { buildIr } from "../../src/ir/build-ir.js";
import type { ApiIr, OperationIr } from "../../src/ir/model.js";
import { loadSpecText } from "../../src/load/load-spec.js";

type Json = Record<string, any>;

/**
 * Where the server looks a Scope up and checks the runtime rules, as the IR carries it:
 * the anchor's `first` (an operation of `x-powercontext-scope-mode: current` whose body
 * names the Scope) and `x-powercontext-rule-answer`'s `after: access`.
 */
const anchorRegistry = {
  "x-powercontext-resources": {
    scope: { id: "scope_id", prefix: "scp", anchor: true, not_found: { status: 404, code: "scope_not_found" } },
  },
};

const ok = { description: "ok", content: { "application/json": { schema: { type: "object" } } } };
const body = {
  content: {
    "application/json": {
      schema: { type: "object", properties: { scope_id: { type: "string" }, x: { type: "string" } } },
    },
  },
};

/** The IR of one operation with `extensions`; its path, request body and the document's components may be given. */
async function operation(
  extensions: Json,
  path = "/v1/things",
  more: { readonly requestBody?: Json; readonly components?: Json } = {},
): Promise<OperationIr> {
  const parameters = path.includes("{scope_id}")
    ? [{ name: "scope_id", in: "path", required: true, schema: { type: "string" } }]
    : [];
  const requestBody = more.requestBody ?? body;
  const document = {
    openapi: "3.0.3",
    info: { title: "t", version: "1" },
    paths: {
      [path]: {
        post: { operationId: "do_thing", parameters, requestBody, responses: { "200": ok }, ...extensions },
      },
    },
    ...(more.components === undefined ? {} : { components: more.components }),
    ...anchorRegistry,
  };
  const spec = await loadSpecText(JSON.stringify(document), "spec.json", { lint: "upstream" });
  const ir: ApiIr = buildIr(spec, "upstream");
  return ir.operations[0]!;
}

describe("build-ir: the check order facts", () => {
  it("marks the Scope a body names as looked up first on an operation of scope mode current", async () => {
    const current = await operation({ "x-powercontext-scope-mode": "current" });
    expect(current.anchor).toEqual({ resource: "scope", requests: ["scope_id"], first: "scope_id" });
    const none = await operation({ "x-powercontext-scope-mode": "none" });
    expect(none.anchor).toEqual({ resource: "scope", requests: ["scope_id"], first: null });
  });

  it("leaves a Scope named by the path to the handler", async () => {
    const pathScope = await operation({ "x-powercontext-scope-mode": "current" }, "/v1/scopes/{scope_id}/things");
    expect(pathScope.anchor?.first).toBeNull();
  });

  it("reads after: access, alone or beside issues, and refuses anything else", async () => {
    expect((await operation({})).rulesAfterAccess).toBe(false);
    const after = await operation({ "x-powercontext-rule-answer": { after: "access" } });
    expect([after.rulesAfterAccess, after.ruleIssues]).toEqual([true, "standalone"]);
    const both = await operation({ "x-powercontext-rule-answer": { issues: "opaque", after: "access" } });
    expect([both.rulesAfterAccess, both.ruleIssues]).toEqual([true, "opaque"]);
    const error = await operation({ "x-powercontext-rule-answer": { after: "lookup" } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SpecErrorList);
  });

  it("reads the parameter choosing the body's branch, and refuses a malformed one with its pointer", async () => {
    expect((await operation({})).ruleBranches).toBeNull();
    const branches = { parameter: "family", schemas: { prompt: "PromptBody" } };
    expect((await operation({ "x-powercontext-rule-answer": { branches } })).ruleBranches).toEqual({
      ...branches,
      refusals: {},
    });
    const error = await operation({ "x-powercontext-rule-answer": { branches: { parameter: "family" } } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SpecErrorList);
    expect(String(error)).toContain("x-powercontext-rule-answer");
    // A branch's own refusal must name a branch and a registry code of its status (none here).
    const refusals = { prompt: { status: 422, code: "invalid_prompt_content" } };
    expect((await operation({ "x-powercontext-rule-answer": { branches } })).ruleBranches?.refusals).toEqual({});
    for (const [bad, pointer] of [
      [{ ...branches, refusals }, "/branches/refusals/prompt"],
      [{ ...branches, refusals: { skill: refusals.prompt } }, "/branches/refusals/skill"],
    ] as const) {
      const refused = await operation({ "x-powercontext-rule-answer": { branches: bad } }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(SpecError);
      expect(String(refused)).toContain(`x-powercontext-rule-answer${pointer}`);
    }
  });

  it("reads the branches whose rules come first, and refuses one that guards no branch with rules, with its pointer", async () => {
    const branches = {
      oneOf: [
        {
          type: "object",
          properties: { family: { type: "string", enum: ["handoff"] }, ref: { $ref: "#/components/schemas/Ref" } },
        },
        { type: "object", properties: { family: { type: "string", enum: ["skill"] }, x: { type: "string" } } },
      ],
    };
    const components = {
      schemas: {
        Ref: {
          type: "object",
          properties: { name: { type: "string" } },
          "x-powercontext-rules": [{ rule: "no-outer-whitespace", members: ["name"], stage: "runtime" }],
        },
      },
    };
    const branched = (first: unknown) =>
      operation({ "x-powercontext-rule-answer": { after: "access", first } }, "/v1/things", {
        requestBody: { content: { "application/json": { schema: branches } } },
        components,
      });
    expect((await operation({})).rulesFirst).toBeNull();
    expect((await branched({ family: ["handoff"] })).rulesFirst).toEqual({ member: "family", in: ["handoff"] });
    // The skill branch has no rules, so nothing of it could come first.
    const unguarded = await branched({ family: ["skill"] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(unguarded).toBeInstanceOf(SpecError);
    expect(String(unguarded)).toContain("/x-powercontext-rule-answer/first/family");
    for (const malformed of [{}, { family: [] }, { family: "handoff" }, { family: ["handoff"], kind: ["x"] }]) {
      const error = await branched(malformed).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, JSON.stringify(malformed)).toBeInstanceOf(SpecErrorList);
    }
  });
});
