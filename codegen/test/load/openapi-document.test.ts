import path from "node:path";
import { validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { loadSpec } from "../../src/index.js";
import { repoRoot } from "../helpers/paths.js";

const specPath = path.join(repoRoot, "openapi.yaml");

describe("openapi.yaml", () => {
  it("is a valid OpenAPI 3.0.3 document for an independent validator", async () => {
    const result = await validate(specPath);
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it("passes the generator's strict lint (operationId, one success status, envelope, retry class)", async () => {
    const spec = await loadSpec(specPath, { lint: "strict" });
    expect(spec.warnings).toEqual([]);
  });
});
