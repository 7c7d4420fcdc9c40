import { describe, expect, it } from "vitest";
import { validatorsByOperation } from "../../src/core/validator-table.js";
import type { OperationTable, OperationValidators } from "../../src/descriptor.js";
import { descriptor } from "../helpers/descriptors.js";

const validators = (tag: string): OperationValidators => ({
  responses: { 200: Object.assign(() => tag === "", { errors: null }) },
});

describe("validatorsByOperation", () => {
  it("pairs the list with the table's keys in the order a JavaScript object holds them (integer-like ids first)", () => {
    // Written in this order; an object lists the integer-like key "7" first.
    const table: OperationTable = {
      zeta: descriptor({ operationId: "zeta" }),
      "7": descriptor({ operationId: "7" }),
      alpha: descriptor({ operationId: "alpha" }),
    };
    const [seven, zeta, alpha] = [validators("7"), validators("zeta"), validators("alpha")];
    const map = validatorsByOperation(table, [seven, zeta, alpha]);
    expect(map).toEqual({ "7": seven, zeta, alpha });
    expect(map.zeta).toBe(zeta);
  });

  it("refuses a list that does not fit the table", () => {
    const table: OperationTable = { a: descriptor({ operationId: "a" }), b: descriptor({ operationId: "b" }) };
    expect(() => validatorsByOperation(table, [validators("a")])).toThrow(
      "1 operations' validators for a table of 2: regenerate the client",
    );
  });
});
