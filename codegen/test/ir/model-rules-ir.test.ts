import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SpecErrorList } from "../../src/errors.js";
import { buildIr } from "../../src/ir/build-ir.js";
import type { ApiIr } from "../../src/ir/model.js";
import { loadSpec, loadSpecText } from "../../src/load/load-spec.js";

type Json = Record<string, any>;

const repoRoot = join(import.meta.dirname, "..", "..", "..");

async function given(schemas: Json): Promise<ApiIr> {
  const document = { openapi: "3.0.3", info: { title: "t", version: "1" }, paths: {}, components: { schemas } };
  return buildIr(await loadSpecText(JSON.stringify(document), "spec.json", { lint: "upstream" }), "upstream");
}

const thing = (rules: unknown, extra: Json = {}): Json => ({
  Thing: {
    type: "object",
    properties: {
      a: { type: "string" },
      b: { type: "array", items: { type: "string" } },
      n: { type: "integer" },
      m: { type: "integer" },
      c: { type: "object", properties: { kind: { type: "string" } } },
    },
    "x-powercontext-rules": rules,
    ...extra,
  },
});

async function refusal(schemas: Json): Promise<string[]> {
  const error = await given(schemas).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SpecErrorList);
  return (error as SpecErrorList).issues.map((issue) => `${issue.pointer}: ${issue.detail}`);
}

const wire = { stage: "wire", answer: null };

