/**
 * JSON values written as Python source: `true`/`false`/`null` become
 * `True`/`False`/`None`, arrays become lists (or tuples on request), objects
 * dicts. A value that fits in `width` columns stays on one line; otherwise each
 * member gets its own line with a trailing comma, the layout ruff's formatter
 * also produces, so the output reads like hand-formatted Python.
 */

/** Python spelling of one string: JSON string escapes are valid Python escapes. */
export function pyString(value: string): string {
  return JSON.stringify(value);
}

/** Options of {@link pyLiteral}. */
export interface PyLiteralOptions {
  /** Indentation of the line the value starts on (spaces). */
  readonly indent?: number;
  /** Line width to aim for; default 120 (the release's). */
  readonly width?: number;
  /** Write arrays as tuples. */
  readonly tuples?: boolean;
  /** Write object keys that are decimal strings as Python ints (`responses` keys). */
  readonly intKeys?: boolean;
}

/**
 * A JSON value as a Python expression.
 *
 * @throws {TypeError} for values JSON cannot hold (undefined, functions, non-finite numbers)
 */
export function pyLiteral(value: unknown, options: PyLiteralOptions = {}): string {
  const indent = options.indent ?? 0;
  const width = options.width ?? 120;
  const flat = render(value, options, null, 0);
  if (indent + flat.length <= width) return flat;
  return render(value, options, width, indent);
}

function render(value: unknown, options: PyLiteralOptions, width: number | null, indent: number): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string") return pyString(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`cannot write ${value} as a Python literal`);
    return String(value);
  }
  if (Array.isArray(value)) {
    const items = value.map((item) => ({ key: null, item }));
    const [open, close] = options.tuples ? ["(", ")"] : ["[", "]"];
    return container(items, open, close, options, width, indent, options.tuples === true && value.length === 1);
  }
  if (typeof value === "object") {
    const items = Object.entries(value as Record<string, unknown>).map(([key, item]) => ({
      key: options.intKeys && /^[0-9]+$/.test(key) ? String(Number(key)) : pyString(key),
      item,
    }));
    // keys are only numbers at the top level (responses); nested objects keep string keys
    return container(items, "{", "}", { ...options, intKeys: false }, width, indent, false);
  }
  throw new TypeError(`cannot write a ${typeof value} as a Python literal`);
}

function container(
  items: readonly { key: string | null; item: unknown }[],
  open: string,
  close: string,
  options: PyLiteralOptions,
  width: number | null,
  indent: number,
  singleTuple: boolean,
): string {
  const member = (key: string | null, text: string) => (key === null ? text : `${key}: ${text}`);
  if (items.length === 0) return `${open}${close}`;
  const flatItems = items.map(({ key, item }) => member(key, render(item, options, null, 0)));
  const flat = `${open}${flatItems.join(", ")}${singleTuple ? "," : ""}${close}`;
  if (width === null || indent + flat.length <= width) return flat;
  const inner = indent + 4;
  const pad = " ".repeat(inner);
  const lines = items.map(({ key, item }) => {
    const prefix = key === null ? 0 : key.length + 2;
    const text = render(item, options, null, 0);
    const fitted = inner + prefix + text.length + 1 <= width ? text : render(item, options, width, inner);
    return `${pad}${member(key, fitted)},`;
  });
  return `${open}\n${lines.join("\n")}\n${" ".repeat(indent)}${close}`;
}
