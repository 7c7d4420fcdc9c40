// The validator module as tables (docs/adr/0020-validator-tables.md): each schema and
// each repeated subschema is written once, required members as a bit mask where that
// keeps ajv's order of reporting, a recursive schema through the runtime's `recursive`, and the
// first issue reported is the one ajv reports.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { ValidatorTables } from "../../src/emit/validator-code/tables.js";
import { differentIssue } from "../helpers/first-issue.js";
import { scratchDir } from "../helpers/paths.js";

interface Emitted {
  (data: unknown): boolean;
  errors: { instancePath: string; keyword: string; message: string; params: Record<string, unknown> }[] | null;
}

const LONG = { type: "string", minLength: 1, maxLength: 64, pattern: "^[a-z]+$" };
const DEFINITIONS: Record<string, unknown> = {
  // The same schema on both sides of the wire, and through a reference to the same shape.
  request_Item: {
    type: "object",
    properties: { name: LONG, tags: { type: "array", items: LONG } },
    required: ["name"],
    additionalProperties: false,
  },
  response_Item: {
    type: "object",
    properties: { name: LONG, tags: { type: "array", items: LONG } },
    required: ["name"],
    additionalProperties: false,
  },
  // Required in property order: a mask; out of order: the names, so the first missing is ajv's.
  InOrder: {
    type: "object",
    properties: { a: { type: "integer" }, b: { type: "integer" }, c: { type: "integer" } },
    required: ["a", "c"],
  },
  OutOfOrder: {
    type: "object",
    properties: { a: { type: "integer" }, b: { type: "integer" }, c: { type: "integer" } },
    required: ["c", "a"],
  },
  // A tree: a node whose children are nodes.
  Tree: {
    type: "object",
    properties: { value: { type: "integer" }, children: { type: "array", items: { $ref: "#/definitions/Tree" } } },
    required: ["value"],
  },
  // The rarer keywords, checked through the handlers a node lists in `k`.
  Bounded: { type: "number", minimum: -5, exclusiveMinimum: 0, exclusiveMaximum: 10, multipleOf: 0.5 },
  Choice: { anyOf: [{ type: "string", format: "date" }, { type: "null" }] },
  Exactly: { oneOf: [{ type: "integer" }, { type: "number", minimum: 2 }], not: { const: 7 } },
  // An enum of scalars is compared in place; one holding an object or array needs structural equality.
  Plain: { type: "string", enum: ["a", "b"] },
  Picked: { enum: [{ a: 1, b: [2] }, [1, 2], "x", null] },
  Both: {
    allOf: [
      { type: "object", required: ["kind"] },
      { if: { properties: { kind: { const: "a" } } }, then: { required: ["a"] }, else: { required: ["b"] } },
    ],
  },
};

async function emit(exports: string[]): Promise<{ code: string; validators: Record<string, Emitted> }> {
  const formats = { date: /^\d{4}-\d{2}-\d{2}$/ };
  const code = new ValidatorTables(
    (key) => DEFINITIONS[key] as never,
    formats,
    "@powercontext/runtime/validation",
  ).module(new Map(exports.map((key) => [key, key])));
  const file = path.join(scratchDir("validator-tables"), "tables.mjs");
  writeFileSync(file, code);
  return { code, validators: (await import(pathToFileURL(file).href)) as Record<string, Emitted> };
}

