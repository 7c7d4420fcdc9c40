// The "Wire differences from the release" table of docs/compatibility.md, as data.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../real/tools.js";
import type { Change } from "./wire-diff.js";

export const compatibilityPath = join(repoRoot, "docs", "compatibility.md");
export const HEADING = "## Wire differences from the release";
/** The kinds a reason may start with (docs/compatibility.md explains each). */
export const REASON_KINDS = ["seed 002:", "correction:", "tightening:"] as const;

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
  const lines = markdown.split("\n");
  const start = lines.findIndex((l) => l.trim() === HEADING);
  if (start < 0) throw new Error(`docs/compatibility.md has no "${HEADING}" section`);
  const rows: AllowedDifference[] = [];
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line.startsWith("## ")) break;
    if (!line.trimStart().startsWith("|")) continue;
    const cells = line.split("|").slice(1, -1).map((c) => c.trim());
    if (cells[0] === "pointer" || /^-+$/.test(cells[0] ?? "")) continue;
    const [pointerCell, change, ...reason] = cells;
    const pointer = /^`(\/[^`]*)`$/.exec(pointerCell ?? "")?.[1];
    if (pointer === undefined || !["added", "removed", "changed"].includes(change ?? "")) {
      throw new Error(`docs/compatibility.md line ${i + 1}: expected | \`/json/pointer\` | added, removed or changed | reason |`);
    }
    rows.push({ pointer, change: change as Change, reason: reason.join("|").trim(), line: i + 1 });
  }
  return rows;
}

export function loadAllowedDifferences(): AllowedDifference[] {
  return parseAllowedDifferences(readFileSync(compatibilityPath, "utf8"));
}
