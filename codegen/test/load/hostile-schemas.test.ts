import { suiteName } from "../../../test/real/tools.js";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { EXIT } from "../../src/cli.js";
import { OPERATION, minimalSpec, operationOf, runIn, snapshot, type Json } from "../helpers/minimal-spec.js";
import { ensureCodegenBuilt } from "../helpers/fresh-folder.js";
import { scratchDir } from "../helpers/paths.js";
import { modelsTool, stderrBesidesModels } from "../helpers/python-models.js";

const models = modelsTool(suiteName(import.meta.url));

const THING = "/components/schemas/Thing";

/** Runs the generator on a spec (object, or text written as is) and reports what it wrote. */
async function generate(spec: Json | string, options: { file?: string; args?: string[] } = {}) {
  const dir = scratchDir("hostile");
  const file = options.file ?? "openapi.yaml";
  writeFileSync(
    path.join(dir, file),
    typeof spec === "string" ? spec : stringify(spec, { aliasDuplicateObjects: false }),
  );
  const result = await runIn(dir, ["--spec", file, "--root", "out", ...(options.args ?? [])]);
  return { ...result, dir, written: snapshot(path.join(dir, "out")) };
}

function withThing(thing: Json, more: Json = {}): Json {
  const spec = minimalSpec();
  spec.components.schemas.Thing = thing;
  Object.assign(spec.components.schemas, more);
  return spec;
}

/** The minimal spec as JSON text with `Thing` replaced by `depth` nested object schemas. */
function deepJson(depth: number): string {
  const text = JSON.stringify(minimalSpec());
  const thing = JSON.stringify(minimalSpec().components.schemas.Thing);
  const nested = `${'{"type":"object","properties":{"a":'.repeat(depth)}{"type":"string"}${"}}".repeat(depth)}`;
  return text.replace(`"Thing":${thing}`, `"Thing":${nested}`);
}

/** Imports an emitted validators.js. */
async function validators(dir: string): Promise<Record<string, (value: unknown) => boolean>> {
  return (await import(pathToFileURL(path.join(dir, "out/packages/sdk/src/generated/validators.js")).href)) as Record<
    string,
    (value: unknown) => boolean
  >;
}

function expectRefused(
  result: { code: number; stderr: string; written: Record<string, string> },
  pointer: string,
  message: RegExp,
): void {
  expect(result.code).toBe(EXIT.badInput);
  expect(result.stderr).toContain(`error: #${pointer}`);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(/internal error|RangeError|\n\s+at /);
  expect(result.written).toEqual({});
}

