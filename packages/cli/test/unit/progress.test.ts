import { afterEach, describe, expect, it, vi } from "vitest";
import { Terminal } from "../../src/io.js";
import { createProgressReporter } from "../../src/progress.js";

function capture(isTTY: boolean) {
  const chunks: string[] = [];
  const terminal = new Terminal({ write: (chunk: string) => chunks.push(chunk), isTTY, columns: 120 }, ["s3cret"]);
  return { terminal, text: () => chunks.join("") };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("progress on a terminal", () => {
  it("rewrites one line in place with carriage returns and refreshes the elapsed time", () => {
    vi.useFakeTimers();
    let now = 1_000;
    const { terminal, text } = capture(true);
    const progress = createProgressReporter(terminal, { interactive: true, now: () => now, startedAt: 1_000 });
    progress.update({ operationId: "op_1", status: "queued", attemptCount: 0 });
    now = 3_500;
    vi.advanceTimersByTime(300);
    progress.update({ operationId: "op_1", status: "running", attemptCount: 1 });
    progress.stop();
    const output = text();
    expect(output).toContain("operation op_1: queued, attempt 0, elapsed 0ms");
    expect(output).toContain("operation op_1: queued, attempt 0, elapsed 2.5s");
    expect(output).toContain("operation op_1: running, attempt 1, elapsed 2.5s");
    expect(output).toContain("\r");
    expect(output).not.toContain("\n");
    // stop() leaves the cursor at the start of a cleared line.
    expect(output.endsWith("\r\x1b[0K")).toBe(true);
  });
});

describe("progress elsewhere", () => {
  it("writes a plain line only when the status or the attempt changes", () => {
    let now = 0;
    const { terminal, text } = capture(false);
    const progress = createProgressReporter(terminal, { interactive: false, now: () => now, startedAt: 0 });
    progress.phase("submitting flush for scope s1");
    progress.update({ operationId: "op_1", status: "queued", attemptCount: 0 });
    now = 400;
    progress.update({ operationId: "op_1", status: "queued", attemptCount: 0 });
    now = 1_200;
    progress.update({ operationId: "op_1", status: "running", attemptCount: 1 });
    progress.stop();
    expect(text()).toBe(
      [
        "progress: submitting flush for scope s1",
        "progress: operation op_1: queued, attempt 0, elapsed 0ms",
        "progress: operation op_1: running, attempt 1, elapsed 1.2s",
        "",
      ].join("\n"),
    );
  });
});

describe("Terminal", () => {
  it("never writes a configured secret", () => {
    const { terminal, text } = capture(false);
    terminal.line("token s3cret and Bearer s3cret");
    expect(text()).toBe("token [redacted] and Bearer [redacted]\n");
  });
});
