import type { SchemaCheck, SchemaNode } from "./schema-node.js";

/*
 * The records `compile.ts` prepares from the compact form and `check.ts`
 * reads (docs/adr/0031-validators-fast-and-ordered.md): one shape for every
 * schema node, so the checking function stays monomorphic.
 */

/** The object keywords of a node, prepared. */
export interface Members {
  /** Member names: the properties in declaration order (the first `declared`), then required names that are not properties. */
  readonly names: readonly string[];
  readonly declared: number;
  /** Per name, its schema's record (additionalProperties' for a name that is no property), or null for anything. */
  readonly parts: readonly (Prepared | null)[];
  /** Per name, 1 when it is required, else 0; the required names in ajv's order. */
  readonly required: readonly number[];
  readonly order: readonly string[];
  /** additionalProperties: false for none, null for anything, else its record. */
  readonly extra: Prepared | null | false;
  /** minProperties and maxProperties (0 and Infinity when absent). */
  readonly min: number;
  readonly max: number;
  /** The fast path's check of an object against these keywords (`check.ts`, `membersAcceptor`); false for any other value. */
  readonly a: (value: unknown) => boolean;
}

/** A schema node prepared for `check.ts`, keyed like the compact form. Every field is present: one shape for all. */
export interface Prepared {
  /** The node itself ({} for the `false` schema and for a reference back into a cycle). */
  readonly s: SchemaNode;
  /** The types it admits, as bits: ANY without `type`, 0 for the `false` schema. */
  readonly t: number;
  /** The bit of its one type when it has that type's group of keywords (ajv checks the type with them), else 0. */
  readonly late: number;
  /** The groups of keywords it has (NUMBER, STRING, ARRAY, OBJECT bits). */
  readonly k: number;
  /** minLength and maxLength in code points (0 and Infinity when absent), pattern. */
  readonly n: number;
  readonly x: number;
  readonly p: RegExp | null;
  /** minimum and maximum (-Infinity and Infinity when absent). */
  readonly g: number;
  readonly l: number;
  /** enum (scalars alone). */
  readonly e: readonly unknown[] | null;
  /**
   * The checks that are closures, as pairs: when each is checked, its check.
   * When: BEFORE_ENUM (`$` and const), 0 (the handlers for any value, after
   * enum), or a group bit (its handlers, last in the group). Null when none.
   */
  readonly h: readonly (number | SchemaCheck)[] | null;
  readonly o: Members | null;
  /** items (null for anything), minItems and maxItems (0 and Infinity when absent). */
  readonly I: Prepared | null;
  readonly minItems: number;
  readonly maxItems: number;
  /** How the fast path checks it in place as a member or an item (`check.ts`, `leafKind`); 0 by `a`. */
  readonly f: number;
  /** The fast path's check of the node (`check.ts`, `acceptorOf`): true when the value matches, recording nothing. */
  readonly a: (value: unknown) => boolean;
}
