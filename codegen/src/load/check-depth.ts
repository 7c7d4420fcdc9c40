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
 * Refuses a parsed document that nests deeper than {@link MAX_DOCUMENT_DEPTH}.
 * Iterative, so it never overflows the stack itself, whatever the depth.
 *
 * @param document - the parsed spec (not modified)
 * @throws {SpecError} `too_deep` naming the pointer of the first collection that
 *   lies deeper than the limit (the root object is depth 1)
 */
export function checkDepth(document: unknown, maxDepth: number = MAX_DOCUMENT_DEPTH): void {
  const stack: { node: object; trail: Trail | undefined; depth: number }[] = [];
  if (document !== null && typeof document === "object") stack.push({ node: document, trail: undefined, depth: 1 });
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const { node, trail, depth } = entry;
    if (depth > maxDepth) {
      throw new SpecError(
        "too_deep",
        { pointer: trailPointer(trail) },
        `the document nests deeper than ${maxDepth} levels here; flatten it with named components ($ref)`,
      );
    }
    const record = node as Record<string, unknown>;
    const keys = Object.keys(record);
    for (let index = keys.length - 1; index >= 0; index -= 1) {
      const key = keys[index] as string;
      const value = record[key];
      if (value !== null && typeof value === "object")
        stack.push({ node: value, trail: step(trail, key), depth: depth + 1 });
    }
  }
}