describe("build-ir: model rules", () => {
  it("carries every rule in order, with every property for a member rule that lists none, and the exclusive fields last", async () => {
    const ir = await given(
      thing(
        [
          { rule: "trim", members: ["a"] },
          { rule: "not-null" },
          { rule: "finite-numbers", members: ["c"] },
          { rule: "relative-path", members: ["a", "b"], "allow-empty": true },
          { rule: "span", from: "n", to: "m", max: 9 },
          { rule: "required-when", member: "a", when: { path: ["c", "kind"], in: ["x", null] } },
          { rule: "forbidden-unless", member: "a", when: { path: ["c", "kind"], in: ["x"] } },
          { rule: "max-items-together", members: ["b", "a"], max: 3 },
        ],
        { "x-powercontext-exclusive-fields": ["a", "n"] },
      ),
    );
    expect(ir.schemas[0]!.rules).toEqual([
      { kind: "trim", members: ["a"], normalize: "none", ...wire },
      { kind: "not-null", members: ["a", "b", "n", "m", "c"], ...wire },
      { kind: "finite-numbers", members: ["c"], ...wire },
      { kind: "relative-path", members: ["a", "b"], allowEmpty: true, ...wire },
      { kind: "span", from: "n", to: "m", min: 0, max: 9, ...wire },
      { kind: "required-when", member: "a", when: { path: ["c", "kind"], in: ["x", null], notIn: null }, ...wire },
      { kind: "forbidden-unless", member: "a", when: { path: ["c", "kind"], in: ["x"], notIn: null }, ...wire },
      { kind: "max-items-together", members: ["b", "a"], max: 3, ...wire },
      { kind: "exclusive", members: ["a", "n"], ...wire },
    ]);
  });

  // given: one rule of each new kind with its arguments; want: the IR it reads as.
  const kinds: [string, Json, Json][] = [
    ["no-outer-whitespace", { members: ["a", "b[]"] }, { members: ["a", "b[]"], side: "both" }],
    ["no-outer-whitespace", { members: ["a"], side: "end" }, { members: ["a"], side: "end" }],
    [
      "unique-items",
      { members: ["b"], compare: "nfc-casefold" },
      { members: ["b"], by: null, compare: "nfc-casefold" },
    ],
    ["unique-items", { members: ["b"], by: ["kind"] }, { members: ["b"], by: ["kind"], compare: "exact" }],
    [
      "items-when",
      { member: "b", when: { path: ["c", "kind"], "not-in": ["x"] }, min: 1 },
      { member: "b", when: { path: ["c", "kind"], in: null, notIn: ["x"] }, min: 1, max: null },
    ],
    [
      "constrain-when",
      { when: { path: ["a"], in: ["x"] }, path: ["n"], max: 2 },
      {
        when: { path: ["a"], in: ["x"], notIn: null },
        path: ["n"],
        in: null,
        notIn: null,
        min: null,
        pattern: null,
        max: 2,
      },
    ],
    ["one-of", { path: ["c", "kind"], in: ["x"] }, { path: ["c", "kind"], in: ["x"] }],
    ["none-of", { path: ["b", "[]"], in: ["memory"] }, { path: ["b", "[]"], in: ["memory"] }],
    ["different", { paths: [["a"], ["c", "kind"]] }, { paths: [["a"], ["c", "kind"]] }],
    ["same", { paths: [["a"], ["c", "kind"]] }, { paths: [["a"], ["c", "kind"]] }],
    ["member-of", { path: ["a"], list: ["b"] }, { path: ["a"], list: ["b"] }],
    ["max-sum", { path: ["b", "[]"], max: 8 }, { path: ["b", "[]"], max: 8 }],
    [
      "max-bytes",
      { members: ["a"], max: 10, normalize: "nfc-strip" },
      { members: ["a"], max: 10, normalize: "nfc-strip" },
    ],
    ["after-now", { members: ["a"] }, { members: ["a"] }],
    ["before", { from: "a", to: "n" }, { from: "a", to: "n" }],
    [
      "excluded-categories",
      { members: ["b[]"], categories: ["Cc", "Cn"] },
      { members: ["b[]"], categories: ["Cc", "Cn"] },
    ],
  ];
  it.each(kinds)("reads %s %j", async (rule, given_, want) => {
    const ir = await given(thing([{ rule, ...given_ }]));
    expect(ir.schemas[0]!.rules).toEqual([{ kind: rule, ...want, ...wire }]);
  });

  // given: a runtime rule's answer; want: the answer the IR carries.
  const answers: [unknown, Json][] = [
    [undefined, { kind: "issue", type: "value_error", loc: null }],
    ["opaque", { kind: "opaque" }],
    [{ issue: { type: "missing", loc: ["source_type"] } }, { kind: "issue", type: "missing", loc: ["source_type"] }],
    [
      { field: "tags", reason: "is wrong" },
      { kind: "field", field: "tags", reason: "is wrong" },
    ],
    [
      { status: 422, code: "invalid_request", details: { field: "x" } },
      { kind: "refusal", status: 422, code: "invalid_request", details: { field: "x" }, access: false },
    ],
    [
      { status: 422, code: "invalid_access_request", access: true },
      { kind: "refusal", status: 422, code: "invalid_access_request", details: null, access: true },
    ],
  ];
  it.each(answers)("binds a runtime rule to the answer %j", async (answer, want) => {
    const rule = { rule: "not-blank", members: ["a"], stage: "runtime", ...(answer === undefined ? {} : { answer }) };
    const ir = await given(thing([rule]));
    expect(ir.schemas[0]!.rules[0]).toEqual({ kind: "not-blank", members: ["a"], stage: "runtime", answer: want });
  });

  it("refuses a malformed rule with the pointer of each one, checked against the rule language's JSON Schema", async () => {
    const issues = await refusal(
      thing(
        [
          { rule: "trim" },
          { rule: "nope" },
          { rule: "span", from: "n", to: "zz", max: 1 },
          { rule: "required-when", member: "a", when: { path: ["zz"], in: ["x"] } },
          "trim",
          { rule: "not-blank", members: ["a"], answer: "opaque" },
          { rule: "span", from: "n", to: "m", max: 1, members: ["a"] },
          { rule: "items-when", member: "b", when: { path: ["a"], in: ["x"] }, min: 3, max: 1 },
        ],
        { "x-powercontext-exclusive-fields": ["a", "zz"] },
      ),
    );
    const at = "/components/schemas/Thing/x-powercontext-rules";
    expect(issues).toEqual([
      `${at}/0: trim: must have required property 'members'`,
      `${at}/1: nope: unknown rule`,
      `${at}/4: must be object`,
      `${at}/5: not-blank: must have required property 'stage'`,
      `${at}/6: span: takes no argument members`,
      "/components/schemas/Thing/x-powercontext-exclusive-fields: names zz, not properties of the schema",
    ]);
    const semantic = await refusal(
      thing(
        [
          { rule: "span", from: "n", to: "zz", max: 1 },
          { rule: "required-when", member: "a", when: { path: ["zz"], in: ["x"] } },
          { rule: "items-when", member: "b", when: { path: ["a"], in: ["x"] }, min: 3, max: 1 },
          // min left out is 0, past a negative max
          { rule: "span", from: "n", to: "m", max: -1 },
        ],
        { "x-powercontext-exclusive-fields": ["a", "zz"] },
      ),
    );
    expect(semantic).toEqual([
      `${at}/0: span: names zz, not properties of the schema`,
      `${at}/1: required-when: names zz, not properties of the schema`,
      `${at}/2: items-when: min must not exceed max`,
      `${at}/3: span: min must not exceed max`,
      "/components/schemas/Thing/x-powercontext-exclusive-fields: names zz, not properties of the schema",
    ]);
  });

  it("carries the rules of openapi.yaml: the release's checks, stated as facts", async () => {
    const ir = buildIr(await loadSpec(join(repoRoot, "openapi.yaml")), "strict");
    const ruled = ir.schemas.filter((s) => s.rules.some((r) => r.stage === "wire"));
    expect(ruled.map((s) => s.name)).toEqual([
      "ArtifactChannelScore",
      "ArtifactSearchFusion",
      "ArtifactSearchScores",
      "Candidate",
      "CodeMapOperation",
      "CodeQueryRequest",
      "CodeReadOperation",
      "CodeRelationOperation",
      "CodeSearchOperation",
      "CodeTestsOperation",
      "GenerateExperienceRequest",
      "GenerateSkillRequest",
      "GetMemoryEntryRequest",
      "ProposeExperienceRequest",
      "ProposeSkillRequest",
      "ReviseCandidateRequest",
      "SearchArtifactsRequest",
    ]);
    const search = ir.schemas.find((s) => s.name === "SearchArtifactsRequest")!;
    expect(search.rules[0]).toEqual({ kind: "trim", members: ["query"], normalize: "none", ...wire });
    expect(ir.schemas.find((s) => s.name === "GetMemoryEntryRequest")!.rules).toEqual([
      { kind: "exclusive", members: ["citation", "target"], ...wire },
    ]);
    // Where the rules sit in a request: the code query's operation kinds are told apart by the discriminator.
    const query = ir.operations.find((op) => op.operationId === "query_code")!;
    expect(query.ruleSites).toContainEqual({
      at: ["operation", { if: "kind", in: ["read"] }],
      schema: "CodeReadOperation",
    });
    // A schema comes after the ruled schemas inside it (a nested model validates first).
    expect(query.ruleSites.at(-1)).toEqual({ at: [], schema: "CodeQueryRequest" });
    // A replacement's branch is the one the path's family chooses; a Candidate revision's the
    // one whose required members the proposal has.
    const replace = ir.operations.find((op) => op.operationId === "replace_artifact")!;
    expect(replace.ruleBranches?.parameter).toBe("family");
    expect(replace.ruleSites).toContainEqual({
      at: [{ if: "family", in: ["prompt"] }, "content"],
      schema: "PromptContent",
    });
    const revise = ir.operations.find((op) => op.operationId === "revise_candidate")!;
    expect(revise.ruleSites).toContainEqual({
      at: ["proposal", { has: ["name", "description", "instructions", "validation"] }],
      schema: "SkillProposal",
    });
  });
});
