import { docComment, propertyKey, tsString } from "./syntax.js";

/**
 * The code builder of type expressions: literals, references, arrays, tuples,
 * unions, intersections, object types and named declarations. The emitters that
 * turn schemas into TypeScript types write with it: the spec's types
 * (`targets/types/`) and the contract facts' types (`emit/facts/fact-types.ts`).
 * Names and text from the spec go through `syntax.ts` here, so a type built with
 * these functions cannot carry a string unescaped, and each type knows its kind,
 * so operators get parentheses exactly where they need them. Data modules write
 * their values with `value.ts`; the other emitters name types the IR already
 * knows (`type-expressions.ts`) and write strings through `syntax.ts`.
 */

/**
 * How a type expression binds: an `atom` never needs parentheses; an `operator`
 * (`readonly T[]`) only as an array's item; the others as any operand.
 */
export type TypeKind = "atom" | "object" | "union" | "intersection" | "operator";

/**
 * A TypeScript type expression. `print(indent)` writes it for a line indented
 * by `indent` (only object types span lines); `text` is set for atoms.
 */
export interface TsType {
  readonly kind: TypeKind;
  readonly text?: string;
  print(indent: string): string;
}

class Atom implements TsType {
  readonly kind = "atom" as const;
  constructor(readonly text: string) {}
  print(): string {
    return this.text;
  }
}

class Joined implements TsType {
  constructor(
    readonly kind: "union" | "intersection",
    private readonly members: readonly TsType[],
  ) {}
  print(indent: string): string {
    const separator = this.kind === "union" ? " | " : " & ";
    let text = "";
    for (const member of this.members) text += (text === "" ? "" : separator) + operand(member, this.kind, indent);
    return text;
  }
}

class ArrayOf implements TsType {
  readonly kind = "atom" as const;
  constructor(private readonly item: TsType) {}
  print(indent: string): string {
    return `${operand(this.item, "atom", indent)}[]`;
  }
}

class Tuple implements TsType {
  readonly kind = "atom" as const;
  constructor(
    private readonly items: readonly TsType[],
    private readonly rest: TsType | null,
  ) {}
  print(indent: string): string {
    const parts = this.items.map((t) => t.print(indent));
    if (this.rest !== null) parts.push(`...${new ArrayOf(this.rest).print(indent)}`);
    return `[${parts.join(", ")}]`;
  }
}

/** A type written as is: a keyword (`string`), a name, or an indexed access of names. Never spec text. */
export function ref(text: string): TsType {
  return new Atom(text);
}

export const UNKNOWN = ref("unknown");
export const NEVER = ref("never");

/** `Name["key"]`: an indexed access with the key as a string literal. */
export function indexed(base: TsType, key: string | number): TsType {
  return ref(`${operand(base, "atom", "")}[${typeof key === "number" ? String(key) : tsString(key)}]`);
}

/** A literal type of a JSON scalar: a string literal, a number, `true`, `false` or `null`; `unknown` for anything else. */
export function literal(value: unknown): TsType {
  if (typeof value === "string") return ref(tsString(value));
  if (typeof value === "number" && Number.isFinite(value)) return ref(String(value));
  if (typeof value === "boolean" || value === null) return ref(String(value));
  return UNKNOWN;
}

function operand(type: TsType, within: TypeKind, indent: string): string {
  const text = type.print(indent);
  if (type.kind === "atom" || type.kind === "object" || type.kind === within) return text;
  if (type.kind === "operator" && within !== "atom") return text;
  return `(${text})`;
}

/** `A | B | ...`, each member once; `never` for none; a member `unknown` makes the whole `unknown`. */
export function union(types: readonly TsType[]): TsType {
  const members = dedupe(types, "never");
  if (members === null) return UNKNOWN;
  if (members.length === 0) return NEVER;
  return members.length === 1 ? (members[0] as TsType) : new Joined("union", members);
}

/** `A & B & ...`; `unknown` members dropped; `unknown` for none; a member `never` makes the whole `never`. */
export function intersection(types: readonly TsType[]): TsType {
  const members = dedupe(types, "unknown");
  if (members === null) return NEVER;
  if (members.length === 0) return UNKNOWN;
  return members.length === 1 ? (members[0] as TsType) : new Joined("intersection", members);
}

/**
 * The types with each atom once (object types are compared by identity) and
 * without `neutral`; null when one is the absorbing keyword (`unknown` in a
 * union, `never` in an intersection).
 */
function dedupe(types: readonly TsType[], neutral: "never" | "unknown"): TsType[] | null {
  const absorbing = neutral === "never" ? "unknown" : "never";
  const out: TsType[] = [];
  const seen = new Set<string | TsType>();
  for (const t of types) {
    if (t.text === neutral) continue;
    if (t.text === absorbing) return null;
    const key = t.text ?? t;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(t);
  }
  return out;
}

/** `T[]`. */
export function array(item: TsType): TsType {
  return new ArrayOf(item);
}

class ReadonlyArrayOf implements TsType {
  readonly kind = "operator" as const;
  constructor(private readonly item: TsType) {}
  print(indent: string): string {
    return `readonly ${new ArrayOf(this.item).print(indent)}`;
  }
}

/** `readonly T[]`. */
export function readonlyArray(item: TsType): TsType {
  return new ReadonlyArrayOf(item);
}

/** `[A, B, ...R[]]`: a tuple with an optional rest element. */
export function tuple(items: readonly TsType[], rest: TsType | null): TsType {
  return new Tuple(items, rest);
}

/** One member of an object type. */
export interface TsMember {
  /** The member name as the wire spells it (quoted when not an identifier). */
  readonly name: string;
  readonly type: TsType;
  readonly optional?: boolean;
  readonly readonly?: boolean;
  /** Lines of its doc comment (free text). */
  readonly doc?: readonly string[];
}

class ObjectType implements TsType {
  readonly kind = "object" as const;
  constructor(
    private readonly members: readonly TsMember[],
    private readonly index: TsType | null,
    private readonly readonlyIndex: boolean,
  ) {}
  print(indent: string): string {
    if (this.members.length === 0 && this.index === null) return "{}";
    const inner = `${indent}    `;
    let text = "{\n";
    for (const member of this.members) {
      if (member.doc !== undefined) text += docComment(member.doc, inner);
      text += `${inner}${member.readonly === true ? "readonly " : ""}${propertyKey(member.name)}${member.optional === true ? "?" : ""}: ${member.type.print(inner)};\n`;
    }
    if (this.index !== null)
      text += `${inner}${this.readonlyIndex ? "readonly " : ""}[key: string]: ${this.index.print(inner)};\n`;
    return `${text}${indent}}`;
  }
}

/**
 * An object type, one member a line (four spaces in from the line it starts
 * on), each after its doc comment, with an optional index signature
 * `[key: string]: T` last (`readonly` with `readonlyIndex`).
 */
export function object(members: readonly TsMember[], index: TsType | null, readonlyIndex = false): TsType {
  return new ObjectType(members, index, readonlyIndex);
}

/**
 * `export type Name = ...;` after its doc comment. A type alias, not an
 * interface, also for object types: an object type alias is assignable to
 * `Record<string, unknown>` (it has an implicit index signature), as callers
 * that treat a body as a plain record expect.
 */
export function namedType(name: string, type: TsType, doc: readonly string[]): string {
  return `${docComment(doc)}export type ${name} = ${type.print("")};\n`;
}
