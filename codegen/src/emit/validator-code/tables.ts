import type { Json } from "../../domain/types.js";
import {
  compactSchema,
  HANDLED_KEYWORDS,
  keywordHandler,
  type Compact,
  type CompactNode,
  type CompactValue,
} from "./compact.js";
import { literal } from "./js-text.js";

/** The runtime's export that refers back into a cycle: `recursive(() => constant)`. */
const RECURSIVE = "recursive";

/** A repeated subschema is shared (written once, as a constant) when its text is at least this long. */
const SHARE_MIN_CHARS = 16;

/**
 * Writes the validator module: the schemas in the runtime's compact form as
 * module constants, and one `export const <name> = validator(<schema>)` per
 * export, marked pure so a bundler drops what an application never names.
 *
 * Nothing is written twice: definitions that are the same schema (a component
 * that reads alike on both sides of the wire, and everything it references)
 * become one constant, and so does every repeated subschema of some length.
 * Constants are written in dependency order; a reference back into a cycle
 * (a recursive schema) is the runtime's `recursive` of a function returning
 * the constant, resolved on first use, which also bounds how deep a value may
 * nest.
 */
export class ValidatorTables {
  /** Compact form per definition key, converted on first use. */
  private readonly compacts = new Map<string, Compact>();
  private readonly outlines = new Map<string, Outline>();
  /** The compact form of each schema object met so far, across definitions. */
  private readonly compactNodes = new Map<object, Compact>();

  /**
   * @param definition - the draft-07 schema of a key (undefined when unknown); `$ref` values have the form `#/definitions/<key>`
   * @param formats - regular expression per format name; `true` (or absent) means annotation only
   * @param runtimeModule - the module the validators import `validator` from
   */
  constructor(
    private readonly definition: (key: string) => Json | boolean | undefined,
    private readonly formats: Readonly<Record<string, RegExp | true>>,
    private readonly runtimeModule: string,
  ) {}

  /** The module text for `exports` (export name -> definition key). */
  module(exports: ReadonlyMap<string, string>): string {
    const keys = this.reachable([...exports.values()]);
    // Each definition's shape with its references cut out, numbered: equal shapes share one number.
    const shapes = new ShapeNumbers(() => "\u0000");
    const classOf = this.definitionClasses(keys, shapes);
    const writer = new ConstantWriter(keys, (key) => this.compact(key), classOf, shapes);
    // A schema no integer can meet never needs the JSON text (`validator`'s `integers`).
    const integers = this.reachingInteger(keys);
    const lines = [...exports].map(
      ([name, key]) =>
        `export const ${name} = /* @__PURE__ */ v(${writer.reference(key)}${integers.has(key) ? "" : ", false"});\n`,
    );
    const constants = writer.constants();
    const used = new Set<string>();
    for (const key of keys) for (const name of this.outline(key).handlers) used.add(name);
    const handlers = HANDLED_KEYWORDS.map(keywordHandler).filter((name) => used.has(name));
    const imports = ["validator as v", ...handlers, ...(writer.recursive ? [RECURSIVE] : [])].join(", ");
    return `import { ${imports} } from ${JSON.stringify(this.runtimeModule)};\n\n${constants}\n${lines.join("")}`;
  }

  private compact(key: string): Compact {
    let compact = this.compacts.get(key);
    if (compact === undefined) {
      const schema = this.definition(key);
      if (schema === undefined) throw new Error(`validator emitter: no definition "${key}"`);
      compact = compactSchema(schema, this.formats, this.compactNodes);
      this.compacts.set(key, compact);
    }
    return compact;
  }

  /** What one walk over a definition finds (references not followed), remembered per key. */
  private outline(key: string): Outline {
    let outline = this.outlines.get(key);
    if (outline === undefined) {
      outline = { refs: [], integer: false, handlers: [] };
      outlineOf(this.compact(key), outline);
      this.outlines.set(key, outline);
    }
    return outline;
  }

