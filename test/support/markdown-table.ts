// The rows of the table under one heading of a Markdown document, as trimmed cells,
// with the header and separator rows left out. docs/compatibility.md keeps its lists of
// deliberate differences this way.

/** One table row: its cells and its 1-based line. */
export interface TableRow {
  readonly cells: readonly string[];
  readonly line: number;
}

/**
 * Every row of the tables between `heading` and the next `## ` heading.
 *
 * @throws {Error} when the heading is missing
 */
export function tableRows(markdown: string, heading: string, firstHeaderCell: string): TableRow[] {
  const lines = markdown.split("\n");
  const start = lines.findIndex((l) => l.trim() === heading);
  if (start < 0) throw new Error(`no "${heading}" section`);
  const rows: TableRow[] = [];
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line.startsWith("## ")) break;
    if (!line.trimStart().startsWith("|")) continue;
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim());
    if (cells[0] === firstHeaderCell || /^:?-+:?$/.test(cells[0] ?? "")) continue;
    rows.push({ cells, line: i + 1 });
  }
  return rows;
}
