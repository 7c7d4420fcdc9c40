// The table every descriptor carries holds only the rows a retry decision can turn on.
import { describe, expect, it } from "vitest";
import { retryStopCodes } from "../../src/ir/error-codes.js";
import type { ErrorCodeIr } from "../../src/ir/model.js";

const row = (code: string, status: number, transient: boolean) =>
  ({ code, status, transient }) as unknown as ErrorCodeIr;

describe("retryStopCodes", () => {
  it("keeps the non-transient codes of re-sent statuses and leaves out 500, 501 and transient rows", () => {
    const rows = [
      row("inference_unavailable", 503, false),
      row("capacity_exceeded", 429, false),
      row("runtime_not_ready", 503, true),
      row("internal_error", 500, false),
      row("unsupported_capability", 501, false),
      row("bad_gateway_code", 502, false),
      row("not_found", 404, false),
    ];
    expect(retryStopCodes(rows).map((r) => r.code)).toEqual([
      "inference_unavailable",
      "capacity_exceeded",
      "bad_gateway_code",
    ]);
  });
});
