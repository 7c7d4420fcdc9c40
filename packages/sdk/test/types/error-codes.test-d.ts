// The types of the generated error-code table (docs/adr/0014): hasErrorCode
// narrows `details` to the code's declared members, and each operation's
// declared codes are a union with one status per code.
import { describe, expectTypeOf, it } from "vitest";
import {
  hasErrorCode,
  type DeclaredErrorCodes,
  type DeclaredErrorOf,
  type ErrorDetails,
} from "../../src/generated/error-codes.js";
import { isErrorOf } from "../../src/operation-errors.js";

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
    expectTypeOf<DeclaredErrorOf<"get_default_scope">["code"]>().toEqualTypeOf<
      "scope_not_found" | "scope_binding_target_missing"
    >();
    expectTypeOf<
      Extract<DeclaredErrorOf<"get_default_scope">, { code: "scope_binding_target_missing" }>["statusCode"]
    >().toEqualTypeOf<409>();
  });
});

describe("any code, and one operation's errors", () => {
  it("hasErrorCode takes a code the spec does not know, with details of unknown shape", () => {
    const error: unknown = null;
    if (hasErrorCode(error, "source_conflict_from_a_newer_server")) {
      expectTypeOf(error.code).toEqualTypeOf<"source_conflict_from_a_newer_server">();
      expectTypeOf(error.details).toEqualTypeOf<unknown>();
    }
    const code: string = "x";
    if (hasErrorCode(error, code)) expectTypeOf(error.code).toEqualTypeOf<string>();
  });

  it("isErrorOf narrows to the declared statuses, and a declared code types its details", () => {
    const error: unknown = null;
    if (isErrorOf("cancel_operation", error)) {
      expectTypeOf(error.statusCode).toEqualTypeOf<401 | 403 | 404 | 409 | 422 | 500 | 503>();
      // The status first: a status whose codes the spec does not list may carry any code.
      if (error.statusCode === 409 && error.code === "version_conflict") {
        expectTypeOf(error.details).toEqualTypeOf<ErrorDetails["version_conflict"] | null>();
        expectTypeOf(error.details?.current_version).toEqualTypeOf<number | undefined>();
      }
      if (error.statusCode === 409)
        expectTypeOf(error.code).toEqualTypeOf<"version_conflict" | "invalid_operation_transition" | null>();
      if (error.statusCode === 422) expectTypeOf(error.code).toEqualTypeOf<string | null>();
      if (error.statusCode === 404) expectTypeOf(error.code).toEqualTypeOf<"operation_not_found" | null>();
    }
  });
});
