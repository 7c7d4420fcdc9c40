// A status that declares a text media type beside JSON resolves to either: the
// runtime reads each answer by its content type (get_handoff_report's 200 is
// JSON or Markdown).
import { describe, expectTypeOf, it } from "vitest";
import type { components } from "@powercontext/types";
import type { PowerContextClient } from "../../src/client.js";
import type { ResponseOf } from "../../src/generated/operations.js";

describe("text answers in the types", () => {
  it("get_handoff_report resolves to the report object or the Markdown string", () => {
    expectTypeOf<ResponseOf<"get_handoff_report">>().toEqualTypeOf<
      components["schemas"]["HandoffReportResponse"] | string
    >();
    expectTypeOf<Awaited<ReturnType<PowerContextClient["getHandoffReport"]>>>().toEqualTypeOf<
      components["schemas"]["HandoffReportResponse"] | string
    >();
  });

  it("an operation that declares JSON alone still resolves to its object", () => {
    expectTypeOf<ResponseOf<"get_liveness">>().not.toEqualTypeOf<string>();
    expectTypeOf<ResponseOf<"get_liveness">>().toEqualTypeOf<components["schemas"]["HealthResponse"]>();
  });
});
