import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { describe, expect, it } from "vitest";
import { emitTypes, typesOptions } from "../src/emit/types.js";
import { buildIr } from "../src/ir/build-ir.js";
import { DEFAULT_NAMES } from "../src/ir/names.js";
import { loadSpec } from "../src/load/load-spec.js";
import { fixturesDir, repoRoot } from "./helpers/paths.js";

// The types emitter calls openapi-typescript's transform directly, skipping the
// Redocly parse, lint and bundle of `openapiTS()`. That is only right while the
// two give the same declarations: this compares them on specs that exercise
// discriminators, readOnly/writeOnly, nullable references, header and cookie
// parameters and every media kind. An upgrade of openapi-typescript that adds a
// context field with a default other than "off" fails here.
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
});
