import { readFileSync } from "node:fs";
import path from "node:path";
import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { emitFactTypes } from "../../src/emit/facts/fact-types.js";
import { readFact } from "../../src/facts/read-fact.js";
import { EXTENSIONS_SCHEMA, FACT_PLACES, placeExtensions, type FactPlace } from "../../src/facts/schema.js";
import { checkExtensions } from "../../src/load/check-extensions.js";
import { repoRoot } from "../helpers/paths.js";

type Json = Record<string, any>;

/** Every `x-powercontext-*` key of a document, with the place it stands on. */
function extensionsOf(document: Json): Set<string> {
  const found = new Set<string>();
  const note = (place: FactPlace, node: unknown) => {
    for (const key of Object.keys((node ?? {}) as Json))
      if (key.startsWith("x-powercontext-")) found.add(`${place} ${key}`);
  };
  note("document", document);
  for (const item of Object.values(document.paths as Json))
    for (const operation of Object.values(item as Json)) {
      note("operation", operation);
      for (const response of Object.values(((operation as Json).responses ?? {}) as Json)) note("response", response);
    }
  for (const schema of Object.values(document.components.schemas as Json)) note("schema", schema);
  return found;
}

describe("the extension schema", () => {
  it("describes every extension openapi.yaml uses, where it stands, and the contract passes it", async () => {
    const document = load(readFileSync(path.join(repoRoot, "openapi.yaml"), "utf8")) as Json;
    const described = new Set(
      FACT_PLACES.flatMap((place) => placeExtensions(place).map(([name]) => `${place} ${name}`)),
    );
    expect([...extensionsOf(document)].filter((key) => !described.has(key))).toEqual([]);
    expect(checkExtensions(document, () => undefined)).toEqual([]);
  });

  it("gives every extension and every member of its objects a description", () => {
    const missing: string[] = [];
    for (const place of FACT_PLACES)
      for (const [name, schema] of placeExtensions(place)) {
        const target = typeof schema.$ref === "string" ? EXTENSIONS_SCHEMA.$defs[schema.$ref.slice(8)] : schema;
        if (typeof target?.description !== "string") missing.push(name);
      }
    for (const [name, definition] of Object.entries(EXTENSIONS_SCHEMA.$defs))
      for (const [member, schema] of Object.entries((definition.properties ?? {}) as Record<string, Json>)) {
        const own =
          schema.description ?? (schema.$ref ? EXTENSIONS_SCHEMA.$defs[schema.$ref.slice(8)]?.description : undefined);
        if (!(FACT_PLACES as readonly string[]).includes(name) && typeof own !== "string" && !name.startsWith("rule-"))
          missing.push(`${name}.${member}`);
      }
    expect(missing).toEqual([]);
  });

  it("refuses as a member name each member every JavaScript object has, alone or as a part", () => {
    const names = ["__proto__", "constructor", "toString", "valueOf", "hasOwnProperty", "__lookupSetter__"];
    const document = {
      "x-powercontext-resources": Object.fromEntries(
        names.map((name, i) => [
          `r${i}`,
          { id: i % 2 === 0 ? name : `a.${name}.b`, not_found: { status: 404, code: "c" } },
        ]),
      ),
    };
    expect(checkExtensions(document, () => undefined).map((f) => f.pointer)).toEqual(
      names.map((_, i) => `/x-powercontext-resources/r${i}/id`),
    );
  });
});

describe("reading a fact (facts/read-fact.ts)", () => {
  it("camelCases members, fills defaults at any depth, and reads a member left out without one as null", () => {
    expect(readFact("async", { accepted_status: 202, poll_operation: "get_op", result_field: "result" })).toEqual({
      acceptedStatus: 202,
      pollOperation: "get_op",
      resultField: "result",
      operationIdField: "operation_id",
      statusField: "status",
      errorField: "error",
      terminalStates: { succeeded: ["succeeded"], failed: ["failed"], cancelled: ["cancelled"] },
    });
    expect(readFact("refusal", { status: 404, code: "gone" })).toEqual({ status: 404, code: "gone", details: null });
  });

  it("expands a shorthand, lists a map's entries, and reads a one-entry map as its entry", () => {
    const row = readFact("resource", {
      id: "note_id",
      version: "revision",
      within: { scope_id: "scope" },
      digests: { a: "text", b: { of: ["x", "y"], bare: true } },
      not_found: { status: 404, code: "gone" },
    }) as Json;
    expect(row.version).toEqual({ member: "revision", start: 1 });
    expect(row.within).toEqual([{ member: "scope_id", resource: "scope" }]);
    expect(row.digests).toEqual([
      { member: "a", of: ["text"], object: false, bare: false },
      { member: "b", of: ["x", "y"], object: true, bare: true },
    ]);
    const use = readFact("resource-use", {
      name: "note",
      action: "read",
      omit: { members: ["a"], unless_header: { "X-V": "2" } },
    }) as Json;
    expect(use.omit).toEqual({ members: ["a"], unlessHeader: { name: "X-V", value: "2" } });
  });

  it("reads a rule as the branch its `rule` names, merged with its binding, a narrowing member left to the binding", () => {
    expect(readFact("model-rule", { rule: "no-outer-whitespace", members: ["a"] })).toEqual({
      kind: "no-outer-whitespace",
      members: ["a"],
      side: "both",
      stage: "wire",
      answer: null,
    });
    // digest's branch narrows `stage` to runtime; the value is the binding's, read once.
    const digest = readFact("model-rule", { rule: "digest", member: "d", of: ["a"], stage: "runtime" }) as Json;
    expect(digest).toMatchObject({ kind: "digest", member: "d", of: ["a"], stage: "runtime" });
    expect(Object.keys(digest)).toEqual(["kind", "member", "of", "stage", "answer"]);
    const condition = readFact("model-rule", {
      rule: "required-when",
      member: "a",
      when: { path: ["b"], "not-in": [null] },
    }) as Json;
    expect(condition.when).toEqual({ path: ["b"], in: null, notIn: [null] });
  });
});

describe("the fact types (emit/facts/fact-types.ts)", () => {
  it("types a rule as the union of its kinds intersected with its binding", () => {
    const types = emitFactTypes(["model-rule"], "test");
    expect(types).toContain("export type ModelRuleFact = RuleCheckFact & RuleBindingFact;");
    expect(types).toMatch(/readonly kind: "required-when" \| "forbidden-unless";/);
    // `stage` is declared by the binding alone, never by a kind's branch.
    expect(types.match(/readonly stage:/g)).toHaveLength(1);
  });

  it("in the written form keeps each key and makes what the spec may leave out optional", () => {
    const types = emitFactTypes(["access-after"], "test", "written");
    expect(types).toContain("readonly if_any_null?: string;");
    expect(types).toContain("readonly action: string;");
    expect(types).not.toContain("ifAnyNull");
  });
});
