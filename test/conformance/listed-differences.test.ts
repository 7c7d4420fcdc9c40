// The behaviour table of docs/compatibility.md: rows parse, patterns match steps and
// sweep operations by name and status, and the check reports both unlisted differences
// and rows that match nothing.
import { describe, expect, it } from "vitest";
import {
  judgeDifferences,
  loadListedDifferences,
  parseListedDifferences,
  type FoundDifference,
} from "./listed-differences.js";

const DOC = [
  "## Behaviour differences from the release",
  "",
  "| steps | real | mock | reason |",
  "| --- | --- | --- | --- |",
  "| `routes / wrong_method*` | 405 | 404 not_found | the mock routes by operation; no 405 without a path table |",
  "| `sweep / commit_handoff` | 403 forbidden | * | per-token permissions exist only on the mock |",
  "| `pages / list#*` (varies) | 200 | 200 | records ordered by random ids fall on other pages |",
  "",
  "## Next section",
  "| `not / a row` | 1 | 2 | outside the section |",
].join("\n");

const found = (name: string, real: number, mock: number): FoundDifference => ({ name, real, mock, text: "" });

describe("the behaviour differences table", () => {
  it("parses rows of its own section only", () => {
    expect(parseListedDifferences(DOC).map((r) => [r.pattern, r.real, r.line, r.varies])).toEqual([
      ["routes / wrong_method*", "405", 5, false],
      ["sweep / commit_handoff", "403 forbidden", 6, false],
      ["pages / list#*", "200", 7, true],
    ]);
  });

  it("refuses a row without a pattern in backquotes or a reason", () => {
    expect(() => parseListedDifferences(DOC.replace("`routes / wrong_method*`", "routes"))).toThrow(/line 5/);
    expect(() => parseListedDifferences(DOC.replace("per-token permissions exist only on the mock", ""))).toThrow(
      /line 6/,
    );
  });

  it("covers a difference by name pattern and statuses, and names what matches nothing", () => {
    const rows = parseListedDifferences(DOC);
    const verdict = judgeDifferences(
      [
        found("routes / wrong_method", 405, 404),
        found("routes / wrong_method_no_token", 401, 404),
        found("sweep / commit_handoff", 403, 200),
      ],
      rows,
    );
    expect(verdict.unlisted.map((f) => f.name)).toEqual(["routes / wrong_method_no_token"]);
    expect(verdict.unused).toEqual([]);
    // a row marked (varies) covers what it matches and is never reported unused
    expect(judgeDifferences([found("pages / list#2", 200, 200)], rows).unlisted).toEqual([]);
    expect(judgeDifferences([], rows).unused.map((r) => r.line)).toEqual([5, 6]);
  });

  it("reads the table in docs/compatibility.md", () => {
    expect(Array.isArray(loadListedDifferences())).toBe(true);
  });
});
