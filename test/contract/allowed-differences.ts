// The "Wire differences from the release" table of docs/compatibility.md, as data.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../real/tools.js";
import { tableRows, type TableRow } from "../support/markdown-table.js";
import type { Change } from "./wire-diff.js";

export const compatibilityPath = join(repoRoot, "docs", "compatibility.md");
export const HEADING = "## Wire differences from the release";
/** The kinds a reason may start with (docs/compatibility.md explains each). */
export const REASON_KINDS = ["seed 002:", "correction:", "tightening:", "release model:"] as const;

export interface AllowedDifference {
  readonly pointer: string;
  readonly change: Change;
  readonly reason: string;
  /** 1-based line in docs/compatibility.md, for messages */
  readonly line: number;
}

/**
 * Rows of the table under {@link HEADING}: `| \`pointer\` | change | reason |`.
 *
 * @throws {Error} when the heading is missing or a row is malformed (names the line)
 */
export function parseAllowedDifferences(markdown: string): AllowedDifference[] {
  let rows: TableRow[];
  try {
    rows = tableRows(markdown, HEADING, "pointer");
  } catch {
    throw new Error(`docs/compatibility.md has no "${HEADING}" section`);
  }
  return rows.map(({ cells, line }) => {
    const [pointerCell, change, ...reason] = cells;
    const pointer = /^`(\/[^`]*)`$/.exec(pointerCell ?? "")?.[1];
    if (pointer === undefined || !["added", "removed", "changed"].includes(change ?? "")) {
      throw new Error(
        `docs/compatibility.md line ${line}: expected | \`/json/pointer\` | added, removed or changed | reason |`,
      );
    }
    return { pointer, change: change as Change, reason: reason.join("|").trim(), line };
  });
}

export function loadAllowedDifferences(): AllowedDifference[] {
  return parseAllowedDifferences(readFileSync(compatibilityPath, "utf8"));
}