  /**
   * The definitions of `keys` (closed under references) under which a value can
   * be checked as an integer: a node they reach (through references too) has the
   * type `integer`. Only then can the JSON text write one as a float (`3.0`), so
   * only then does the runtime read the text. One walk back along the references
   * from the definitions with an integer node, whatever the number of exports.
   */
  private reachingInteger(keys: readonly string[]): Set<string> {
    const referrers = new Map<string, string[]>();
    for (const key of keys)
      for (const ref of this.outline(key).refs) {
        const list = referrers.get(ref);
        if (list === undefined) referrers.set(ref, [key]);
        else list.push(key);
      }
    const found = new Set(keys.filter((key) => this.outline(key).integer));
    const queue = [...found];
    for (let i = 0; i < queue.length; i += 1)
      for (const referrer of referrers.get(queue[i] as string) ?? [])
        if (!found.has(referrer)) {
          found.add(referrer);
          queue.push(referrer);
        }
    return found;
  }

  /** Every definition key the exports reach, in first-reached order. */
  private reachable(roots: readonly string[]): string[] {
    const seen = new Set<string>();
    const queue = [...roots];
    for (let i = 0; i < queue.length; i += 1) {
      const key = queue[i] as string;
      if (seen.has(key)) continue;
      seen.add(key);
      for (const ref of this.outline(key).refs) queue.push(ref);
    }
    return [...seen];
  }

  /**
   * Groups definitions that are the same schema: by their text with each
   * reference written as its target's group, refined until stable (two
   * definitions stay together only when everything they reach does too).
   */
  private definitionClasses(keys: readonly string[], shapes: ShapeNumbers): Map<string, number> {
    const templates = new Map<string, { template: number; refs: string[] }>();
    for (const key of keys) {
      templates.set(key, { template: shapes.of(this.compact(key)), refs: this.outline(key).refs });
    }
    let classOf = new Map(keys.map((key) => [key, 0]));
    let count = 1;
    for (;;) {
      const signatures = new Map<string, number>();
      const next = new Map<string, number>();
      for (const key of keys) {
        const { template, refs } = templates.get(key) as { template: number; refs: string[] };
        let signature = `${classOf.get(key)}|${template}`;
        for (const ref of refs) signature += `,${classOf.get(ref)}`;
        let id = signatures.get(signature);
        if (id === undefined) {
          id = signatures.size;
          signatures.set(signature, id);
        }
        next.set(key, id);
      }
      classOf = next;
      if (signatures.size === count) return classOf;
      count = signatures.size;
    }
  }
}

/** What a definition holds, references not followed. */
interface Outline {
  /** The key of every reference, in the order the definition's text writes them. */
  readonly refs: string[];
  /** Whether a node has the type `integer`. */
  integer: boolean;
  /** The keyword handlers its nodes name (a name may repeat). */
  readonly handlers: string[];
}

/** Adds what `schema` and its subschemas hold to `into`, in one walk. */
function outlineOf(schema: Compact, into: Outline): void {
  if (typeof schema === "boolean") return;
  if ("ref" in schema) {
    into.refs.push(schema.ref);
    return;
  }
  for (const [key, value] of schema.members) {
    if ("schema" in value) outlineOf(value.schema, into);
    else if ("schemas" in value) for (const sub of value.schemas) outlineOf(sub, into);
    else if ("pairs" in value) for (const [, sub] of value.pairs) outlineOf(sub, into);
    else if ("handlers" in value) into.handlers.push(...value.handlers);
    else if (key === "t" && "json" in value && String(value.json).includes("i")) into.integer = true;
  }
}

/** The expression of a schema, with each reference written by `ref` (and each node by `nodeText` when given). */
function text(schema: Compact, ref: (key: string) => string, nodeText?: (node: CompactNode) => string | null): string {
  if (typeof schema === "boolean") return String(schema);
  if ("ref" in schema) return ref(schema.ref);
  const shared = nodeText?.(schema);
  if (shared !== undefined && shared !== null) return shared;
  const sub = (value: Compact) => text(value, ref, nodeText);
  return `{ ${schema.members.map(([key, value]) => `${key}: ${valueText(value, sub)}`).join(", ")} }`;
}

