/**
 * The compact form in which the generator writes JSON Schemas for validation
 * (docs/adr/0020-validator-tables.md): the draft-07 keyword subset the
 * generator accepts, with short names for the frequent keywords, property
 * lists as flat pairs, types as letters, and every `$ref` as the referenced
 * node itself, or inside a cycle `recursive(() => node)` (`depth.ts`), which
 * also bounds how deep a value may nest. A node shared by many schemas is one
 * object, prepared once.
 *
 * Keywords not listed here are refused by the generator, never ignored.
 */

/**
 * The check of one schema node (`check.ts`): true when `value` matches. `at`
 * is null on the fast path, which records nothing; on the ordered path it is
 * the JSON pointer of `value`, and a failing check records the issue ajv
 * reports first (`issue.ts`) before it returns false.
 */
export type SchemaCheck = (value: unknown, at: string | null) => boolean;

/**
 * The handler of a keyword that few schemas use (`keywords.ts`). A node that
 * uses such a keyword lists its handler in `k`, so that a bundle carries the
 * handlers of the schemas it holds and no other.
 */
export interface Keyword {
  /**
   * When it is checked, on which values: `first` any value, before enum (`$`,
   * const, an enum of objects); `""` any value, after enum; `s` strings, `n` numbers, `a`
   * arrays, last in their group.
   */
  readonly on: "first" | "" | "s" | "n" | "a";
  /** Its check for node `s` (built once per node, when the node is prepared). */
  readonly check: (s: SchemaNode) => SchemaCheck;
}

/** A schema: a node, `true` (anything) or `false` (nothing). */
export type SchemaRef = SchemaNode | boolean;

/**
 * One JSON Schema in the compact form. Short names: `t` type, `e` enum, `r`
 * required, `P` properties, `A` additionalProperties, `n`/`x` min/maxLength,
 * `p` pattern, `g`/`l` minimum/maximum, `I` items, `$` a `$ref` beside other
 * keywords, `k` the handlers of the rarer keywords it uses. The rarer keywords
 * keep their JSON Schema names.
 */
export interface SchemaNode {
  /**
   * The JSON types, one letter each: `o` object, `a` array, `s` string, `i`
   * integer, `n` number, `b` boolean, `z` null (`"sz"`: a string or null);
   * `O` an object without additional members (additionalProperties false,
   * then not written as `A`).
   */
  readonly t?: string;
  /** `enum` of scalars alone: the allowed values, found with `includes`. */
  readonly e?: readonly unknown[];
  /** `enum` holding an object or an array: the allowed values, compared structurally (checked by the handler `enumKeyword`). */
  readonly enum?: readonly unknown[];
  /** `const`: the one allowed value (present when the key is; checked by the handler `constKeyword`). */
  readonly const?: unknown;
  /** `$ref` beside other keywords: the referenced schema (checked by the handler `refKeyword`). */
  readonly $?: SchemaRef;
  /** `allOf`. */
  readonly allOf?: readonly SchemaRef[];
  /** `anyOf`. */
  readonly anyOf?: readonly SchemaRef[];
  /** `oneOf`. */
  readonly oneOf?: readonly SchemaRef[];
  /** `not`. */
  readonly not?: SchemaRef;
  /** `if`, with `then` and `else`. */
  readonly if?: SchemaRef;
  /** `then`. */
  readonly then?: SchemaRef;
  /** `else`. */
  readonly else?: SchemaRef;

  /**
   * `required`: member names, checked in this order; or a bit mask over the
   * names of {@link P} (bit i: the i-th property is required), checked in
   * their order.
   */
  readonly r?: readonly string[] | number;
  /** `properties` as pairs: name, schema, name, schema, ... (declaration order). */
  readonly P?: readonly (string | SchemaRef)[];
  /** `additionalProperties`: `false`, or the schema of every undeclared member. */
  readonly A?: SchemaRef;
  /** `minProperties`. */
  readonly minProperties?: number;
  /** `maxProperties`. */
  readonly maxProperties?: number;

  /** `minLength`, in code points. */
  readonly n?: number;
  /** `maxLength`, in code points. */
  readonly x?: number;
  /** `pattern`, compiled with the `u` flag unless {@link pf} says otherwise. */
  readonly p?: string;
  /** The flags of {@link p} when they are not `u` (a pattern valid only without it). */
  readonly pf?: string;
  /** `format`, for a format that is checked: its name, its regular expression's source and flags. */
  readonly format?: readonly [name: string, source: string, flags: string];

  /** `minimum`. */
  readonly g?: number;
  /** `maximum`. */
  readonly l?: number;
  /** `exclusiveMinimum` (draft-07: a number). */
  readonly exclusiveMinimum?: number;
  /** `exclusiveMaximum` (draft-07: a number). */
  readonly exclusiveMaximum?: number;
  /** `multipleOf`. */
  readonly multipleOf?: number;

  /** `items`: the schema of every item. */
  readonly I?: SchemaRef;
  /** `minItems`. */
  readonly minItems?: number;
  /** `maxItems`. */
  readonly maxItems?: number;
  /**
   * `uniqueItems`: true, or the type letters of an `items` schema that ajv
   * read in place with scalar types only: ajv then compares the items of
   * those types alone, by value, and reports another pair of duplicates.
   */
  readonly uniqueItems?: boolean | string;

  /**
   * The handlers of the rarer keywords the node uses, in ajv's order of
   * checking: `$` (`refKeyword`), `const`, `enum`, `exclusiveMaximum`,
   * `exclusiveMinimum`, `multipleOf`, `format`, `uniqueItems`, `not`, `anyOf`,
   * `oneOf`, `allOf`, `if`; each when its `on` says. The runtime reads
   * those keywords only through their handlers: the generator lists one for
   * every such keyword a node has, in that order (a hand-written table must do
   * the same).
   */
  readonly k?: readonly Keyword[];
}
