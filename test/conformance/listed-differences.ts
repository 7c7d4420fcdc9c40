// The "Behaviour differences from the release" table of docs/compatibility.md, as data,
// and the check that it lists exactly the differences a conformance run found.
import { readFileSync } from "node:fs";
import { compatibilityPath } from "../contract/allowed-differences.js";
import { tableRows } from "../support/markdown-table.js";
import type { StepComparison } from "./compare.js";
import type { SweepResult } from "./sweep.js";

export const BEHAVIOUR_HEADING = "## Behaviour differences from the release";

/** One row: which steps it covers, what each side answers there, and why. */
export interface ListedDifference {
  /** `scenario / step` or `sweep / operation`; `*` matches any run of characters */
  readonly pattern: string;
  /** the real server's status there (`*` for any) */
  readonly real: string;
  readonly mock: string;
  readonly reason: string;
  readonly line: number;
  /**
   * Marked `(varies)` after the pattern: the difference depends on the release's random
   * ids (records of a list ordered by id fall on other pages), so a run may not find it
   * and the row is not reported unused then.
   */
  readonly varies: boolean;
}

function glob(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*")}$`,
  );
}

/**
 * Rows of the table: `| \`pattern\` | real status | mock status | reason |`, the
 * pattern optionally followed by `(varies)`.
 *
 * @throws {Error} when the heading is missing or a row is malformed (names the line)
 */
export function parseListedDifferences(markdown: string): ListedDifference[] {
  return tableRows(markdown, BEHAVIOUR_HEADING, "steps").map(({ cells, line }) => {
    const [patternCell, real, mock, ...reason] = cells;
    const cell = /^`([^`]+ \/ [^`]+)`( \(varies\))?$/.exec(patternCell ?? "");
    const pattern = cell?.[1];
    const status = /^(\d{3}\b|\*)/;
    if (
      pattern === undefined ||
      !status.test(real ?? "") ||
      !status.test(mock ?? "") ||
      reason.join("").trim().length < 10
    ) {
      throw new Error(
        `docs/compatibility.md line ${line}: expected | \`scenario / step\` | real status | mock status | reason |`,
      );
    }
    return {
      pattern,
      real: real!,
      mock: mock!,
      reason: reason.join("|").trim(),
      line,
      varies: cell?.[2] !== undefined,
    };
  });
}

export function loadListedDifferences(): ListedDifference[] {
  return parseListedDifferences(readFileSync(compatibilityPath, "utf8"));
}

/** A difference the run found, by the name a row's pattern matches. */
export interface FoundDifference {
  readonly name: string;
  readonly real: number | null;
  readonly mock: number | null;
  readonly text: string;
}

/** Every difference of a run, scenario steps and sweep alike. */
export function foundDifferences(rows: readonly StepComparison[], sweep: readonly SweepResult[]): FoundDifference[] {
  return [
    ...rows
      .filter((r) => r.details.length > 0)
      .map((r) => ({
        name: `${r.scenario} / ${r.step}`,
        real: r.real.status,
        mock: r.mock.status,
        text: r.details.join("; "),
      })),
    ...sweep
      .filter((s) => !s.agree)
      .map((s) => ({
        name: `sweep / ${s.operation}`,
        real: s.real.status,
        mock: s.mock.status,
        text: `real ${s.real.status}, mock ${s.mock.status}`,
      })),
  ];
}

function covers(row: ListedDifference, found: FoundDifference): boolean {
  const statusMatches = (cell: string, status: number | null) =>
    cell.startsWith("*") || cell.startsWith(String(status));
  return (
    glob(row.pattern).test(found.name) && statusMatches(row.real, found.real) && statusMatches(row.mock, found.mock)
  );
}

/** Differences no row covers, and rows that cover no difference. */
export function judgeDifferences(
  found: readonly FoundDifference[],
  listed: readonly ListedDifference[],
): { unlisted: FoundDifference[]; unused: ListedDifference[] } {
  return {
    unlisted: found.filter((f) => !listed.some((row) => covers(row, f))),
    unused: listed.filter((row) => !row.varies && !found.some((f) => covers(row, f))),
  };
}
