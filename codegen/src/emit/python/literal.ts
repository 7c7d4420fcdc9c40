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
  const writer = new LiteralWriter(options.tuples === true, width);
  const flat = writer.flat(value, options.intKeys === true);
  if (indent + flat.length <= width) return flat;
  return writer.broken(value, options.intKeys === true, indent);
}

interface Member {
  readonly key: string | null;
  readonly item: unknown;
}

/**
 * One {@link pyLiteral} call. The one-line spelling of every array and object is
 * computed once and remembered: deciding whether a member fits asks for it at every
 * level above, which without the memo re-renders a deep document (a whole OpenAPI
 * contract in `schema.py`) once per level.
 */
class LiteralWriter {
  private readonly flatText = new WeakMap<object, string>();

  constructor(
    private readonly tuples: boolean,
    private readonly width: number,
  ) {}

  /** `value` on one line; `intKeys` writes its own decimal keys as ints (never its members'). */
  flat(value: unknown, intKeys = false): string {
    if (value === null || typeof value !== "object") return scalar(value);
    const memo = !intKeys;
    if (memo) {
      const known = this.flatText.get(value);
      if (known !== undefined) return known;
    }
    const { members, open, close, singleTuple } = this.shape(value, intKeys);
    const text = members.length === 0 ? `${open}${close}` : `${open}${members.map(({ key, item }) => member(key, this.flat(item))).join(", ")}${singleTuple ? "," : ""}${close}`;
    if (memo) this.flatText.set(value, text);
    return text;
  }

  /** `value` starting at column `indent`, one member a line where the one-line form does not fit. */
  broken(value: unknown, intKeys: boolean, indent: number): string {
    const flat = this.flat(value, intKeys);
    if (indent + flat.length <= this.width || value === null || typeof value !== "object") return flat;
    const { members, open, close } = this.shape(value, intKeys);
    const inner = indent + 4;
    const pad = " ".repeat(inner);
    const lines = members.map(({ key, item }) => {
      const prefix = key === null ? 0 : key.length + 2;
      const text = this.flat(item);
      const fitted = inner + prefix + text.length + 1 <= this.width ? text : this.broken(item, false, inner);
      return `${pad}${member(key, fitted)},`;
    });
    return `${open}\n${lines.join("\n")}\n${" ".repeat(indent)}${close}`;
  }

  private shape(value: object, intKeys: boolean): { members: Member[]; open: string; close: string; singleTuple: boolean } {
    if (Array.isArray(value)) {
      const [open, close] = this.tuples ? ["(", ")"] : ["[", "]"];
      return { members: value.map((item: unknown) => ({ key: null, item })), open, close, singleTuple: this.tuples && value.length === 1 };
    }
    const members = Object.entries(value as Record<string, unknown>).map(([key, item]) => ({
      key: intKeys && /^[0-9]+$/.test(key) ? String(Number(key)) : pyString(key),
      item,
    }));
    return { members, open: "{", close: "}", singleTuple: false };
  }
}

function member(key: string | null, text: string): string {
  return key === null ? text : `${key}: ${text}`;
}

function scalar(value: unknown): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string") return pyString(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`cannot write ${value} as a Python literal`);
    return String(value);
  }
  throw new TypeError(`cannot write a ${typeof value} as a Python literal`);
}
