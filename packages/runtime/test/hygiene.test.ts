// The runtime knows no PowerContext contract: every wire name it reads comes
// from a descriptor the generator wrote from openapi.yaml. This test takes the
// contract's own names from openapi.yaml (snake_case member names and enum
// values, the states of the Operation resource, the vendor extension prefix) and
// searches the runtime's sources (comments left out) for them
// (test/support/wire-names.ts). The house's rules, import cycles included, are
// checked for every package by test/structure/house.test.ts. The contract
// error classes and their code table are generated (docs/adr/0014), so no file
// is let through.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { contractNames, wireNamesIn } from "../../../test/support/wire-names.js";

const root = fileURLToPath(new URL("../../..", import.meta.url));

describe("the hand-written runtime", () => {
  it("contains no PowerContext wire name", () => {
    const names = contractNames(path.join(root, "openapi.yaml"));
    expect(names.has("expected_version")).toBe(true); // the search really reads the contract
    expect(wireNamesIn(path.join(root, "packages/runtime/src"), names)).toEqual([]);
  });
});
