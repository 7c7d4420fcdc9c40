// The generated validatorMap pairs every operation with its own validators: the
// generated list follows the operation table's key order (validatorsByOperation).
import { describe, expect, it } from "vitest";
import { operations } from "../src/generated/operations.js";
import * as generated from "../src/generated/validator-map.js";

describe("validatorMap", () => {
  it("holds, for every operation of the table, the validators exported under its method's name", () => {
    const ids = Object.keys(operations);
    expect(Object.keys(generated.validatorMap)).toEqual(ids);
    for (const id of ids) {
      const method = id.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
      expect(generated.validatorMap[id as keyof typeof generated.validatorMap], id).toBe(
        (generated as Record<string, unknown>)[`${method}Validators`],
      );
    }
  });
});
