// isErrorOf looks the operation up among the table's own members, and decides on the
// error's own data, not on a prototype that anything can borrow.
import { describe, expect, it } from "vitest";
import { ConflictError, ServerResponseError } from "@powercontext/runtime";
import { hasErrorCode } from "../../src/generated/error-codes.js";
import { isErrorOf } from "../../src/operation-errors.js";

const conflict = () =>
  new ConflictError({
    statusCode: 409,
    code: "version_conflict",
    serverMessage: "stale",
    details: { current_version: 4 },
    requestId: "req-1",
    retryAfterMs: null,
  });

describe("isErrorOf", () => {
  it("recognises a declared error of a real operation", () => {
    expect(isErrorOf("cancel_operation", conflict())).toBe(true);
  });

  it.each(["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", "then"])(
    "answers false, without throwing, for the id %j",
    (id) => {
      expect(() => isErrorOf(id as "cancel_operation", conflict())).not.toThrow();
      expect(isErrorOf(id as "cancel_operation", conflict())).toBe(false);
    },
  );

  it("answers false for an object that only borrows the prototype", () => {
    const forged = Object.create(ServerResponseError.prototype) as ServerResponseError;
    expect(forged instanceof ServerResponseError).toBe(true);
    expect(isErrorOf("cancel_operation", forged)).toBe(false);
    const inherited = Object.create(
      Object.assign(Object.create(ConflictError.prototype), { statusCode: 409, code: null }),
    );
    expect(isErrorOf("cancel_operation", inherited)).toBe(false);
  });

  it("answers false, without throwing, for a proxy whose traps throw", () => {
    const hostile = new Proxy(Object.create(ConflictError.prototype) as object, {
      get: () => {
        throw new Error("trap");
      },
      getOwnPropertyDescriptor: () => {
        throw new Error("trap");
      },
    });
    expect(isErrorOf("cancel_operation", hostile)).toBe(false);
    expect(hasErrorCode(hostile, "version_conflict")).toBe(false);
  });

  it("answers on a real error's own data, without throwing, when a proxy around it throws on reading its members", () => {
    const wrapped = new Proxy(conflict(), {
      get: (target, key) => {
        if (key === "statusCode" || key === "code") throw new Error("trap");
        return Reflect.get(target, key);
      },
    });
    expect(isErrorOf("cancel_operation", wrapped)).toBe(true);
    expect(hasErrorCode(wrapped, "version_conflict")).toBe(true);
  });
});

describe("hasErrorCode", () => {
  it("decides on the error's own data too: an object borrowing a real error's prototype or data is no error", () => {
    expect(hasErrorCode(conflict(), "version_conflict")).toBe(true);
    const inherited = Object.create(conflict()) as unknown;
    expect(hasErrorCode(inherited, "version_conflict")).toBe(false);
    const borrowed = Object.create(
      Object.assign(Object.create(ConflictError.prototype), { statusCode: 409, code: "version_conflict" }),
    ) as unknown;
    expect(hasErrorCode(borrowed, "version_conflict")).toBe(false);
    const getters = Object.defineProperties(Object.create(ConflictError.prototype), {
      statusCode: { get: () => 409 },
      code: { get: () => "version_conflict" },
    }) as unknown;
    expect(hasErrorCode(getters, "version_conflict")).toBe(false);
  });
});
