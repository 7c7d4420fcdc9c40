import { describe, expect, it } from "vitest";
import { operationsById } from "../../src/core/operation-table.js";
import { validatorsByOperation } from "../../src/core/validator-table.js";
import type { OperationValidators } from "../../src/descriptor.js";
import { descriptor } from "../helpers/descriptors.js";

describe("operationsById", () => {
  it("keys each row by its operationId, in the order an object literal of the same rows holds them", () => {
    const [zeta, seven, alpha] = ["zeta", "7", "alpha"].map((operationId) => descriptor({ operationId }));
    const table = operationsById([zeta, seven, alpha]);
    const literal = { zeta, "7": seven, alpha };
    expect(Object.keys(table)).toEqual(Object.keys(literal));
    expect(Object.keys(table)).toEqual(["7", "zeta", "alpha"]);
    expect(table.zeta).toBe(zeta);
    expect(table["7"]).toBe(seven);
    // The validator list the generator writes in the table's key order pairs up with it.
    const validators = (tag: string): OperationValidators => ({
      responses: { 200: Object.assign(() => tag === "", { errors: null }) },
    });
    const [v7, vz, va] = [validators("7"), validators("zeta"), validators("alpha")];
    expect(validatorsByOperation(table, [v7, vz, va])).toEqual({ "7": v7, zeta: vz, alpha: va });
  });

  it("holds ids an object inherits as its own members", () => {
    const constructorRow = descriptor({ operationId: "constructor" });
    const table = operationsById([constructorRow]);
    expect(Object.hasOwn(table, "constructor")).toBe(true);
    expect(table.constructor).toBe(constructorRow);
    expect(Object.hasOwn(table, "toString")).toBe(false);
    const protoRow = descriptor({ operationId: "__proto__" });
    const withProto = operationsById([protoRow]);
    expect(Object.getPrototypeOf(withProto)).toBe(Object.prototype);
    expect(Object.keys(withProto)).toEqual(["__proto__"]);
  });

  it("refuses two rows of one operation", () => {
    const rows = [descriptor({ operationId: "a" }), descriptor({ operationId: "b" }), descriptor({ operationId: "a" })];
    expect(() => operationsById(rows)).toThrow("two operation rows for a: regenerate the client");
  });
});
