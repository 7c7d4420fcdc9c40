// Drawing one request's values from the contract's schemas: optional members present
// half the time, a random enum value and oneOf/anyOf branch, strings and numbers at
// their bounds as often as typical ones, occasionally null where allowed. Ids come from
// earlier answers 60% of the time (identity.ts), as references each side resolves.
//
// Every value drawn is recorded as a site (where it is, under which schema), and every
// object as an object site (which required members it has, whether it is closed): the
// faults (faults.ts) are applied at those sites.
//
// Two streams drive the draws: `shape` decides everything about the request's form,
// `ids` decides which ids come from answers. A request's form therefore does not
// change with the ids seen so far; only which of its ids are real does.
import { type Contract, type ParameterLocation, type Schema, isObject, pointerStep } from "./contract.js";
import {
  AnswerRef,
  COMPANIONS,
  type Catalogue,
  ETAG_HEADER,
  type IdRecord,
  idKind,
  memberFor,
  type RecordMember,
  valueKind,
} from "./identity.js";
import type { Random } from "./rng.js";
import { drawNumber, fitsScalar } from "./scalars.js";
import { drawString } from "./strings.js";

/** Share of id members (and ETag headers) filled from earlier answers when some are known. */
export const REAL_ID_SHARE = 0.6;
/** Share of optional members present. */
export const OPTIONAL_SHARE = 0.5;
/** Nesting below which objects get only their required members and arrays their fewest items. */
const DEEP = 8;

/** Which part of the request a value is in. */
export type Part = "params" | "body";

/** Where a value is drawn. */
export interface At {
  readonly part: Part;
  /** JSON pointer within the part (the parameters are one object keyed by name) */
  readonly pointer: string;
  /** the member's name ("" for the body itself) */
  readonly name: string;
  readonly depth: number;
  /** for a parameter: where it travels */
  readonly location: ParameterLocation | null;
}

/** A drawn value and the schema it was drawn from. */
export interface ValueSite extends At {
  /** the schema, references followed and allOf merged */
  readonly schema: Schema;
  /** an id member (its random value is the fallback of a reference) */
  readonly identity: boolean;
}

/** A drawn object: its required members and whether it accepts unknown members. */
export interface ObjectSite extends At {
  readonly schema: Schema;
  /** required members the object holds (a path parameter is never one: it cannot be left out) */
  readonly required: readonly string[];
  readonly closed: boolean;
}

/** Where ids come from: the catalogue of earlier answers and the stream deciding real or random. */
export interface IdSource {
  readonly catalogue: Catalogue;
  readonly rng: Random;
}

/** True for a member that holds an id: a string without enum whose name names an id kind. */
export function isIdMember(name: string, schema: Schema): boolean {
  return (
    idKind(name) !== null && schema.type === "string" && !Array.isArray(schema.enum) && schema.format === undefined
  );
}

/** True for a member whose value may come from an answer: an id, or a family or revision without enum. */
export function isReferable(name: string, schema: Schema): boolean {
  if (isIdMember(name, schema)) return true;
  return COMPANIONS.has(name) && !Array.isArray(schema.enum) && (schema.type === "string" || schema.type === "integer");
}

/** Draws values for one request and records their sites. */
export class ValueDrawer {
  readonly values: ValueSite[] = [];
  readonly objects: ObjectSite[] = [];

  constructor(
    private readonly contract: Contract,
    private readonly shape: Random,
    private readonly ids: IdSource,
  ) {}

  /** A value of `node`'s schema drawn at `at`. */
  draw(node: unknown, at: At): unknown {
    let schema = this.contract.resolve(node);
    const alternatives = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
    let tag: [string, string] | null = null;
    if (Array.isArray(alternatives) && alternatives.length > 0) {
      const index = this.shape.int(0, alternatives.length - 1);
      const { oneOf: _one, anyOf: _any, discriminator, ...base } = schema;
      const branch = this.contract.resolve(alternatives[index]);
      schema = this.contract.resolve({ allOf: [base, branch] });
      const ref = isObject(alternatives[index]) ? alternatives[index].$ref : undefined;
      if (
        isObject(discriminator) &&
        typeof discriminator.propertyName === "string" &&
        isObject(discriminator.mapping)
      ) {
        const value = Object.entries(discriminator.mapping).find(([, target]) => target === ref)?.[0];
        if (value !== undefined) tag = [discriminator.propertyName, value];
      }
    }
    this.values.push({ ...at, schema, identity: isIdMember(at.name, schema) });
    if (schema.nullable === true && this.shape.chance(0.1)) return null;
    const value = this.drawOf(schema, at);
    if (tag !== null && isObject(value)) (value as Record<string, unknown>)[tag[0]] = tag[1];
    return value;
  }

