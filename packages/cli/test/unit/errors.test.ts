import {
  ConfigurationError,
  InvalidRequestError,
  InvalidResponseError,
  OperationCancelledError,
  OperationFailedError,
  OperationNotServedError,
  OperationPendingError,
  TimeoutError,
  TransportError,
  createServerResponseError,
  type ServerErrorInit,
} from "@powercontext/sdk";
import { describe, expect, it } from "vitest";
import { describeFailure, missingTokenHint, pendingLines } from "../../src/errors.js";
import { UsageError } from "../../src/usage-error.js";
import { ExitCode } from "../../src/exit-codes.js";

function serverError(overrides: Partial<ServerErrorInit>) {
  return createServerResponseError({
    statusCode: 409,
    code: "topic_memory_block_conflict",
    serverMessage: "The block is no longer current.",
    details: null,
    requestId: "req-7",
    retryAfterMs: null,
    ...overrides,
  });
}

describe("describeFailure", () => {
  it("says in words that the server has no such operation instead of a bare 404", () => {
    const error = new OperationNotServedError(
      {
        statusCode: 404,
        code: null,
        serverMessage: null,
        details: null,
        requestId: null,
        retryAfterMs: null,
        body: '{"detail":"Not Found"}',
      },
      "this server has no Operation API; it answers flush_memory synchronously",
    );
    expect(describeFailure(error)).toEqual({
      lines: ["error: 404: this server has no Operation API; it answers flush_memory synchronously"],
      exitCode: ExitCode.Failure,
    });
  });

  it("for a body that is not the error envelope, prints the reason phrase and never the body", () => {
    const token = "pc-secret-token-1234";
    const echoed = `<html><title>502 Bad Gateway</title>bad credentials: ${Buffer.from(`Bearer ${token}`).toString("base64")} ${token.toUpperCase()}</html>`;
    const proxy = describeFailure(
      serverError({ statusCode: 502, code: null, serverMessage: null, requestId: "req-3", body: echoed }),
    );
    expect(proxy.lines).toEqual([
      "error: 502 Bad Gateway (request id req-3): not a PowerContext error response (body not shown)",
    ]);
    expect(
      describeFailure(
        serverError({
          statusCode: 404,
          code: null,
          serverMessage: null,
          requestId: null,
          body: '{"detail":"Not Found"}',
        }),
      ).lines,
    ).toEqual(["error: 404 Not Found: not a PowerContext error response (body not shown)"]);
    expect(
      describeFailure(serverError({ statusCode: 599, code: null, serverMessage: null, requestId: null, body: null }))
        .lines,
    ).toEqual(["error: 599: not a PowerContext error response (body not shown)"]);
  });

  it("prints status, code, request id and message of a server error on one line, exit 1", () => {
    const report = describeFailure(serverError({}));
    expect(report).toEqual({
      lines: ["error: 409 topic_memory_block_conflict (request id req-7): The block is no longer current."],
      exitCode: ExitCode.Failure,
    });
  });

  it("cuts a very long request id or code to 128 characters, escaping after the cut", () => {
    const longId = `req-${"a".repeat(5000)}`;
    const line = describeFailure(serverError({ requestId: longId, code: `c${"\u001b".repeat(300)}` }))
      .lines[0] as string;
    expect(line).toContain(`(request id ${longId.slice(0, 128)}...)`);
    expect(line).not.toContain("a".repeat(200));
    // 127 ESC characters after the "c", each escaped whole (no escape cut in half).
    expect(line).toContain(` c${"\\x1b".repeat(127)}... (request id`);
    expect(line.length).toBeLessThan(2000);
    const invalid = describeFailure(
      new InvalidResponseError("response body is not valid JSON", {
        statusCode: 200,
        requestId: longId,
        issues: ["body is not valid JSON"],
      }),
    );
    expect(invalid.lines[0]).toBe(
      `error: invalid response from the server (status 200, request id ${longId.slice(0, 128)}...): body is not valid JSON`,
    );
  });

  it("cuts a 100 KB server message to 1,000 characters, as it cuts the request id", () => {
    const message = `${"x".repeat(50_000)} ${"y".repeat(50_000)}`;
    const line = describeFailure(serverError({ serverMessage: message })).lines[0] as string;
    expect(line).toBe(`error: 409 topic_memory_block_conflict (request id req-7): ${"x".repeat(1000)}...`);
    // Control characters are escaped after the cut, each one whole.
    const controls = describeFailure(serverError({ serverMessage: "\u001b".repeat(100_000) })).lines[0] as string;
    expect(controls).toBe(`error: 409 topic_memory_block_conflict (request id req-7): ${"\\x1b".repeat(1000)}...`);
    // A message of 1,000 characters is printed whole, and so is one of 1,000 emoji (2,000 UTF-16 units).
    expect(describeFailure(serverError({ serverMessage: "z".repeat(1000) })).lines[0]).toMatch(/z{1000}$/);
    expect(describeFailure(serverError({ serverMessage: "\u{1f600}".repeat(1000) })).lines[0]).toMatch(
      /(\u{1f600}){1000}$/u,
    );
  });

  it("cuts every other server-supplied text: an issue, a detail value, an operation's error classification", () => {
    const huge = "q".repeat(100_000);
    const invalid = describeFailure(
      new InvalidResponseError("bad", { statusCode: 200, requestId: null, issues: [huge] }),
    ).lines[0] as string;
    expect(invalid).toBe(`error: invalid response from the server (status 200): ${"q".repeat(1000)}...`);
    const conflict = describeFailure(
      serverError({ code: "version_conflict", serverMessage: "m", details: { current_status: huge } }),
    ).lines[0] as string;
    expect(conflict).toBe(`error: 409 version_conflict (request id req-7): m [current_status=${"q".repeat(128)}...]`);
    const failed = describeFailure(new OperationFailedError("op-1", { category: huge, code: "c" }, null))
      .lines[0] as string;
    expect(failed.length).toBeLessThan(300);
  });

  it("adds bounded details and keeps a multi-line server message on one line", () => {
    const report = describeFailure(
      serverError({
        code: "version_conflict",
        serverMessage: "expected version 1\nbut found 3",
        details: { current_version: 3, free_text: "ignored" },
      }),
    );
    expect(report.lines).toEqual([
      "error: 409 version_conflict (request id req-7): expected version 1 but found 3 [current_version=3]",
    ]);
  });

  it("leaves out what a non-envelope error response did not carry", () => {
    const report = describeFailure(serverError({ statusCode: 502, code: null, serverMessage: null, requestId: null }));
    expect(report.lines).toEqual(["error: 502 Bad Gateway: not a PowerContext error response (body not shown)"]);
    expect(report.exitCode).toBe(ExitCode.Failure);
  });

  it("names the operation holding a blocked window", () => {
    const report = describeFailure(
      serverError({ code: "operation_blocked", serverMessage: "held", details: { operation_id: "op_9" } }),
    );
    expect(report.lines[0]).toBe("error: 409 operation_blocked (request id req-7): held [operation_id=op_9]");
  });

  it("reports transport failures with the path, exit 1", () => {
    const cause = new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:9") });
    const report = describeFailure(
      new TransportError("request failed", { path: "/v1/operations", phase: "connect", cause }),
    );
    expect(report).toEqual({
      lines: ["error: cannot reach the server (/v1/operations): connect ECONNREFUSED 127.0.0.1:9"],
      exitCode: ExitCode.Failure,
    });
    const timeout = describeFailure(new TimeoutError({ path: "/v1/operations", timeoutMs: 10, limit: "attempt" }));
    expect(timeout.lines[0]).toMatch(/^error: no answer from the server in time \(\/v1\/operations\)/);
    expect(timeout.exitCode).toBe(ExitCode.Failure);
  });

  it("reports a contract-breaking response with its status and request id, exit 1", () => {
    const report = describeFailure(
      new InvalidResponseError("bad body", {
        statusCode: 200,
        requestId: "req-1",
        issues: ["/state: must be equal to one of the allowed values"],
      }),
    );
    expect(report.lines).toEqual([
      "error: invalid response from the server (status 200, request id req-1): /state: must be equal to one of the allowed values",
    ]);
    expect(report.exitCode).toBe(ExitCode.Failure);
  });

  it("treats what the operator typed wrong as usage, exit 2", () => {
    expect(describeFailure(new UsageError("bad value")).exitCode).toBe(ExitCode.Usage);
    expect(describeFailure(new ConfigurationError("base URL must not contain userinfo")).exitCode).toBe(ExitCode.Usage);
    expect(describeFailure(new ConfigurationError("baseUrl is not an absolute URL")).lines).toEqual([
      "error: baseUrl is not an absolute URL (check --server-url or POWERCONTEXT_CLIENT_SERVER_URL)",
    ]);
    expect(
      describeFailure(new ConfigurationError("timeoutMs must be a positive finite number of milliseconds")).lines[0],
    ).toContain("--timeout");
    const invalid = describeFailure(new InvalidRequestError("refused", ["/status: must be one of queued, running"]));
    expect(invalid).toEqual({
      lines: ["error: invalid request: /status: must be one of queued, running"],
      exitCode: ExitCode.Usage,
    });
  });

  it("maps operation outcomes: failed and cancelled exit 1, pending exit 3 with the resume command", () => {
    const failed = describeFailure(
      new OperationFailedError("op_1", { category: "storage", code: "storage_unavailable" }, null),
    );
    expect(failed).toEqual({
      lines: ["error: operation op_1 failed (storage/storage_unavailable)"],
      exitCode: ExitCode.Failure,
    });
    expect(describeFailure(new OperationCancelledError("op_2", null)).lines).toEqual([
      "error: operation op_2 was cancelled",
    ]);
    const pending = describeFailure(new OperationPendingError("op_3", null));
    expect(pending.exitCode).toBe(ExitCode.Pending);
    expect(pending.lines).toContain("resume with: powercontext-ts operations wait op_3");
  });

  it("prints one line for a defect and the stack only in debug mode", () => {
    const defect = new RangeError("boom");
    expect(describeFailure(defect)).toEqual({
      lines: ["error: unexpected RangeError: boom"],
      exitCode: ExitCode.Failure,
    });
    const debug = describeFailure(defect, true);
    expect(debug.lines).toHaveLength(2);
    expect(debug.lines[1]).toContain("RangeError: boom\n    at ");
  });
});