describe("reference cycles and depth", () => {
  it("a pure $ref cycle exits 2 naming each $ref of the cycle", async () => {
    const result = await generate(
      withThing({ $ref: "#/components/schemas/Other" }, { Other: { $ref: "#/components/schemas/Thing" } }),
    );
    expectRefused(
      result,
      `${THING}/$ref`,
      /cycle of references .* -> #\/components\/schemas\/Thing -> #\/components\/schemas\/Other/,
    );
    expect(result.stderr).toContain("error: #/components/schemas/Other/$ref");
  });

  it("a schema that is a $ref to itself exits 2", async () => {
    expectRefused(
      await generate(withThing({ $ref: "#/components/schemas/Thing" })),
      `${THING}/$ref`,
      /cycle of references/,
    );
  });

  it("a chain of more than 32 references to references exits 2", async () => {
    const chain: Json = {};
    for (let i = 0; i < 40; i += 1) chain[`Link${i}`] = { $ref: `#/components/schemas/Link${i + 1}` };
    chain.Link40 = { type: "string" };
    expectRefused(
      await generate(withThing({ $ref: "#/components/schemas/Link0" }, chain)),
      `${THING}/$ref`,
      /chain of more than 32 references/,
    );
  });

  it("a 10,000-deep JSON spec exits 2 with the pointer where it gets too deep", async () => {
    const result = await generate(deepJson(10_000), { file: "openapi.json" });
    expectRefused(result, `${THING}${"/properties/a".repeat(47)}`, /nests deeper than 100 levels/);
  });

  it("the installed command exits 2 on a 10,000-deep spec, without a stack trace", () => {
    const dir = scratchDir("hostile-bin");
    writeFileSync(path.join(dir, "deep.json"), deepJson(10_000));
    const run = spawnSync(process.execPath, [ensureCodegenBuilt(), "--spec", "deep.json", "--root", "out"], {
      cwd: dir,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(EXIT.badInput);
    expect(run.stderr).toMatch(/^error: #\/components\/schemas\/Thing\/properties\/a\//m);
    expect(run.stderr).not.toMatch(/internal error|RangeError|\n\s+at /);
  }, 180_000 /* a build first, when codegen/dist is absent */);

  it("a 10,000-deep YAML spec exits 2 with its line and column", async () => {
    const result = await generate(deepJson(10_000), { file: "openapi.yaml" });
    expectRefused(result, " (line 1, column", /nesting exceeded maxDepth/);
  });

  it("a spec just inside the depth limit generates", async () => {
    const result = await generate(deepJson(48), { file: "openapi.json" });
    expect(stderrBesidesModels(result.stderr, models)).toBe("");
    expect(result.code).toBe(EXIT.ok);
  });

  it("allOf: [{$ref: self}] is refused with the pointer of the $ref", async () => {
    const result = await generate(withThing({ allOf: [{ $ref: "#/components/schemas/Thing" }] }));
    expectRefused(result, `${THING}/allOf/0/$ref`, /reaches itself without consuming any input/);
  });

  it("a cycle through oneOf, a discriminator mapping and allOf is refused", async () => {
    const result = await generate(
      withThing(
        {
          oneOf: [{ $ref: "#/components/schemas/Cat" }],
          discriminator: { propertyName: "kind", mapping: { cat: "Cat" } },
        },
        {
          Cat: {
            allOf: [
              { $ref: "#/components/schemas/Thing" },
              { type: "object", properties: { kind: { type: "string" } } },
            ],
          },
        },
      ),
    );
    expect(result.code).toBe(EXIT.badInput);
    expect(result.stderr).toMatch(/error: #\/components\/schemas\/(Thing|Cat)\/.*reaches itself/);
    expect(result.written).toEqual({});
  });

  it("recursion through properties and items still generates, and its validator terminates", async () => {
    const result = await generate(
      withThing({
        type: "object",
        properties: {
          scope_id: { type: "string" },
          children: { type: "array", items: { $ref: "#/components/schemas/Thing" } },
          parent: { allOf: [{ $ref: "#/components/schemas/Thing" }] },
        },
      }),
    );
    expect(result.code).toBe(EXIT.ok);
    const module = await validators(result.dir);
    const validate = Object.entries(module).find(([name]) => name.startsWith("response_Thing"))?.[1] as (
      value: unknown,
    ) => boolean;
    expect(validate({ children: [{ children: [{ scope_id: "a" }] }], parent: { scope_id: "b" } })).toBe(true);
    expect(validate({ children: [{ children: [{ scope_id: 1 }] }] })).toBe(false);
  });
});

describe("regular expressions", () => {
  it("an invalid pattern is refused with its pointer", async () => {
    const spec = withThing({ type: "object", properties: { scope_id: { type: "string", pattern: "((" } } });
    operationOf(spec).parameters = [{ name: "q", in: "query", schema: { type: "string", pattern: "[z-a]" } }];
    const result = await generate(spec);
    expectRefused(
      result,
      `${THING}/properties/scope_id/pattern: "((" is not a valid ECMAScript regular expression`,
      /Unterminated group/,
    );
    expect(result.stderr).toContain(`error: #${OPERATION}/parameters/0/schema/pattern`);
  });

  it("a pattern valid only without the u flag is refused under strict and a warning under upstream, whose validators load", async () => {
    const spec = withThing({ type: "object", properties: { scope_id: { type: "string", pattern: "^a\\_b$" } } });
    expectRefused(
      await generate(spec),
      `${THING}/properties/scope_id/pattern`,
      /not a valid regular expression with the u flag/,
    );
    const upstream = await generate(spec, { args: ["--lint", "upstream"] });
    expect(upstream.code).toBe(EXIT.ok);
    expect(upstream.stderr).toContain(`warning: #${THING}/properties/scope_id/pattern`);
    const module = await validators(upstream.dir);
    expect(module.response_Thing?.({ scope_id: "a_b" })).toBe(true);
    expect(module.response_Thing?.({ scope_id: "ab" })).toBe(false);
  });

  it("a pattern reached only through a $ref outside the schema sections is checked too", async () => {
    const spec = withThing({ type: "object", properties: { scope_id: { $ref: "#/x-shared/id" } } });
    spec["x-shared"] = { id: { type: "string", pattern: "(?<" } };
    expectRefused(await generate(spec), "/x-shared/id/pattern", /not a valid ECMAScript regular expression/);
  });

  it("data that looks like a pattern (an example, an enum value) is not a pattern", async () => {
    const spec = withThing({
      type: "object",
      properties: { scope_id: { type: "string" } },
      example: { pattern: "((" },
    });
    expect((await generate(spec)).code).toBe(EXIT.ok);
  });
});