function valueText(value: CompactValue, sub: (schema: Compact) => string): string {
  if ("json" in value) return value.text;
  if ("schema" in value) return sub(value.schema);
  if ("schemas" in value) return `[${value.schemas.map(sub).join(", ")}]`;
  if ("pairs" in value)
    return `[${value.pairs.map(([name, schema]) => `${literal(name)}, ${sub(schema)}`).join(", ")}]`;
  // Handlers are the runtime's exports, imported by name at the top of the module.
  if ("handlers" in value) return `[${value.handlers.join(", ")}]`;
  return value.text;
}

/**
 * Numbers schemas by the text {@link text} writes for them, each reference
 * written by `refName`: two schemas get one number exactly when their texts
 * are equal. The texts themselves are not written: a node is numbered from its
 * members and the numbers of its subschemas, once per node, so the work grows
 * with the number of nodes rather than with their texts' lengths times the depth.
 *
 * A numbering made on top of another (`base`) writes references otherwise but
 * shares its numbers: a node without a reference below it reads alike in both,
 * and takes the number the base gave it.
 */
class ShapeNumbers {
  private readonly numbers: Map<string, number>;
  private readonly known = new Map<Compact, number>();
  /** The numbered nodes whose text writes a reference. */
  private readonly referring = new Set<Compact>();

  constructor(
    private readonly refName: (key: string) => string,
    private readonly base?: ShapeNumbers,
  ) {
    this.numbers = base?.numbers ?? new Map();
  }

  /** The number of `schema`'s text. */
  of(schema: Compact): number {
    let known = this.known.get(schema);
    if (known === undefined) {
      const base = this.base?.known.get(schema);
      known =
        base !== undefined && !(this.base as ShapeNumbers).referring.has(schema)
          ? base
          : this.intern(this.signature(schema));
      this.known.set(schema, known);
    }
    return known;
  }

  /** What tells `schema`'s text apart: its members, each subschema by its number. */
  private signature(schema: Compact): string {
    if (typeof schema === "boolean") return `b${schema}`;
    if ("ref" in schema) {
      this.referring.add(schema);
      return `r${this.refName(schema.ref)}`;
    }
    let signature = "{";
    for (const [key, value] of schema.members) signature += `${key}\u0001${this.value(value, schema)}\u0002`;
    return signature;
  }

  /** A member's value in `parent`'s signature; a subschema that writes a reference marks `parent` as writing one. */
  private value(value: CompactValue, parent: Compact): string {
    if ("json" in value) return `j${value.text}`;
    if ("format" in value) return `f${value.text}`;
    const sub = (schema: Compact) => {
      const n = this.of(schema);
      if (this.referring.has(schema)) this.referring.add(parent);
      return n;
    };
    if ("schema" in value) return `s${sub(value.schema)}`;
    if ("schemas" in value) return `S${value.schemas.map(sub).join(",")}`;
    // A name by its length and itself: read back unambiguously whatever characters it holds.
    if ("pairs" in value)
      return `P${value.pairs.map(([name, schema]) => `${name.length}:${name},${sub(schema)}`).join(",")}`;
    return `h${value.handlers.join(",")}`;
  }

  private intern(signature: string): number {
    let n = this.numbers.get(signature);
    if (n === undefined) {
      n = this.numbers.size;
      this.numbers.set(signature, n);
    }
    return n;
  }
}

/**
 * Writes the constants: one per group of equal definitions, and one per
 * repeated subschema, each after the constants it uses.
 */
class ConstantWriter {
  /** Constant name per definition group. */
  private readonly groupName = new Map<number, string>();
  /** Constant name per shared subschema, by the number of its canonical text. */
  private readonly sharedName = new Map<number, string>();
  private readonly lines: string[] = [];
  /** Constants written so far, and those being written (a reference to one of these is a reference back into a cycle). */
  private readonly written = new Set<string>();
  private readonly writing = new Set<string>();
  /** Canonical texts, numbered: references written by group, so equal subschemas of equal definitions read alike. */
  private readonly canonical: ShapeNumbers;
  /** How many times each canonical text occurs below the definitions' roots. */
  private readonly uses = new Map<number, number>();
  /** The canonical texts that were needed, by their numbers. */
  private readonly texts = new Map<number, string>();
  /** A definition per canonical text: a subschema that reads like a whole definition is that definition. */
  private readonly definitionByText = new Map<number, string>();
  private count = 0;

