// The types of the generated error-code table (docs/adr/0014): hasErrorCode
// narrows `details` to the code's declared members, and each operation's
// declared codes are a union with one status per code.
import { describe, expectTypeOf, it } from "vitest";
import { hasErrorCode, type DeclaredErrorCodes, type DeclaredErrorOf, type ErrorDetails } from "../../src/generated/error-codes.js";

describe("details typed per code", () => {
  it("hasErrorCode narrows details to the code's members", () => {
    const error: unknown = null;
    if (hasErrorCode(error, "generation_unavailable")) {
      expectTypeOf(error.details).toEqualTypeOf<ErrorDetails["generation_unavailable"] | null>();
      expectTypeOf(error.details?.family).toEqualTypeOf<string | undefined>();
      expectTypeOf(error.statusCode).toEqualTypeOf<number>();
    }
  });

  it("each operation's declared codes are a type, one error per code with its status", () => {
    expectTypeOf<DeclaredErrorCodes["get_default_scope"][404]>().toEqualTypeOf<"scope_not_found">();
    expectTypeOf<DeclaredErrorOf<"get_default_scope">["code"]>().toEqualTypeOf<"scope_not_found" | "scope_binding_target_missing">();
    expectTypeOf<Extract<DeclaredErrorOf<"get_default_scope">, { code: "scope_binding_target_missing" }>["statusCode"]>().toEqualTypeOf<409>();
  });
});
