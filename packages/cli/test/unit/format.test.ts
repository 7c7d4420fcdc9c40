import { describe, expect, it } from "vitest";
import { renderRows, renderTable } from "../../src/format/layout.js";
import { formatOperation, formatOperationTable } from "../../src/format/operation.js";
import { formatProcessingBlock, formatProcessingStatus, formatRetryReceipt } from "../../src/format/processing.js";
import type { Operation, ProcessingBlock, ProcessingStatus } from "../../src/wire.js";

const block: ProcessingBlock = {
  block_id: "blk_1",
  scope_id: "scope-a",
  binding_name: "topic-memory-source-window",
  source_after: 4,
  attempt_id: "att_3",
  source_through: null,
  budget_source_through: 6,
  legacy_source_through: null,
  target_source_through: 7,
  attempts: 3,
  requests: 9,
  tokens: 60000,
  error_code: "window_attempt_limit",
  last_error_code: "model_timeout",
  blocked_at: "2026-01-01T00:00:01.000Z",
  retried_at: null,
  retry_request_generation: null,
};

const status: ProcessingStatus = {
  state: "blocked",
  source_cursor: 4,
  source_head: 9,
  target_source_through: 7,
  block,
};

/** Labels are padded and followed by at least two blanks, so "Memory" does not match "Memory cursor". */
function rowValue(lines: readonly string[], label: string): string {
  const line = lines.find((candidate) => candidate.trimStart().startsWith(`${label}  `));
  if (line === undefined) throw new Error(`no row ${label}`);
  return (
    line
      .trimStart()
      .slice(label.length)
      .trim()
      .split(/\s{2,}/)[0] ?? ""
  );
}

/** Index where the value starts: the first non-blank after the first double blank following the label. */
function valueColumn(line: string): number {
  const gap = line.indexOf("  ", line.search(/\S/));
  return gap + line.slice(gap).search(/\S/);
}

describe("formatProcessingStatus", () => {
  it("shows Topic cursor, Source head, target and state, then the block with its three source_through fields apart", () => {
    const lines = formatProcessingStatus(status, "scope-a");
    expect(rowValue(lines, "State")).toBe("blocked");
    expect(rowValue(lines, "Topic cursor")).toBe("4");
    expect(lines.find((line) => line.startsWith("Topic cursor"))).toContain("source_cursor:");
    expect(rowValue(lines, "Source head")).toBe("9");
    expect(rowValue(lines, "Target")).toBe("7");
    expect(rowValue(lines, "source_through")).toBe("null");
    expect(rowValue(lines, "budget_source_through")).toBe("6");
    expect(rowValue(lines, "legacy_source_through")).toBe("null");
    expect(rowValue(lines, "target_source_through")).toBe("7");
    expect(rowValue(lines, "Retried at")).toBe("null");
    expect(lines.at(-1)).toBe("Retry with: powercontext-ts topic-memory retry --scope-id scope-a blk_1");
  });

  it("aligns every value in one column", () => {
    const lines = formatProcessingStatus(status, "scope-a").filter(
      (line) => line !== "" && !line.startsWith("Retry with"),
    );
    const valueColumns = new Set(lines.map(valueColumn));
    expect(valueColumns.size).toBe(1);
  });

  it("labels the block's source_after as the Topic cursor, indented under the block", () => {
    const lines = formatProcessingStatus({ ...status, source_cursor: 5 }, "scope-a");
    expect(lines.filter((line) => line.startsWith("Topic cursor"))).toHaveLength(1);
    expect(rowValue(lines, "Topic cursor")).toBe("5");
    const blockLine = lines.find((line) => line.startsWith("  Topic cursor"));
    expect(blockLine).toMatch(/^ {2}Topic cursor\s+4\s+source_after: /);
    expect(lines.some((line) => /^\s*Cursor\b/.test(line))).toBe(false);
  });

  it("omits the block section and the retry hint when the state is not blocked", () => {
    const lines = formatProcessingStatus(
      { ...status, state: "idle", target_source_through: null, block: null },
      "scope-a",
    );
    expect(rowValue(lines, "Target")).toBe("null");
    expect(lines.some((line) => line.includes("Block"))).toBe(false);
    expect(lines.some((line) => line.includes("Retry with"))).toBe(false);
  });
});

describe("formatProcessingBlock", () => {
  it("shows source_after as the Topic cursor, never as a bare Cursor", () => {
    const lines = formatProcessingBlock({ ...block, source_after: 11 });
    expect(rowValue(lines, "Topic cursor")).toBe("11");
    expect(lines.some((line) => /^\s*Cursor\b/.test(line))).toBe(false);
  });
});

