import { SpecError } from "../errors.js";
import { step, trailPointer, type Trail } from "./trail.js";

/**
 * Deepest nesting of objects and arrays a spec may have: the YAML reader's own
 * limit (js-yaml's `maxDepth`, 100), applied to JSON documents as well. Real
 * contracts stay far below it (this repository's `openapi.yaml` nests 11 levels);
 * every later stage, the third-party resolvers and the TypeScript printer among
 * them, recurses over the document and would overflow the stack on a much deeper one.
 */
export const MAX_DOCUMENT_DEPTH = 100;

/**
 * Most bytes a spec file may have: 32 MiB, about 65 times this repository's
 * `openapi.yaml` (478 kB) and five times the benchmark's 3,000-operation spec.
 */
export const MAX_SPEC_BYTES = 32 * 1024 * 1024;

/**
 * Most values (objects, arrays and scalars, every member and item counted) a
 * parsed spec may expand to: one million, 57 times this repository's
 * `openapi.yaml` (17,407) and four times the benchmark's 3,000-operation spec.
 * A YAML alias repeats its anchor's whole value wherever it stands, so a few
 * nested aliases in a small file expand to millions of values; every stage after
 * the reader (and every emitter that writes the document out) walks the expansion.
 */
export const MAX_DOCUMENT_VALUES = 1_000_000;

/**
 * Most characters (UTF-16 code units) of member names and strings a parsed spec
 * may expand to: 32 Mi, about 120 times this repository's `openapi.yaml`
 * (273,634). Bounds aliases of long strings, which add few values but much text.
 */
export const MAX_DOCUMENT_TEXT = 32 * 1024 * 1024;

/**
 * Refuses spec bytes past {@link MAX_SPEC_BYTES}, before they are parsed.
 *
 * @throws {SpecError} `too_large` at the document root
 */
export function checkSpecBytes(byteLength: number, maxBytes: number = MAX_SPEC_BYTES): void {
  if (byteLength > maxBytes)
    throw new SpecError(
      "too_large",
      { pointer: "" },
      `the spec file has ${byteLength} bytes, more than ${maxBytes} bytes the generator reads`,
    );
}

/** The limits {@link checkBounds} applies; each defaults to the constant of its name. */
export interface DocumentBounds {
  readonly maxDepth?: number;
  readonly maxValues?: number;
  readonly maxText?: number;
}

interface Entry {
  readonly node: object;
  readonly trail: Trail | undefined;
  readonly depth: number;
  /** The outermost value on the way here that was reached before by another way: where a YAML alias stands. */
  readonly alias: Trail | undefined;
}

/**
 * Refuses a parsed document that nests deeper than {@link MAX_DOCUMENT_DEPTH} or
 * expands to more than {@link MAX_DOCUMENT_VALUES} values or
 * {@link MAX_DOCUMENT_TEXT} characters. Walks the document as every later stage
 * will, a value repeated by an alias once per place it stands, and stops at the
 * first limit passed, so a document of a billion values costs no more than one at
 * the limit. Iterative, so it never overflows the stack itself, whatever the depth.
 *
 * @param document - the parsed spec (not modified)
 * @throws {SpecError} `too_deep` naming the pointer of the first collection that
 *   lies deeper than the limit (the root object is depth 1); `too_large` naming the
 *   alias whose expansion passed a limit (the outermost value on the path that the
 *   walk had reached before by another path), or the pointer where it was passed
 */
export function checkBounds(document: unknown, bounds: DocumentBounds = {}): void {
  const maxDepth = bounds.maxDepth ?? MAX_DOCUMENT_DEPTH;
  const maxValues = bounds.maxValues ?? MAX_DOCUMENT_VALUES;
  const maxText = bounds.maxText ?? MAX_DOCUMENT_TEXT;
  const seen = new Set<object>();
  const stack: Entry[] = [];
  let values = 1;
  let text = typeof document === "string" ? document.length : 0;
  if (document !== null && typeof document === "object")
    stack.push({ node: document, trail: undefined, depth: 1, alias: undefined });
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const { node, trail, depth } = entry;
    if (depth > maxDepth) {
      throw new SpecError(
        "too_deep",
        { pointer: trailPointer(trail) },
        `the document nests deeper than ${maxDepth} levels here; flatten it with named components ($ref)`,
      );
    }
    const repeated = seen.has(node);
    if (!repeated) seen.add(node);
    const alias = entry.alias ?? (repeated ? trail : undefined);
    const record = node as Record<string, unknown>;
    const keys = Object.keys(record);
    const isArray = Array.isArray(node);
    values += keys.length;
    for (let index = keys.length - 1; index >= 0; index -= 1) {
      const key = keys[index] as string;
      const value = record[key];
      if (!isArray) text += key.length;
      if (typeof value === "string") text += value.length;
      else if (value !== null && typeof value === "object")
        stack.push({ node: value, trail: step(trail, key), depth: depth + 1, alias });
    }
    if (values > maxValues) throw tooLarge(trail, alias, `${maxValues} values`);
    if (text > maxText) throw tooLarge(trail, alias, `${maxText} characters of text (member names and strings)`);
  }
}

function tooLarge(at: Trail | undefined, alias: Trail | undefined, limit: string): SpecError {
  if (alias === undefined)
    return new SpecError(
      "too_large",
      { pointer: trailPointer(at) },
      `the document passes ${limit.replace(/^\d+/, (n) => `the generator's bound of ${n}`)} here; split the contract`,
    );
  return new SpecError(
    "too_large",
    { pointer: trailPointer(alias) },
    `the YAML alias here makes the document expand to more than ${limit}: an alias repeats the whole value of its anchor each time it stands, so nested aliases multiply; write the value once and refer to it ($ref)`,
  );
}