describe("validator tables", () => {
  it("writes a schema that reads alike on both sides of the wire once, and a repeated subschema once", async () => {
    const { code, validators } = await emit(["request_Item", "response_Item"]);
    expect(code.split("^[a-z]+$").length - 1).toBe(1);
    // An object without additional members: the letter `O`, no `A: false`.
    expect(code.match(/^const s\d+ = \{ t: "O"/gm)).toHaveLength(1);
    expect(code).not.toContain("A: false");
    expect(validators.request_Item?.({ name: "ok", tags: ["a"] })).toBe(true);
    expect(validators.response_Item?.({ name: "ok", tags: ["A"] })).toBe(false);
    expect(validators.response_Item?.errors?.[0]).toMatchObject({ instancePath: "/tags/0", keyword: "pattern" });
  });

  it("writes required members as a mask only when that keeps ajv's order, and reports the first missing one as ajv does", async () => {
    const { code, validators } = await emit(["InOrder", "OutOfOrder"]);
    expect(code).toContain("r: 5,");
    expect(code).toContain('r: ["c","a"]');
    const ajv = new Ajv({ strict: false, logger: false });
    for (const key of ["InOrder", "OutOfOrder"]) {
      const reference = ajv.compile(DEFINITIONS[key] as object);
      for (const value of [{}, { a: 1 }, { c: 1 }, { a: 1, c: 1 }, { a: "x", c: 1 }]) {
        const ours = validators[key] as Emitted;
        expect(ours(value), `${key} ${JSON.stringify(value)}`).toBe(reference(value));
        expect(ours.errors?.[0]?.params ?? null, `${key} ${JSON.stringify(value)}`).toEqual(
          reference.errors?.[0]?.params ?? null,
        );
      }
    }
  });

  it("validates a recursive schema, written with a reference back into its cycle", async () => {
    const { code, validators } = await emit(["Tree"]);
    expect(code).toMatch(/recursive\(\(\) => s\d+\)/);
    const tree = validators.Tree as Emitted;
    expect(tree({ value: 1, children: [{ value: 2, children: [{ value: 3 }] }] })).toBe(true);
    expect(tree({ value: 1, children: [{ value: 2, children: [{ value: "3" }] }] })).toBe(false);
    expect(tree.errors?.[0]).toMatchObject({
      instancePath: "/children/0/children/0/value",
      keyword: "type",
      message: "must be integer",
    });
  });

  it("names the handler of each rarer keyword on the node that uses it, imports those alone, and reports ajv's first issue", async () => {
    const { code, validators } = await emit(["Bounded", "Choice", "Exactly", "Both"]);
    // In ajv's order of checking them.
    expect(code).toContain("k: [exclusiveMaximumKeyword, exclusiveMinimumKeyword, multipleOfKeyword]");
    expect(code).toMatch(/format: \["date",[^\]]*\], k: \[formatKeyword\]/);
    expect(code).toContain("k: [notKeyword, oneOfKeyword]");
    expect(code.match(/^import .*$/gm)).toEqual([
      'import { validator as v, constKeyword, exclusiveMaximumKeyword, exclusiveMinimumKeyword, multipleOfKeyword, formatKeyword, notKeyword, anyOfKeyword, oneOfKeyword, allOfKeyword, ifKeyword } from "@powercontext/runtime/validation";',
    ]);
    // ajv's first issue (and those of a failing anyOf/oneOf, which it lists after its branches').
    const ajv = new Ajv({ strict: false, logger: false });
    ajv.addFormat("date", /^\d{4}-\d{2}-\d{2}$/);
    const samples: Record<string, unknown[]> = {
      Bounded: [-1, 0, 0.5, 3, 3.2, 9.5, 10, 12, "x"],
      Choice: [null, "2024-01-02", "2024-1-2", 3],
      Exactly: [1, 2.5, 3, 7, 1.5, "x"],
      Both: [{ kind: "a", a: 1 }, { kind: "a", b: 1 }, { kind: "b", b: 1 }, { kind: "b" }, {}, []],
    };
    for (const [key, values] of Object.entries(samples)) {
      const reference = ajv.compile(DEFINITIONS[key] as object);
      const ours = validators[key] as Emitted;
      for (const value of values) {
        const what = `${key} ${JSON.stringify(value)}`;
        expect(ours(value), what).toBe(reference(value));
        if (!reference(value)) expect(differentIssue(ours.errors?.[0], reference.errors), what).toBeNull();
      }
    }
  });

  it("writes an enum of scalars in place and one holding objects or arrays through enumKeyword, judged as ajv judges them", async () => {
    const { code, validators } = await emit(["Plain", "Picked"]);
    expect(code).toContain('{ t: "s", e: ["a","b"] }');
    expect(code).toContain('{ enum: [{"a":1,"b":[2]},[1,2],"x",null], k: [enumKeyword] }');
    const ajv = new Ajv({ strict: false, logger: false });
    const samples: Record<string, unknown[]> = {
      Plain: ["a", "b", "c", 1, null],
      Picked: [{ b: [2], a: 1 }, { a: 1, b: [3] }, { a: 1 }, [1, 2], [2, 1], "x", "y", null, 0, {}],
    };
    for (const [key, values] of Object.entries(samples)) {
      const reference = ajv.compile(DEFINITIONS[key] as object);
      const ours = validators[key] as Emitted;
      for (const value of values) {
        const what = `${key} ${JSON.stringify(value)}`;
        expect(ours(value), what).toBe(reference(value));
        if (!reference(value)) expect(differentIssue(ours.errors?.[0], reference.errors), what).toBeNull();
      }
    }
  });

  it("imports nothing but the runtime's validation entry", async () => {
    const { code } = await emit(["Tree", "InOrder"]);
    expect(code.match(/^import .*$/gm)).toEqual([
      'import { validator as v, recursive } from "@powercontext/runtime/validation";',
    ]);
  });
});
