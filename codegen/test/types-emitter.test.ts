import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { describe, expect, it } from "vitest";
import { emitTypes, typesOptions } from "../src/emit/types.js";
import { buildIr } from "../src/ir/build-ir.js";
import { DEFAULT_NAMES } from "../src/ir/names.js";
import { loadSpec, loadSpecText } from "../src/load/load-spec.js";
import { fixturesDir, repoRoot } from "./helpers/paths.js";

// The types emitter calls openapi-typescript's transform directly, skipping the
// Redocly parse, lint and bundle of `openapiTS()`. That is only right while the
// two give the same declarations: this compares them on specs that exercise
// discriminators, readOnly/writeOnly, nullable references, header and cookie
// parameters and every media kind, and on the documents Redocly's bundle
// changes (no components; discriminator mappings to a nested schema or to an
// escaped name), which go through openapiTS() itself. An upgrade of
// openapi-typescript that adds a context field with a default other than
// "off" fails here.
describe("the types emitter", () => {
  it.each([
    ["features.yaml", path.join(fixturesDir, "features.yaml")],
    ["wide.yaml", path.join(fixturesDir, "wide.yaml")],
    ["openapi.yaml", path.join(repoRoot, "openapi.yaml")],
  ])("writes for %s what openapiTS() writes", async (_name, file) => {
    const spec = await loadSpec(file, { lint: "upstream" });
    const ir = buildIr(spec, "upstream", DEFAULT_NAMES);
    const emitted = await emitTypes(ir);
    const reference = astToString(await openapiTS(structuredClone(ir.document) as never, typesOptions(ir)));
    expect(emitted.length).toBeGreaterThan(reference.length / 2);
    expect(emitted.endsWith(reference.endsWith("\n") ? reference : `${reference}\n`)).toBe(true);
  });

  const pet = (mapping: Record<string, string>, extra: string) => `openapi: 3.0.3
info: { title: t, version: "1" }
paths:
  /pets:
    get:
      operationId: get_pet
      responses:
        "200":
          description: ok
          content: { application/json: { schema: { $ref: "#/components/schemas/Pet" } } }
components:
  schemas:
    Pet:
      type: object
      required: [kind]
      properties: { kind: { type: string } }
      discriminator: { propertyName: kind, mapping: ${JSON.stringify(mapping)} }
      oneOf: ${JSON.stringify(Object.values(mapping).map(($ref) => ({ $ref })))}
${extra}`;

  it.each([
    ["no components at all", `openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths:\n  /ping:\n    get:\n      operationId: ping\n      responses: { "204": { description: ok } }\n`],
    [
      "a mapping to a nested schema and to a name with a slash",
      pet({ cat: "#/components/schemas/a~1b", dog: "#/components/schemas/Holder/properties/dog" }, `    a/b: { type: object, required: [kind], properties: { kind: { type: string }, meow: { type: boolean } } }
    Holder:
      type: object
      properties: { dog: { type: object, required: [kind], properties: { kind: { type: string } } } }`),
    ],
    [
      "a mapping to names written with escapes",
      pet({ cat: "#/components/schemas/Big%20Cat", dog: "#/components/schemas/t~0x" }, `    Big Cat: { type: object, required: [kind], properties: { kind: { type: string } } }
    t~x: { type: object, required: [kind], properties: { kind: { type: string } } }`),
    ],
  ])("writes for a document with %s what openapiTS() writes", async (_name, text) => {
    const spec = await loadSpecText(text, "spec.yaml", { lint: "upstream" });
    const ir = buildIr(spec, "upstream", DEFAULT_NAMES);
    const reference = astToString(await openapiTS(structuredClone(ir.document) as never, typesOptions(ir)));
    expect((await emitTypes(ir)).endsWith(reference.endsWith("\n") ? reference : `${reference}\n`)).toBe(true);
  });
});
