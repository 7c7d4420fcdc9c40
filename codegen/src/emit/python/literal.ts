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
  return new LiteralWriter(options.tuples === true, width).broken(value, options.intKeys === true, indent);
}

interface Member {
  readonly key: string | null;
  readonly item: unknown;
}

/**
 * One {@link pyLiteral} call. Whether a value fits on the rest of a line is
 * decided by writing its one-line form only up to that many characters: a
 * large value (a whole OpenAPI contract in `schema.py`) is never written on one
 * line just to learn that it does not fit, which made the writer quadratic in
 * the document's depth. What is known is remembered per object: its one-line
 * form, or the longest budget it was found not to fit in.
 */
class LiteralWriter {
  private readonly known = new WeakMap<object, string | number>();

  constructor(
    private readonly tuples: boolean,
    private readonly width: number,
  ) {}

  /** `value` on one line when that is at most `budget` characters, else null; `intKeys` writes its own decimal keys as ints. */
  within(value: unknown, intKeys: boolean, budget: number): string | null {
    if (value === null || typeof value !== "object") {
      const text = scalar(value);
      return text.length <= budget ? text : null;
    }
    const memo = !intKeys;
    if (memo) {
      const known = this.known.get(value);
      if (typeof known === "string") return known.length <= budget ? known : null;
      if (typeof known === "number" && budget <= known) return null;
    }
    const { members, open, close, singleTuple } = this.shape(value, intKeys);
    let text = open;
    for (let i = 0; i < members.length; i += 1) {
      const { key, item } = members[i] as Member;
      const prefix = (i > 0 ? 2 : 0) + (key === null ? 0 : key.length + 2);
      const rest = budget - text.length - prefix - close.length;
      const part = rest < 0 ? null : this.within(item, false, rest);
      if (part === null) {
        if (memo) this.known.set(value, Math.max(budget, typeof this.known.get(value) === "number" ? (this.known.get(value) as number) : -1));
        return null;
      }
      text += `${i > 0 ? ", " : ""}${member(key, part)}`;
    }
    text += `${singleTuple ? "," : ""}${close}`;
    if (text.length > budget) {
      if (memo) this.known.set(value, budget);
      return null;
    }
    if (memo) this.known.set(value, text);
    return text;
  }

  /** `value` starting at column `indent`, one member a line where the one-line form does not fit. */
  broken(value: unknown, intKeys: boolean, indent: number): string {
    const flat = this.within(value, intKeys, this.width - indent);
    if (flat !== null) return flat;
    if (value === null || typeof value !== "object") return scalar(value);
    const { members, open, close } = this.shape(value, intKeys);
    const inner = indent + 4;
    const pad = " ".repeat(inner);
    const lines = members.map(({ key, item }) => {
      const prefix = key === null ? 0 : key.length + 2;
      const fitted = this.within(item, false, this.width - inner - prefix - 1) ?? this.broken(item, false, inner);
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
