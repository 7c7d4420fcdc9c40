/**
 * The compact form in which the generator writes JSON Schemas for validation
 * (docs/adr/0020-validator-tables.md): the draft-07 keyword subset the
 * generator accepts, with short names for the frequent keywords, property
 * lists as flat pairs, types as letters, and every `$ref` as the referenced
 * node itself (or, inside a cycle, a function returning it). A node shared by
 * many schemas is one object, compiled once.
 *
 * Keywords not listed here are refused by the generator, never ignored.
 */

/**
 * The check of one schema node: true when `value` matches; otherwise it has
 * recorded the issue. `path` is the value's JSON pointer while the JSON text
 * holds an integral float (so that `type: integer` can refuse it), else null.
 */
export type SchemaCheck = (value: unknown, path: string | null) => boolean;

/**
 * The handler of a keyword that few schemas use (`keywords.ts`). A node that
 * uses such a keyword lists its handler in `k`, so that a bundle carries the
 * handlers of the schemas it holds and no other.
 */
export interface Keyword {
  /** The values it applies to: `s` strings, `n` numbers, `""` any value (after enum, const and `$`). */
  readonly on: "s" | "n" | "";
  /** Its check for node `s` (built once per node, when the node is compiled). */
  readonly check: (s: SchemaNode) => SchemaCheck;
}

/** A schema: a node, `true` (anything), `false` (nothing), or a function returning a node (a reference inside a cycle). */
export type SchemaRef = SchemaNode | boolean | (() => SchemaNode | boolean);

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
   * integer, `n` number, `b` boolean, `z` null (`"sz"`: a string or null).
   */
  readonly t?: string;
  /** `enum`: the allowed values. */
  readonly e?: readonly unknown[];
  /** `const`: the one allowed value (present when the key is). */
  readonly const?: unknown;
  /** `$ref` beside other keywords: the referenced schema. */
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
  /** `uniqueItems`. */
  readonly uniqueItems?: boolean;

  /**
   * The handlers of the rarer keywords the node uses (`format`,
   * `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `allOf`, `anyOf`,
   * `oneOf`, `not`, `if`), each checked after the common keywords of its group
   * in the order listed. The compiler reads those keywords only through their
   * handlers: the generator lists one for every such keyword a node has, in
   * the order above (a hand-written table must do the same).
   */
  readonly k?: readonly Keyword[];
}
