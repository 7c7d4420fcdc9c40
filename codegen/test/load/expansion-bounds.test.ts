import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT } from "../../src/cli.js";
import { SpecError } from "../../src/errors.js";
import { MAX_DOCUMENT_TEXT, MAX_DOCUMENT_VALUES, MAX_SPEC_BYTES } from "../../src/load/check-bounds.js";
import { checkOutputSize, MAX_OUTPUT_BYTES } from "../../src/output-bounds.js";
import { generateFromText } from "../../src/pipeline.js";
import { runIn, snapshot } from "../helpers/minimal-spec.js";
import { scratchDir } from "../helpers/paths.js";

/**
 * A valid spec (YAML) whose `Thing` example holds `*l<levels-1>`: anchor `l0` is ten
 * copies of `unit`, each `l<i>` ten aliases of `l<i-1>`, so the example expands
 * to 10^levels copies of `unit` from under a kilobyte of text.
 */
function aliasBomb(levels: number, unit = "x"): string {
  let text = `openapi: "3.0.3"
info: {title: t, version: "1"}
x-defs:
  l0: &l0 [${Array(10).fill(unit).join(", ")}]
`;
  for (let i = 1; i < levels; i += 1)
    text += `  l${i}: &l${i} [${Array(10)
      .fill(`*l${i - 1}`)
      .join(", ")}]\n`;
  return `${text}paths:
  /v1/things:
    post:
      operationId: get_thing
      x-powercontext-retry-class: safe
      responses:
        "200":
          description: ok
          headers: {X-PowerContext-Request-ID: {schema: {type: string}}}
          content: {application/json: {schema: {$ref: "#/components/schemas/Thing"}}}
components:
  schemas:
    Thing: {type: object, properties: {v: {type: string}}, example: {v: *l${levels - 1}}}
`;
}

/** Runs the CLI (repository layout) on `text` and reports what it wrote and how long it took. */
async function generate(text: string) {
  const dir = scratchDir("expansion");
  writeFileSync(path.join(dir, "openapi.yaml"), text);
  const started = performance.now();
  const result = await runIn(dir, ["--spec", "openapi.yaml", "--root", "out", "--python-models", "skip"]);
  return { ...result, ms: performance.now() - started, written: snapshot(path.join(dir, "out")) };
}