  constructor(
    private readonly keys: readonly string[],
    private readonly compact: (key: string) => Compact,
    private readonly classOf: ReadonlyMap<string, number>,
    shapes: ShapeNumbers,
  ) {
    this.canonical = new ShapeNumbers(this.canonicalRef, shapes);
    const counted = new Set<number>();
    for (const key of keys) {
      const group = classOf.get(key) as number;
      if (counted.has(group)) continue;
      counted.add(group);
      const root = this.compact(key);
      this.countNodes(root, true);
      if (typeof root !== "boolean" && !("ref" in root)) this.definitionByText.set(this.canonical.of(root), key);
    }
  }

  /** Whether a reference back into a cycle was written (the module then imports the runtime's `recursive`). */
  recursive = false;

  /**
   * The expression naming definition `key`: its constant, or, when that
   * constant is not written yet (a reference back into a cycle), the runtime's
   * `recursive` of a function returning it.
   */
  reference(key: string): string {
    const name = this.definitionConstant(key);
    if (this.written.has(name)) return name;
    this.recursive = true;
    return `/* @__PURE__ */ ${RECURSIVE}(() => ${name})`;
  }

  /** The constants, in the order they must be declared. */
  constants(): string {
    for (const key of this.keys) this.definitionConstant(key);
    return this.lines.join("");
  }

  /** A reference in a canonical text: its target's group, so equal subschemas of equal definitions read alike. */
  private readonly canonicalRef = (ref: string): string => `@${this.classOf.get(ref)}`;

  /**
   * The canonical text of `node`, written only for a subschema met twice (whether it is long
   * enough to share); each text once per number, built from its subschemas' texts.
   */
  private canonicalText(node: CompactNode): string {
    const n = this.canonical.of(node);
    let written = this.texts.get(n);
    if (written === undefined) {
      written = text(node, this.canonicalRef, (child) => (child === node ? null : this.canonicalText(child)));
      this.texts.set(n, written);
    }
    return written;
  }

  /** Counts the canonical text of every node below a definition's root (each group of equal definitions is counted once). */
  private countNodes(schema: Compact, root: boolean): void {
    if (typeof schema === "boolean" || "ref" in schema) return;
    if (!root) {
      const n = this.canonical.of(schema);
      this.uses.set(n, (this.uses.get(n) ?? 0) + 1);
    }
    for (const [, value] of schema.members) {
      if ("schema" in value) this.countNodes(value.schema, false);
      else if ("schemas" in value) for (const sub of value.schemas) this.countNodes(sub, false);
      else if ("pairs" in value) for (const [, sub] of value.pairs) this.countNodes(sub, false);
    }
  }

  private definitionConstant(key: string): string {
    const group = this.classOf.get(key) as number;
    let name = this.groupName.get(group);
    if (name === undefined) {
      name = `s${this.count++}`;
      this.groupName.set(group, name);
      this.declare(name, this.compact(key), true);
    }
    return name;
  }

  /** Writes `const name = <schema>;` after writing the constants it uses. */
  private declare(name: string, schema: Compact, root: boolean): void {
    this.writing.add(name);
    const expression = text(
      schema,
      (ref) => this.reference(ref),
      (node) => (root && node === schema ? null : this.sharedConstant(node)),
    );
    this.writing.delete(name);
    this.lines.push(`const ${name} = ${expression};\n`);
    this.written.add(name);
  }

  /** The constant of a repeated subschema (written on first use), or null for one written in place. */
  private sharedConstant(node: CompactNode): string | null {
    const n = this.canonical.of(node);
    const definition = this.definitionByText.get(n);
    if (definition !== undefined) return this.reference(definition);
    if ((this.uses.get(n) ?? 0) < 2 || this.canonicalText(node).length < SHARE_MIN_CHARS) return null;
    let name = this.sharedName.get(n);
    if (name === undefined) {
      name = `s${this.count++}`;
      this.sharedName.set(n, name);
      this.declare(name, node, true);
    }
    return name;
  }
}
