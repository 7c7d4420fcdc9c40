import { describe, expect, it } from "vitest";
import * as runtime from "@powercontext/runtime";
import { RUNTIME_ERROR_CLASSES } from "../../src/ir/runtime-names.js";

describe("the runtime's error classes the generator keeps free", () => {
  it("are exactly the error classes @powercontext/runtime exports", () => {
    const exported = Object.entries(runtime)
      .filter(
        ([, value]) => typeof value === "function" && (value as { prototype?: unknown }).prototype instanceof Error,
      )
      .map(([name]) => name)
      .sort();
    expect([...RUNTIME_ERROR_CLASSES].sort()).toEqual(exported);
  });
});