describe("missingTokenHint", () => {
  const unauthorized = serverError({
    statusCode: 401,
    code: "unauthorized",
    serverMessage: "missing or invalid token",
  });

  it("explains a 401 when no token was configured, naming only the variable", () => {
    expect(missingTokenHint(unauthorized, "unset")).toBe(
      "hint: POWERCONTEXT_CLIENT_API_TOKEN is not set, so the request carried no token",
    );
    expect(missingTokenHint(unauthorized, "blank")).toBe(
      "hint: POWERCONTEXT_CLIENT_API_TOKEN is blank, so the request carried no token",
    );
  });

  it("stays silent when a token was configured or the failure is not a 401", () => {
    expect(missingTokenHint(unauthorized, "set")).toBeNull();
    expect(missingTokenHint(serverError({ statusCode: 403, code: "forbidden" }), "unset")).toBeNull();
    expect(missingTokenHint(serverError({}), "unset")).toBeNull();
    expect(missingTokenHint(new UsageError("bad value"), "unset")).toBeNull();
  });
});

describe("pendingLines", () => {
  it("says what is pending, for how long, and how to resume", () => {
    expect(pendingLines("op_5", "running, attempt 2", "2s")).toEqual([
      "pending: operation op_5 is still running, attempt 2 after 2s",
      "resume with: powercontext-ts operations wait op_5",
    ]);
  });
});