  private drawOf(schema: Schema, at: At): unknown {
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return this.shape.pick(schema.enum);
    const type = schema.type ?? (isObject(schema.properties) ? "object" : undefined);
    const identifier = isIdMember(at.name, schema);
    if (type === "object") return this.object(schema, at);
    if (type === "array") return this.array(schema, at);
    if (type === "string") return drawString(this.shape, schema, { identifier, header: at.location === "header" });
    if (type === "integer" || type === "number") return drawNumber(this.shape, schema);
    if (type === "boolean") return this.shape.chance(0.5);
    return this.any(at);
  }

  /** Any JSON value, for a schema that says nothing of its type. */
  private any(at: At): unknown {
    const roll = this.shape.int(0, 4);
    const text = () => drawString(this.shape, { minLength: 1, maxLength: 40 }, { identifier: false, header: false });
    if (roll === 0 || at.depth >= DEEP) return text();
    if (roll === 1) return this.shape.int(-5, 1000);
    if (roll === 2) return this.shape.chance(0.5);
    if (roll === 3) return Array.from({ length: this.shape.int(0, 3) }, text);
    return Object.fromEntries(Array.from({ length: this.shape.int(1, 3) }, (_, i) => [`field_${i + 1}`, text()]));
  }

  /**
   * An object: required members, optional ones half the time, free members where the
   * schema allows them and names none. `locations` marks the parameters' object.
   */
  object(schema: Schema, at: At, locations?: ReadonlyMap<string, ParameterLocation>): Record<string, unknown> {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
    const names = Object.keys(properties).filter((name) => {
      if (this.contract.resolve(properties[name]).readOnly === true) return false;
      const optional = !required.has(name);
      return !optional || (at.depth < DEEP && this.shape.chance(OPTIONAL_SHARE));
    });
    const plan = this.identities(names, (name) => this.contract.resolve(properties[name]), at.part === "params");
    const out: Record<string, unknown> = {};
    for (const name of names) {
      const child: At = {
        part: at.part,
        pointer: `${at.pointer}/${pointerStep(name)}`,
        name,
        depth: at.depth + 1,
        location: locations?.get(name) ?? null,
      };
      const drawn = this.draw(properties[name], child);
      const ref = plan.get(name);
      out[name] = ref === undefined ? drawn : new AnswerRef(ref.request, ref.pointer, ref.kind, drawn);
    }
    const extra = schema.additionalProperties;
    if (Object.keys(properties).length === 0 && extra !== false && extra !== undefined && at.depth < DEEP) {
      for (let i = 0; i < this.shape.int(0, 3); i++) {
        const name = `entry_${i + 1}`;
        const child: At = { ...at, pointer: `${at.pointer}/${name}`, name, depth: at.depth + 1 };
        out[name] = isObject(extra) ? this.draw(extra, child) : this.any(child);
      }
    }
    this.objects.push({
      ...at,
      schema,
      required: names.filter((name) => required.has(name) && locations?.get(name) !== "path"),
      closed: extra === false && Object.keys(properties).length > 0,
    });
    return out;
  }

  private array(schema: Schema, at: At): unknown[] {
    const min = typeof schema.minItems === "number" ? schema.minItems : 0;
    const max = typeof schema.maxItems === "number" ? schema.maxItems : min + 4;
    const roll = this.shape.float();
    let count = this.shape.int(min, Math.min(max, min + 3));
    if (roll < 0.2 || at.depth >= DEEP) count = min;
    else if (roll < 0.3 && typeof schema.maxItems === "number" && at.depth <= 2) count = max;
    else if (roll < 0.38) count = Math.min(max, min + 1);
    const items: unknown[] = [];
    const seen = new Set<string>();
    const itemSchema = this.contract.resolve(schema.items);
    const ids = isIdMember(at.name, itemSchema);
    for (let tries = 0; items.length < count && tries < count * 4 + 4; tries++) {
      const marks = [this.values.length, this.objects.length] as const;
      const child: At = { ...at, pointer: `${at.pointer}/${items.length}`, depth: at.depth + 1 };
      let item = this.draw(schema.items, child);
      let key = JSON.stringify(item);
      const real = ids ? this.idFromAnswers(at.name, itemSchema, item) : undefined;
      // two references to one id are the same item: they are compared by the id they name
      if (real !== undefined) [item, key] = [real.ref, JSON.stringify(real.value)];
      if (schema.uniqueItems === true && seen.has(key)) {
        // a repeated item is drawn again; the sites of the one dropped go with it
        this.values.length = marks[0];
        this.objects.length = marks[1];
        continue;
      }
      seen.add(key);
      items.push(item);
    }
    return items;
  }

