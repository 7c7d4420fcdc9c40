import { SpecError, pointerSegment } from "../errors.js";

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
  const stack: [node: unknown, at: string, depth: number][] = [[document, "", 1]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [node, at, depth] = entry;
    if (node === null || typeof node !== "object") continue;
    if (depth > maxDepth) {
      throw new SpecError("too_deep", { pointer: at }, `the document nests deeper than ${maxDepth} levels here; flatten it with named components ($ref)`);
    }
    const children: [string, unknown][] = Array.isArray(node) ? node.map((item, index) => [String(index), item]) : Object.entries(node);
    for (let index = children.length - 1; index >= 0; index -= 1) {
      const [key, value] = children[index] as [string, unknown];
      if (value !== null && typeof value === "object") stack.push([value, `${at}/${pointerSegment(key)}`, depth + 1]);
    }
  }
}
