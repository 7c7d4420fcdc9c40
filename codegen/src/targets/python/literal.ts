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
  const writer = new LiteralWriter(options.tuples === true, options.width ?? 120);
  writer.broken(value, options.intKeys === true, options.indent ?? 0);
  return writer.parts.join("");
}

/**
 * One {@link pyLiteral} call. Whether a value fits on the rest of a line is decided
 * by counting the characters of its one-line form up to the room left, without
 * writing it: a large value (a whole OpenAPI contract in `schema.py`) is never
 * written, or even measured whole, just to learn that it does not fit. The text
 * is kept as its pieces, joined once at the end: nesting depth does not multiply
 * the copying, and a large text is not held as a chain of concatenations.
 */
class LiteralWriter {
  /** The text written so far, piece by piece. */
  readonly parts: string[] = [];
  private readonly pads: string[] = [];
  /** Keys repeat throughout a document: each is spelled once. */
  private readonly keys = new Map<string, string>();

  constructor(
    private readonly tuples: boolean,
    private readonly width: number,
  ) {}

  /** Writes `value` starting at column `indent`, one member a line where the one-line form does not fit; `intKeys` writes its own decimal keys as ints. */
  broken(value: unknown, intKeys: boolean, indent: number): void {
    if (this.room(value, intKeys, this.width - indent) >= 0) {
      this.flat(value, intKeys);
      return;
    }
    if (value === null || typeof value !== "object") {
      this.parts.push(scalar(value));
      return;
    }
    const array = Array.isArray(value);
    const inner = indent + 4;
    this.parts.push(`${!array ? "{" : this.tuples ? "(" : "["}\n`);
    const start = this.parts.length;
    if (array) {
      for (const item of value as unknown[]) this.line(null, item, inner);
    } else {
      for (const key in value)
        if (Object.hasOwn(value, key))
          this.line(this.key(key, intKeys), (value as Record<string, unknown>)[key], inner);
    }
    if (this.parts.length === start) this.parts.push("\n");
    this.parts.push(this.pad(indent) + (!array ? "}" : this.tuples ? ")" : "]"));
  }

  /**
   * One member of a broken value: indented, `key: ` unless an array item, the value, a comma.
   * The value is on one line when its one-line form fits the width from the indent (the key
   * before it does not count).
   */
  private line(key: string | null, item: unknown, indent: number): void {
    this.parts.push(this.pad(indent));
    if (key !== null) this.parts.push(`${key}: `);
    this.broken(item, false, indent);
    this.parts.push(",\n");
  }

  /**
   * `budget` minus the length of the one-line form of `value`: not negative exactly
   * when the value fits. Stops as soon as it is negative, so a large value costs
   * no more than a line's worth of its members.
   */
  private room(value: unknown, intKeys: boolean, budget: number): number {
    if (value === null || typeof value !== "object")
      return budget - (typeof value === "string" ? stringLength(value) : scalar(value).length);
    let left = budget - 2; // open and close
    if (Array.isArray(value)) {
      if (this.tuples && value.length === 1) left -= 1;
      for (let i = 0; i < value.length && left >= 0; i += 1) left = this.room(value[i], false, left - (i > 0 ? 2 : 0));
      return left;
    }
    let first = true;
    for (const key in value) {
      if (left < 0) break;
      if (!Object.hasOwn(value, key)) continue;
      left = this.room(
        (value as Record<string, unknown>)[key],
        false,
        left - (first ? 0 : 2) - this.key(key, intKeys).length - 2,
      );
      first = false;
    }
    return left;
  }

  /** Writes the one-line form of a value. */
  private flat(value: unknown, intKeys: boolean): void {
    if (value === null || typeof value !== "object") {
      this.parts.push(scalar(value));
    } else if (Array.isArray(value)) {
      this.parts.push(this.tuples ? "(" : "[");
      for (let i = 0; i < value.length; i += 1) {
        if (i > 0) this.parts.push(", ");
        this.flat(value[i], false);
      }
      this.parts.push((this.tuples && value.length === 1 ? "," : "") + (this.tuples ? ")" : "]"));
    } else {
      this.parts.push("{");
      let first = true;
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        this.parts.push(`${(first ? "" : ", ") + this.key(key, intKeys)}: `);
        this.flat((value as Record<string, unknown>)[key], false);
        first = false;
      }
      this.parts.push("}");
    }
  }

  private key(key: string, intKeys: boolean): string {
    if (intKeys) return keyText(key, intKeys);
    let text = this.keys.get(key);
    if (text === undefined) {
      text = pyString(key);
      this.keys.set(key, text);
    }
    return text;
  }

  private pad(indent: number): string {
    return (this.pads[indent] ??= " ".repeat(indent));
  }
}

/** Characters JSON.stringify escapes in a string (or may, for lone surrogates). */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** The length of {@link pyString} of `value`, without writing it when nothing needs escaping. */
function stringLength(value: string): number {
  return ESCAPED.test(value) ? pyString(value).length : value.length + 2;
}

/** An object key as written: a Python string, or an int for a decimal key under `intKeys`. */
function keyText(key: string, intKeys: boolean): string {
  return intKeys && /^[0-9]+$/.test(key) ? String(Number(key)) : pyString(key);
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
