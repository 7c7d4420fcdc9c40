import { pointerSegment } from "../errors.js";

/**
 * Where a node stands in a document, as a chain of keys back to the root. Walks
 * over a whole spec record a trail per node and build the JSON pointer string only
 * for the few nodes an error names: building millions of pointers eagerly cost
 * seconds on a 6 MB spec.
 */
export interface Trail {
  readonly parent: Trail | undefined;
  readonly key: string;
}

/** The trail of a child of `parent` (pass `undefined` for a member of the root). */
export function step(parent: Trail | undefined, key: string | number): Trail {
  return { parent, key: String(key) };
}

/** The JSON pointer (RFC 6901) of a trail; `""` for the root. */
export function trailPointer(trail: Trail | undefined): string {
  const keys: string[] = [];
  for (let at = trail; at !== undefined; at = at.parent) keys.push(pointerSegment(at.key));
  return keys.length === 0 ? "" : `/${keys.reverse().join("/")}`;
}