describe("a spec that expands past the generator's bounds is refused at once, nothing written", () => {
  it("nested YAML aliases (10^7 strings from under a kilobyte): exit 2 within a second, naming the alias", async () => {
    const text = aliasBomb(7);
    expect(text.length).toBeLessThan(1024);
    const result = await generate(text);
    expect(result.code).toBe(EXIT.badInput);
    expect(result.stderr).toMatch(
      /error: #\/x-defs\/l\d\/\d+: the YAML alias here makes the document expand to more than 1000000 values/,
    );
    expect(result.written).toEqual({});
    expect(result.ms).toBeLessThan(1000);
  });

  it("aliases of a long string: refused by the expanded text, at the alias that repeats it", async () => {
    const result = await generate(aliasBomb(4, "y".repeat(100_000)));
    expect(result.code).toBe(EXIT.badInput);
    expect(result.stderr).toMatch(
      /error: #\/x-defs\/l\d\/\d+: the YAML alias here makes the document expand to more than \d+ characters of text/,
    );
    expect(result.written).toEqual({});
    expect(result.ms).toBeLessThan(1000);
  });

  it("the same aliases within the bounds generate (an alias is fine, a bomb is not)", async () => {
    const generated = await generateFromText(aliasBomb(3), "openapi.yaml", { python: { models: "skip" } });
    expect(generated.files.get("python/src/powercontext_ts/_generated/schema.py")).toContain('"x", "x"');
  });

  it("a spec file larger than the bound is refused before it is parsed", async () => {
    const text = `${aliasBomb(1)}#${" ".repeat(MAX_SPEC_BYTES)}\n`;
    const started = performance.now();
    const error = await generateFromText(text, "openapi.yaml").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecError);
    expect((error as SpecError).code).toBe("too_large");
    expect((error as SpecError).pointer).toBe("");
    expect((error as SpecError).message).toContain(`more than ${MAX_SPEC_BYTES} bytes`);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("the bounds leave room for ten times the released contract", () => {
    // openapi.yaml: 478 kB, 17,407 values, 273,634 characters of keys and strings
    expect(MAX_SPEC_BYTES).toBeGreaterThan(10 * 478_000);
    expect(MAX_DOCUMENT_VALUES).toBeGreaterThan(10 * 17_407);
    expect(MAX_DOCUMENT_TEXT).toBeGreaterThan(10 * 273_634);
  });
});

describe("generated output past its bound is refused before anything is written", () => {
  it("names the largest file and the total", () => {
    const files = new Map([
      ["a.ts", "a".repeat(40)],
      ["b.py", "b".repeat(70)],
    ]);
    expect(() => checkOutputSize(files, 100)).toThrow(SpecError);
    expect(() => checkOutputSize(files, 100)).toThrow(/110 bytes of output, more than 100; the largest is b\.py/);
    expect(() => checkOutputSize(files, 110)).not.toThrow();
    expect(MAX_OUTPUT_BYTES).toBeGreaterThan(50 * 1024 * 1024);
  });

  it("a spec whose output would pass the bound is refused by the generator", async () => {
    // one description of 200 kB: the types' doc comment, the mock's document and schema.py each carry it
    const text = aliasBomb(1).replace(
      "Thing: {type: object,",
      `Thing: {type: object, description: "${"d".repeat(200_000)}",`,
    );
    const error = await generateFromText(text, "openapi.yaml", { maxOutputBytes: 500_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecError);
    expect((error as SpecError).code).toBe("too_large");
    expect((error as SpecError).message).toMatch(
      /bytes of output, more than 500000; the largest is .* Nothing was written/,
    );
    expect((await generateFromText(text, "openapi.yaml")).files.size).toBeGreaterThan(10);
  });
});

/**
 * A valid spec of a few kilobytes whose request body fans out through `$ref`s (no
 * alias): `L0` has ten members of `L1`, each `L1` ten of `L2`, and so on, so the body
 * names 10^levels member paths; with `allOf`, each level is ten parts of the next.
 */
function refFanOut(levels: number, via: "properties" | "allOf"): string {
  let text = `openapi: "3.0.3"
info: {title: t, version: "1"}
paths:
  /v1/things:
    post:
      operationId: get_thing
      x-powercontext-retry-class: safe
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: "#/components/schemas/L0"}}}
      responses:
        "200":
          description: ok
          headers: {X-PowerContext-Request-ID: {schema: {type: string}}}
          content: {application/json: {schema: {type: object}}}
components:
  schemas:
`;
  for (let i = 0; i < levels; i += 1) {
    const next =
      i < levels - 1
        ? `{$ref: "#/components/schemas/L${i + 1}"}`
        : "{type: object, properties: {v: {type: string, default: d}}}";
    text +=
      via === "properties"
        ? `    L${i}:\n      type: object\n      properties:\n${Array.from({ length: 10 }, (_, j) => `        p${j}: ${next}\n`).join("")}`
        : `    L${i}:\n      allOf:\n${Array.from({ length: 10 }, () => `        - ${next}\n`).join("")}`;
  }
  return text;
}

describe("a request body that fans out through $ref", () => {
  it.each(["properties", "allOf"] as const)(
    "through %s is refused at a pointer within a second, not walked path by path",
    async (via) => {
      const started = performance.now();
      const failure = await generateFromText(refFanOut(9, via), "fan.yaml", { targets: ["client"] }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(failure).toBeInstanceOf(SpecError);
      expect((failure as SpecError).code).toBe("too_large");
      expect((failure as SpecError).pointer).toMatch(/^\/components\/schemas\/L\d$/);
    },
    60_000,
  );

  it("a small fan-out still generates, its members' defaults listed", async () => {
    const generated = await generateFromText(refFanOut(2, "properties"), "fan.yaml", { targets: ["client"] });
    expect([...generated.files.keys()].length).toBeGreaterThan(0);
  });
});
