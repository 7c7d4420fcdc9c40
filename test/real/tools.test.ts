import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, suiteName } from "./tools.js";

describe("suiteName", () => {
  it("names a test file by its path from the repository root, with forward slashes", () => {
    const name = suiteName(import.meta.url);
    expect(name).toBe("test/real/tools.test.ts");
    expect(existsSync(join(repoRoot, name))).toBe(true);
  });

  it("names a file of another package the same way", () => {
    const url = new URL("../../codegen/test/cli/upstream.test.ts", import.meta.url).href;
    expect(suiteName(url)).toBe("codegen/test/cli/upstream.test.ts");
  });
});