  /** An id of the member's kind from an earlier answer (60% of the time when one fits), else undefined. */
  private idFromAnswers(
    name: string,
    schema: Schema,
    fallback: unknown,
  ): { ref: AnswerRef; value: string | number } | undefined {
    const kind = idKind(name);
    if (kind === null) return undefined;
    const values = this.ids.catalogue.values(kind);
    if (values.length === 0 || !this.ids.rng.chance(REAL_ID_SHARE)) return undefined;
    const record = this.ids.rng.pick(this.ids.catalogue.recordsOf(kind, this.ids.rng.pick(values)));
    const member = memberFor(record, name);
    return member && fitsScalar(schema, member.value)
      ? { ref: new AnswerRef(record.request, member.pointer, kind, fallback), value: member.value }
      : undefined;
  }

  /**
   * Which members of one object take their value from an earlier answer. Each id
   * member, family and revision is real with probability {@link REAL_ID_SHARE}; the real
   * ids come, as far as possible, from one answer object (the one covering most of the
   * object's members), whose family, revision and ETag go with them.
   */
  private identities(
    names: readonly string[],
    schemaOf: (name: string) => Schema,
    parameters: boolean,
  ): Map<string, Omit<AnswerRef, "fallback" | "toJSON">> {
    const { catalogue, rng } = this.ids;
    const plan = new Map<string, Omit<AnswerRef, "fallback" | "toJSON">>();
    const real = names.filter((name) => {
      const kind = isReferable(name, schemaOf(name)) ? valueKind(name) : null;
      return kind !== null && catalogue.values(kind).length > 0 && rng.chance(REAL_ID_SHARE);
    });
    const covers = (record: IdRecord, name: string) => {
      const member = real.includes(name) || COMPANIONS.has(name) ? memberFor(record, name) : undefined;
      return member !== undefined && fitsScalar(schemaOf(name), member.value) ? member : undefined;
    };
    const chosen = new Map<string, IdRecord>();
    let anchor: IdRecord | undefined;
    let best = -1;
    for (const name of real) {
      const kind = valueKind(name)!;
      const records = catalogue.recordsOf(kind, rng.pick(catalogue.values(kind)));
      let record = records[0]!;
      let coverage = -1;
      for (const candidate of records) {
        const count = names.filter((other) => covers(candidate, other) !== undefined).length;
        if (count > coverage) [record, coverage] = [candidate, count];
      }
      chosen.set(name, record);
      if (!COMPANIONS.has(name) && coverage > best) [anchor, best] = [record, coverage];
    }
    const take = (name: string, record: IdRecord, member: RecordMember) =>
      plan.set(name, { request: record.request, pointer: member.pointer, kind: valueKind(name) ?? name });
    for (const name of names) {
      const fromAnchor = anchor && covers(anchor, name);
      if (fromAnchor && (real.includes(name) || rng.chance(0.9))) take(name, anchor!, fromAnchor);
      else if (real.includes(name)) {
        const record = chosen.get(name)!;
        const member = covers(record, name);
        if (member) take(name, record, member);
      } else if (parameters && ETAG_HEADER.test(name)) {
        const answers = catalogue.etagAnswers();
        if (anchor?.etag && rng.chance(0.9))
          plan.set(name, { request: anchor.request, pointer: "header:etag", kind: "etag" });
        else if (answers.length > 0 && rng.chance(REAL_ID_SHARE))
          plan.set(name, { request: rng.pick(answers), pointer: "header:etag", kind: "etag" });
      }
    }
    return plan;
  }
}
