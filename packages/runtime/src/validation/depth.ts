import { STOP, checkOn } from "./check.js";
import { prepare } from "./compile.js";
import type { Prepared } from "./prepared.js";
import { fail } from "./issue.js";
import type { SchemaCheck, SchemaNode, SchemaRef } from "./schema-node.js";

/*
 * How deep a value may take a recursive schema. The generator writes every
 * reference back into a cycle of its tables as `recursive(() => node)`; an
 * object or array checked through one counts as one level down. Past
 * MAX_DEPTH the validation stops with one issue instead of running out of
 * stack (`RangeError: Maximum call stack size exceeded`). A table without
 * cycles does not import this module.
 */

/** The most objects and arrays checked through a recursion of a schema between the root and a value: 256, the mock's limit on body nesting. */
export const MAX_DEPTH = 256;

/** The recursions the value under check is below the root. */
let depth = 0;

/**
 * A reference back into a cycle of the tables: the schema `target` returns
 * (called on first use, when the cycle's constants exist). A value nested
 * more than `MAX_DEPTH` (256) levels through such references fails with the
 * issue `{ keyword: "depth", params: { limit: 256 } }`, "must NOT nest a
 * recursive schema more than 256 levels deep", at the value past the limit,
 * and ends the validation.
 *
 * @param target returns the referenced schema.
 * @returns a schema node that checks a value against it.
 */
export function recursive(target: () => SchemaRef): SchemaNode {
  const through = (): SchemaCheck => {
    let c: Prepared | null | undefined;
    return (value, at) => {
      c ??= prepare(target());
      if (c === null || typeof value !== "object" || value === null) return c === null || checkOn(c, value, at);
      if (depth === MAX_DEPTH) {
        // The fast path only answers no; the ordered path, which follows, records the issue and stops.
        if (at === null) return false;
        fail(at, "depth", `must NOT nest a recursive schema more than ${MAX_DEPTH} levels deep`, { limit: MAX_DEPTH });
        throw STOP;
      }
      depth++;
      try {
        return checkOn(c, value, at);
      } finally {
        depth--;
      }
    };
  };
  return { k: [{ on: "", check: through }] };
}
