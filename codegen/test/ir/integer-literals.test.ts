import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ValidatorTables } from "../../src/emit/validator-code/tables.js";
import { scratchDir } from "../helpers/paths.js";

interface Emitted {
  (data: unknown, text?: string): boolean;
  errors: { instancePath: string; keyword: string; message: string }[] | null;
}

const definitions: Record<string, unknown> = {
  count: { type: "integer" },
  doc: {
    type: "object",
    properties: {
      n: { type: "integer" },
      f: { type: "number" },
      maybe: { type: ["integer", "null"] },
      either: { type: ["integer", "number"] },
      list: { type: "array", items: { $ref: "#/definitions/count" } },
      "a/b~c": { type: "integer" },
      free: { type: "object", additionalProperties: { type: "integer" } },
      any: {},
    },
  },
};

/**
 * The emitted validators given the JSON text a value was parsed from: a number
 * written with a fraction or exponent is not an integer at its own location, and
 * nowhere else; without the text the value alone is judged, as ajv does.
 */
describe("emitted validators and integral literals written as floats", async () => {
  const code = new ValidatorTables((key) => definitions[key] as never, {}, "@powercontext/runtime/validation").module(
    new Map([
      ["doc", "doc"],
      ["count", "count"],
    ]),
  );
  const file = path.join(scratchDir("validators"), "integer-literals.mjs");
  writeFileSync(file, code);
  const { doc, count } = (await import(pathToFileURL(file).href)) as { doc: Emitted; count: Emitted };
  const check = (validate: Emitted, text: string) => {
    const ok = validate(JSON.parse(text), text);
    return ok ? "ok" : `${validate.errors?.[0]?.instancePath} ${validate.errors?.[0]?.message}`;
  };

  it.each([
    ['{"n":3.0}', "/n must be integer"],
    ['{"n":3e0}', "/n must be integer"],
    ['{"n":-1E-400}', "/n must be integer"],
    ['{"maybe":2.0}', "/maybe must be integer,null"],
    ['{"list":[1, 2, 3.0]}', "/list/2 must be integer"],
    ['{"a/b~c":1.0}', "/a~1b~0c must be integer"],
    ['{"free":{"x/y":1,"z":2e1}}', "/free/z must be integer"],
    ['{"free":{"x/y":1.0}}', "/free/x~1y must be integer"],
    ['{"f":1.0,"either":2.0,"any":[3.0,{"n":4.0}],"n":3}', "ok"],
    ['{"any":"{\\"n\\": 3.0}","n":3,"list":[1e0 ,2]}', "/list/0 must be integer"],
    ['{"any":"\\"n\\":3.0","n":3}', "ok"],
    ['{"n":3.5}', "/n must be integer"],
    // Fractions that a double rounds to an integer, and near misses that it does not.
    ['{"n":1234567890.0000001}', "/n must be integer"],
    ['{"n":0.99999999999999999}', "/n must be integer"],
    ['{"n":7.000000000000000001}', "/n must be integer"],
    ['{"n":12345678901234567.5}', "/n must be integer"],
    ['{"n":3.00}', "/n must be integer"],
    ['{"n":3.000000001}', "/n must be integer"],
    ['{"n":0.9299999999999999,"list":[2]}', "/n must be integer"],
  ])("%s -> %s", (text, expected) => {
    expect(check(doc, text)).toBe(expected);
  });

  it("applies at the root, and not without the text", () => {
    expect(check(count, "7.0")).toBe(" must be integer");
    expect(check(count, "7")).toBe("ok");
    expect(count(7)).toBe(true);
    expect(doc({ n: 3, list: [1] })).toBe(true);
  });

  it("finds a float-written integer behind many ordinary floats and strings", () => {
    const hits = Array.from({ length: 50 }, (_, i) => `{"f":0.${995 - i},"any":"v 1.0 at 2e3 receipt."}`).join(",");
    expect(check(doc, `{"any":[${hits}],"n":3}`)).toBe("ok");
    expect(check(doc, `{"any":[${hits}],"n":3,"list":[1,99999999.0]}`)).toBe("/list/1 must be integer");
  });

  it("does not keep the pointers of one call for the next", () => {
    expect(check(doc, '{"n":3.0}')).toBe("/n must be integer");
    expect(doc({ n: 3 })).toBe(true);
    expect(check(doc, '{"n":3}')).toBe("ok");
  });
});
