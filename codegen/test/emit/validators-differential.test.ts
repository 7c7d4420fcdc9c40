import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv, type ValidateFunction as AjvValidate } from "ajv";
import { describe, expect, it } from "vitest";
import { validatorFormats } from "../../src/targets/client/formats.js";
import { ValidatorTables } from "../../src/emit/validator-code/tables.js";
import { validatorSchemas } from "../../src/emit/validator-code/schemas.js";
import { buildIr } from "../../src/ir/build-ir.js";
import { loadSpec } from "../../src/load/load-spec.js";
import type { LintProfile } from "../../src/domain/types.js";
import { fixturesDir, repoRoot, scratchDir, upstreamContract, upstreamSpec } from "../helpers/paths.js";
import { differentIssue, type Issue } from "../helpers/first-issue.js";
import { Random, Sampler, mutate } from "../helpers/schema-samples.js";

interface Emitted {
  (data: unknown, text?: string): boolean;
  errors: Issue[] | null;
}

const SPECS: [name: string, file: string, lint: LintProfile][] = [
  ...(upstreamContract("validators against ajv on the published 0.0.2 contract")
    ? [["powercontext-0.0.2", upstreamSpec, "upstream"] as [string, string, LintProfile]]
    : []),
  ["openapi.yaml", path.join(repoRoot, "openapi.yaml"), "strict"],
  ["features fixture", path.join(fixturesDir, "features.yaml"), "strict"],
];
const SAMPLES_PER_SCHEMA = 24;
/**
 * A JSON text writing an integer as a float at a member no sampled value has:
 * given it, a validator takes its ordered path alone (the one that knows where
 * each value sits), which must judge every value as its fast path does.
 */
const FLOAT_ELSEWHERE = '{"\\u0000":1.0}';

/** Every `format` value used in a JSON value. */
function formatsIn(node: unknown, into = new Set<string>()): Set<string> {
  if (node !== null && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "format" && typeof value === "string") into.add(value);
      else formatsIn(value, into);
    }
  }
  return into;
}

/**
 * The emitted validators against ajv, the reference implementation: every schema a
 * validator exists for (each component on both sides of the wire and each inline
 * operation schema) is compiled by both, then both judge the same values, sampled
 * from the schema (mostly valid) and mutated (mostly invalid). They must agree, and on
 * a value both reject, report the same first issue (`differentIssue`).
 */
describe.each(SPECS)("emitted validators agree with ajv on %s", async (name, file, lint) => {
  const ir = buildIr(await loadSpec(file, { lint }), lint);
  const schemas = validatorSchemas(ir);
  const definitions = Object.fromEntries(schemas.keys.map((key) => [key, schemas.definition(key)]));

  const ajv = new Ajv({
    strict: false,
    allErrors: false,
    allowUnionTypes: true,
    logger: false,
    formats: validatorFormats(formatsIn(definitions)),
  });
  ajv.addSchema({ $id: "root", definitions });
  const reference = (key: string) => ajv.getSchema(`root#/definitions/${key}`) as AjvValidate;

  const code = new ValidatorTables(schemas.definition, validatorFormats([]), "@powercontext/runtime/validation").module(
    new Map(schemas.keys.map((key) => [key, key])),
  );
  const modulePath = path.join(scratchDir("validators"), `${name.replace(/\W+/g, "-")}.mjs`);
  writeFileSync(modulePath, code);
  const emitted = (await import(pathToFileURL(modulePath).href)) as Record<string, Emitted>;

  it("exports one validator per schema", () => {
    expect(Object.keys(emitted).sort()).toEqual([...schemas.keys].sort());
  });

  it("accepts and rejects exactly what ajv does, on sampled and mutated values", () => {
    const disagreements: string[] = [];
    let accepted = 0;
    let total = 0;
    schemas.keys.forEach((key, index) => {
      const random = new Random(index + 1);
      const sampler = new Sampler(schemas.definition, random);
      for (let i = 0; i < SAMPLES_PER_SCHEMA; i += 1) {
        const sample = JSON.parse(JSON.stringify(sampler.sample({ $ref: `#/definitions/${key}` }) ?? null)) as unknown;
        const value = i % 2 === 0 ? sample : mutate(sample, random);
        const want = reference(key)(value);
        const validate = emitted[key] as Emitted;
        const got = validate(value);
        total += 1;
        if (want) accepted += 1;
        if (got !== want) disagreements.push(`${key}: ajv ${want}, emitted ${got} for ${JSON.stringify(value)}`);
        else if (got && validate.errors !== null) disagreements.push(`${key}: accepted with errors set`);
        else if (!got) {
          const differs = differentIssue(validate.errors?.[0], reference(key).errors);
          if (differs !== null) disagreements.push(`${key}: ${JSON.stringify(value)}: ${differs}`);
        }
        const fast = JSON.stringify(validate.errors);
        if (validate(value, FLOAT_ELSEWHERE) !== got || JSON.stringify(validate.errors) !== fast)
          disagreements.push(
            `${key}: ${JSON.stringify(value)}: the ordered path alone says ${JSON.stringify(validate.errors)}`,
          );
      }
    });
    expect(disagreements.slice(0, 10)).toEqual([]);
    // Both outcomes must be well represented, or agreement would prove little.
    expect(accepted / total).toBeGreaterThan(0.25);
    expect(accepted / total).toBeLessThan(0.9);
  });
});