describe("formatRetryReceipt", () => {
  const accepted = {
    status: "accepted" as const,
    block: { ...block, retried_at: "2026-01-01T00:01:00.000Z", retry_request_generation: 2 },
  };

  it("says a replay returned the earlier acceptance", () => {
    const lines = formatRetryReceipt(accepted, "replayed");
    expect(lines[0]).toBe("Retry already accepted earlier (replayed receipt); no new budget was granted.");
    expect(rowValue(lines, "Retried at")).toBe("2026-01-01T00:01:00.000Z");
    expect(rowValue(lines, "Retry generation")).toBe("2");
    expect(rowValue(lines, "Status")).toBe("accepted");
  });

  it("says a first acceptance happened without claiming more than it knows", () => {
    expect(formatRetryReceipt(accepted, "accepted")[0]).toBe(
      "Retry accepted (receipt below); the block had no receipt before this call.",
    );
  });
});

const operation: Operation = {
  operation_id: "op_1",
  kind: "memory_flush",
  scope_id: "scope-a",
  status: "failed",
  version: 3,
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:02.000Z",
  started_at: "2026-01-01T00:00:01.000Z",
  finished_at: "2026-01-01T00:00:02.000Z",
  attempt_count: 1,
  error: { category: "storage", code: "storage_unavailable" },
  result: null,
};

describe("operation layouts", () => {
  it("shows one Operation with its version, error class and a null result", () => {
    const lines = formatOperation(operation);
    expect(rowValue(lines, "Version")).toBe("3");
    expect(rowValue(lines, "Error")).toBe("storage/storage_unavailable");
    expect(rowValue(lines, "Result")).toBe("null");
  });

  it.each([
    ["queued", "pass as --expected-version to cancel while it is still queued"],
    ["failed", "pass as --expected-version to cancel or retry"],
  ] as const)("says what the version of a %s Operation is good for", (status, note) => {
    const line = formatOperation({ ...operation, status }).find((l) => l.trimStart().startsWith("Version"));
    expect(line).toMatch(new RegExp(`${note}$`));
  });

  it.each(["running", "succeeded", "cancelled"] as const)("gives no version hint for a %s Operation", (status) => {
    const line = formatOperation({ ...operation, status }).find((l) => l.trimStart().startsWith("Version"));
    expect(line).toMatch(/^\s*Version\s+3\s*$/);
  });

  it("shows the flush result of a succeeded Operation", () => {
    const lines = formatOperation({
      ...operation,
      status: "succeeded",
      error: null,
      result: {
        status: "processed",
        previous_cursor: 0,
        current_cursor: 3,
        high_watermark: 3,
        processed_source_count: 3,
        memory: { family: "memory", artifact_id: "mem_1", revision: 2 },
      },
    });
    expect(rowValue(lines, "Memory cursor")).toBe("0 -> 3");
    expect(lines.find((line) => line.trimStart().startsWith("Memory cursor"))).toMatch(
      /previous_cursor -> current_cursor$/,
    );
    expect(rowValue(lines, "Memory")).toBe("memory/mem_1@2");
    expect(lines.some((line) => /^\s*(Cursor|Topic cursor)\b/.test(line))).toBe(false);
  });

  it("tabulates a listing and counts it", () => {
    const lines = formatOperationTable([
      operation,
      { ...operation, operation_id: "op_22", status: "succeeded", error: null },
    ]);
    expect(lines[0]).toMatch(/^OPERATION\s+KIND\s+STATUS\s+VERSION\s+ATTEMPTS\s+UPDATED\s+ERROR$/);
    expect(lines[1]?.indexOf("memory_flush")).toBe(lines[2]?.indexOf("memory_flush"));
    expect(lines[2]).toMatch(/op_22 .* succeeded .* -$/);
    expect(lines.at(-1)).toBe("2 operations");
    expect(formatOperationTable([])).toEqual(["No operations found."]);
  });
});

describe("layout primitives", () => {
  it("pads labels and values, trims trailing blanks", () => {
    expect(
      renderRows([
        { label: "A", value: "1", note: "n" },
        { label: "Long", value: "22" },
      ]),
    ).toEqual(["A     1  n", "Long  22"]);
    expect(renderTable(["X", "YY"], [["long", "1"]])).toEqual(["X     YY", "long  1"]);
  });
});
