import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { generateFromText } from "../../src/pipeline.js";
import { scratchDir, OUTPUT_PATHS } from "../helpers/paths.js";
import { typecheck } from "../helpers/typecheck.js";

// Types and validators mean what the schema means: `nullable: true` beside a
// `$ref` is "the referenced schema or null" (ADR 0001), and a discriminator
// without `mapping` takes each variant's own enum as its value.
const spec = {
  openapi: "3.0.3",
  info: { title: "t", version: "1" },
  paths: {
    "/candidate": {
      get: {
        operationId: "get_candidate",
        responses: {
          "200": {
            description: "ok",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Candidate" } } },
          },
        },
      },
    },
    "/shape": {
      get: {
        operationId: "get_shape",
        responses: {
          "200": {
            description: "ok",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Shape" } } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Target: { type: "object", required: ["id"], properties: { id: { type: "string" } } },
      Candidate: {
        type: "object",
        required: ["target"],
        properties: { target: { $ref: "#/components/schemas/Target", nullable: true } },
      },
      Circle: {
        type: "object",
        required: ["kind", "r"],
        properties: { kind: { type: "string", enum: ["circle"] }, r: { type: "number" } },
      },
      Square: {
        type: "object",
        required: ["kind", "side"],
        properties: { kind: { type: "string", enum: ["square"] }, side: { type: "number" } },
      },
      Shape: {
        oneOf: [{ $ref: "#/components/schemas/Circle" }, { $ref: "#/components/schemas/Square" }],
        discriminator: { propertyName: "kind" },
      },
    },
  },
};

describe("schema meaning in types and validators", async () => {
  const generated = await generateFromText(JSON.stringify(spec), "spec.json", { lint: "upstream" });
  const dir = scratchDir("meaning");
  writeFileSync(path.join(dir, "validators.js"), generated.files.get(OUTPUT_PATHS.validatorsJs) as string);
  const validators = (await import(pathToFileURL(path.join(dir, "validators.js")).href)) as Record<
    string,
    (value: unknown) => boolean
  >;

  it("a nullable $ref accepts null and the referenced schema, nothing else", () => {
    const candidate = validators.response_Candidate!;
    expect(candidate({ target: null })).toBe(true);
    expect(candidate({ target: { id: "t1" } })).toBe(true);
    expect(candidate({ target: { nope: 1 } })).toBe(false);
    expect(candidate({ target: 5 })).toBe(false);
  });

  it("a discriminator without mapping accepts each variant by its own enum value", () => {
    const shape = validators.response_Shape!;
    expect(shape({ kind: "circle", r: 1 })).toBe(true);
    expect(shape({ kind: "square", side: 2 })).toBe(true);
    expect(shape({ kind: "square", r: 1 })).toBe(false);
    expect(shape({ kind: "Circle", r: 1 })).toBe(false);
  });

  it("the types say the same", { timeout: 120_000 }, () => {
    const assertions = `import type { components } from "@powercontext/types";
type S = components["schemas"];
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const check = <T extends true>(): T => undefined as never;
check<Equal<S["Candidate"]["target"], S["Target"] | null>>();
const circle: S["Shape"] = { kind: "circle", r: 1 };
const square: S["Shape"] = { kind: "square", side: 2 };
export { circle, square };
`;
    expect(typecheck(generated.files, { "assertions.ts": assertions }).errors).toEqual([]);
  });
});
