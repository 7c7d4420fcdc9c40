import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { validatorFormats } from "../../src/targets/client/formats.js";
import { ValidatorTables } from "../../src/emit/validator-code/tables.js";
import { scratchDir } from "../helpers/paths.js";

// A member named __proto__ in an enum or const value: as an object literal it
// would set the prototype instead, and the emitted check would compare against `{}`.
const SCHEMAS: Record<string, Record<string, unknown>> = {
  Choice: { enum: [JSON.parse('{"__proto__":1}'), { constructor: null }, "x"] },
  Fixed: { const: JSON.parse('{"__proto__":{"a":1}}') },
};
const VALUES = [
  '{"__proto__":1}',
  "{}",
  '{"constructor":null}',
  '"x"',
  '{"__proto__":{"a":1}}',
  '{"__proto__":{}}',
  "null",
];

interface Emitted {
  (data: unknown): boolean;
  errors: { instancePath: string; message: string; keyword: string; params: unknown }[] | null;
}

describe("enum and const values with a __proto__ member", async () => {
  const code = new ValidatorTables(
    (key) => SCHEMAS[key],
    validatorFormats([]),
    "@powercontext/runtime/validation",
  ).module(new Map(Object.keys(SCHEMAS).map((key) => [key, key])));
  const file = path.join(scratchDir("validators-proto"), "proto.mjs");
  writeFileSync(file, code);
  const emitted = (await import(pathToFileURL(file).href)) as Record<string, Emitted>;
  const ajv = new Ajv({ strict: false, logger: false });

  it.each(Object.keys(SCHEMAS))("%s judges and reports like ajv", (key) => {
    const reference = ajv.compile(SCHEMAS[key] as object);
    for (const text of VALUES) {
      const value: unknown = JSON.parse(text);
      const ours = emitted[key] as Emitted;
      expect(ours(value), `${key} ${text}`).toBe(reference(value));
      if (reference.errors) {
        // Same keyword and params as ajv (our enum message lists the values, ajv's does not).
        const [first] = reference.errors;
        expect(ours.errors?.[0]?.keyword, `${key} ${text}`).toBe(first?.keyword);
        expect(JSON.stringify(ours.errors?.[0]?.params), `${key} ${text}`).toBe(JSON.stringify(first?.params));
      }
    }
  });

  it("names the __proto__ member in the enum issue", () => {
    const choice = emitted.Choice as Emitted;
    expect(choice({})).toBe(false);
    expect(choice.errors?.[0]?.message).toBe('must be one of {"__proto__":1}, {"constructor":null}, "x"');
  });
});
