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
      { kind: "trim", members: ["a"] },
      { kind: "not-null", members: ["a", "b", "n", "m", "c"] },
      { kind: "finite-numbers", members: ["c"] },
      { kind: "relative-path", members: ["a", "b"], allowEmpty: true },
      { kind: "span", from: "n", to: "m", min: 0, max: 9 },
      { kind: "required-when", member: "a", when: { path: ["c", "kind"], in: ["x", null] } },
      { kind: "forbidden-unless", member: "a", when: { path: ["c", "kind"], in: ["x"] } },
      { kind: "max-items-together", members: ["b", "a"], max: 3 },
      { kind: "exclusive", members: ["a", "n"] },
    ]);
  });

  it("refuses a malformed rule by the schema, with the pointer of each one", async () => {
    const issues = await refusal(
      thing([{ rule: "trim" }, { rule: "nope" }, { rule: "span", from: "n", to: "m" }, "trim"]),
    );
    const at = "/components/schemas/Thing/x-powercontext-rules";
    expect(issues).toEqual([
      `${at}/0/members: members is required`,
      `${at}/1/rule: must be one of trim, not-null, finite-numbers, not-blank, unique-items, relative-path, span, required-when, forbidden-unless, max-items-together`,
      `${at}/2/max: max is required`,
      `${at}/3: expected { rule: <name>, ...arguments }`,
    ]);
  });

  it("refuses a rule naming a member the schema does not have, with the pointer of each one", async () => {
    const issues = await refusal(
      thing(
        [
          { rule: "trim", members: ["a", "zz"] },
          { rule: "span", from: "n", to: "zz", max: 1 },
          { rule: "required-when", member: "a", when: { path: ["zz"], in: ["x"] } },
          { rule: "span", from: "n", to: "m", min: 3, max: 1 },
        ],
        { "x-powercontext-exclusive-fields": ["a", "zz"] },
      ),
    );
    const at = "/components/schemas/Thing";
    expect(issues).toEqual([
      `${at}/x-powercontext-rules/0: trim: names zz, not properties of the schema`,
      `${at}/x-powercontext-rules/1: span: names zz, not properties of the schema`,
      `${at}/x-powercontext-rules/2: required-when: names zz, not properties of the schema`,
      `${at}/x-powercontext-rules/3: span: min must not exceed max`,
      `${at}/x-powercontext-exclusive-fields: exclusive: names zz, not properties of the schema`,
    ]);
  });

  it("carries the rules of openapi.yaml: the release's checks, stated as facts", async () => {
    const ir = buildIr(await loadSpec(join(repoRoot, "openapi.yaml")), "strict");
    const ruled = ir.schemas.filter((s) => s.rules.length > 0);
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
    expect(search.rules[0]).toEqual({ kind: "trim", members: ["query"] });
    expect(ir.schemas.find((s) => s.name === "GetMemoryEntryRequest")!.rules).toEqual([
      { kind: "exclusive", members: ["citation", "target"] },
    ]);
  });
});
