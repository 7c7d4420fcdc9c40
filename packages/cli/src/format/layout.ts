/**
 * Aligned "label  value  note" blocks for human output.
 *
 * ```
 * State                   blocked
 * Topic cursor            120      source_after
 *   source_through        null     exact end selected by the last attempt
 * ```
 *
 * Labels are padded to the widest label of the block, values to the widest
 * value, so columns line up whatever the data. Nothing here knows the wire.
 */

/** One line of a block. */
export interface Row {
  /** Left column. */
  readonly label: string;
  /** Middle column, already rendered (see {@link show}). */
  readonly value: string;
  /** Optional explanation in the right column. */
  readonly note?: string;
  /** Nesting level; each level indents the label by two spaces. Default 0. */
  readonly depth?: number;
}

/** Text shown for a JSON `null`, so that "no value" is never mistaken for 0 or an empty string. */
export const NULL_TEXT = "null";

/**
 * Renders a wire scalar for a human column: `null` stays `null`, numbers and
 * strings print as they are, booleans as `true`/`false`.
 */
export function show(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) {
    return NULL_TEXT;
  }
  return String(value);
}

/** Length of `text` as displayed (ANSI colour sequences take no room). */
function visibleLength(text: string): number {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;]*m/g, "").length;
}

function padEnd(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - visibleLength(text)));
}

/**
 * Lays out rows in aligned columns, separated by two spaces. Trailing blanks
 * are trimmed, so a row without a note ends at its value.
 *
 * @param rows the rows, in display order.
 * @returns one string per row, without newlines.
 */
export function renderRows(rows: readonly Row[]): string[] {
  const labels = rows.map((row) => "  ".repeat(row.depth ?? 0) + row.label);
  const labelWidth = Math.max(0, ...labels.map(visibleLength));
  const valueWidth = Math.max(0, ...rows.filter((row) => row.note).map((row) => visibleLength(row.value)));
  return rows.map((row, index) => {
    const label = padEnd(labels[index] ?? "", labelWidth);
    const line = row.note ? `${label}  ${padEnd(row.value, valueWidth)}  ${row.note}` : `${label}  ${row.value}`;
    return line.trimEnd();
  });
}

/**
 * Lays out a table with a header row: every column as wide as its widest cell.
 *
 * @param header column titles.
 * @param body one array of cells per row, in the same column order.
 */
export function renderTable(header: readonly string[], body: readonly (readonly string[])[]): string[] {
  const widths = header.map((title, column) =>
    Math.max(visibleLength(title), ...body.map((cells) => visibleLength(cells[column] ?? ""))),
  );
  const render = (cells: readonly string[]) =>
    cells
      .map((cell, column) => padEnd(cell, widths[column] ?? 0))
      .join("  ")
      .trimEnd();
  return [render(header), ...body.map(render)];
}
