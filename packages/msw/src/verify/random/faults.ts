// Deliberate faults: about one request in four breaks exactly one rule of the contract,
// at one site of its drawn values, and is labelled with the kind of rule it breaks.
// A kind is drawn first (among the kinds the request has a site for), then a site, so
// every kind is exercised about as often wherever it applies. Each fault is one the
// contract's own schemas refuse; the conformance suite checks that with a validator built from
// the contract, site by site.
import { isObject, numericBounds, type Schema } from "./contract.js";
import type { Random } from "./rng.js";
import { fitString, offPattern } from "./strings.js";
import type { ObjectSite, Part, ValueSite } from "./values.js";

export const FAULT_KINDS = [
  "type",
  "missing-required",
  "out-of-bounds",
  "bad-enum",
  "unknown-member",
  "malformed-id",
  "pattern",
  "format",
  "duplicate-items",
] as const;

/** The kind of rule a faulted request breaks. */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Share of requests that carry a fault (when they have a site for one). */
export const FAULT_SHARE = 0.25;

/** The one fault of a request. */
export interface Fault {
  readonly kind: FaultKind;
  readonly part: Part;
  /** pointer of the faulted value (of the object, for a left-out or unknown member) */
  readonly pointer: string;
  /** the parameter's location, for a fault in the parameters */
  readonly location: string | null;
  /** what was done, in a few words */
  readonly detail: string;
}

/** The request's two parts, as drawn; a fault changes one of them in place. */
export interface Parts {
  params: Record<string, unknown>;
  body: unknown;
}

type Change = { readonly fault: Fault; readonly apply: (parts: Parts) => void };

function split(pointer: string): string[] {
  return pointer === ""
    ? []
    : pointer
        .slice(1)
        .split("/")
        .map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function containerOf(parts: Parts, part: Part, pointer: string): [Record<string, unknown> | unknown[], string] | null {
  const keys = split(pointer);
  let node: unknown = part === "params" ? parts.params : parts.body;
  for (const key of keys.slice(0, -1)) {
    node = Array.isArray(node) ? node[Number(key)] : isObject(node) ? node[key] : undefined;
    if (node === undefined) return null;
  }
  return Array.isArray(node) || isObject(node) ? [node as Record<string, unknown>, keys.at(-1)!] : null;
}

function valueAt(parts: Parts, part: Part, pointer: string): unknown {
  if (pointer === "") return part === "params" ? parts.params : parts.body;
  const found = containerOf(parts, part, pointer);
  return found === null ? undefined : (found[0] as Record<string, unknown>)[found[1]];
}

function setAt(parts: Parts, part: Part, pointer: string, value: unknown): void {
  if (pointer === "" && part === "body") parts.body = value;
  const found = containerOf(parts, part, pointer);
  if (found !== null && pointer !== "") (found[0] as Record<string, unknown>)[found[1]] = value;
}

function typeName(schema: Schema): string | undefined {
  if (typeof schema.type === "string") return schema.type;
  if (isObject(schema.properties)) return "object";
  if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === "string")) return "string";
  return undefined;
}

/** A value of another JSON type than the schema's (null too, where null is not allowed). */
function wrongType(rng: Random, site: ValueSite): unknown | undefined {
  const type = typeName(site.schema);
  if (type === undefined) return undefined;
  // a parameter travels as text: only a number or boolean parameter can get text of the wrong type
  if (site.location !== null)
    return type === "integer" || type === "number" || type === "boolean" ? "not-a-value" : undefined;
  const other: Record<string, unknown> = {
    string: 12345,
    integer: "not-a-number",
    number: "not-a-number",
    boolean: "not-a-boolean",
    array: "not-an-array",
    object: "not-an-object",
  };
  if (!(type in other)) return undefined;
  return site.schema.nullable !== true && rng.chance(0.3) ? null : other[type];
}

function outOfBounds(
  rng: Random,
  site: ValueSite,
  current: unknown,
  drawItem: DrawItem,
): [unknown, string] | undefined {
  const { schema } = site;
  const type = typeName(schema);
  if (type === "string" && !Array.isArray(schema.enum) && schema.format === undefined) {
    const sides: [number, string][] = [];
    if (typeof schema.maxLength === "number") sides.push([schema.maxLength + 1, `maxLength ${schema.maxLength}`]);
    if (typeof schema.minLength === "number" && schema.minLength >= 1)
      sides.push([schema.minLength - 1, `minLength ${schema.minLength}`]);
    if (sides.length === 0) return undefined;
    const [length, rule] = rng.pick(sides);
    const style = site.location === null ? "plain" : "identifier";
    const text = fitString(rng, { pattern: schema.pattern, minLength: length, maxLength: length }, length, style);
    return [text, `${rule}: ${length} characters`];
  }
  if (type === "integer" || type === "number") {
    const { min, max, minExclusive, maxExclusive } = numericBounds(schema);
    const step = type === "integer" ? 1 : 0.5;
    const sides: [number, string][] = [];
    if (max !== undefined) sides.push([maxExclusive ? max : max + step, `maximum ${max}`]);
    if (min !== undefined) sides.push([minExclusive ? min : min - step, `minimum ${min}`]);
    if (sides.length === 0) return undefined;
    const [value, rule] = rng.pick(sides);
    return [type === "integer" ? Math.round(value) : value, `${rule}: ${value}`];
  }
  if (type === "array" && Array.isArray(current)) {
    const sides: ["more" | "fewer", number][] = [];
    if (typeof schema.maxItems === "number") sides.push(["more", schema.maxItems]);
    // an empty list of query values is no list at all on the wire: only a body can hold one
    if (typeof schema.minItems === "number" && schema.minItems >= 1 && (site.location === null || schema.minItems > 1))
      sides.push(["fewer", schema.minItems]);
    if (sides.length === 0) return undefined;
    const [side, bound] = rng.pick(sides);
    if (side === "fewer") return [current.slice(0, bound - 1), `minItems ${bound}: ${bound - 1} items`];
    const items = [...current];
    for (let tries = 0; items.length <= bound && tries < 4 * bound + 8; tries++) {
      const item = drawItem(schema.items);
      if (schema.uniqueItems !== true || !items.some((other) => JSON.stringify(other) === JSON.stringify(item)))
        items.push(item);
    }
    return items.length > bound ? [items, `maxItems ${bound}: ${items.length} items`] : undefined;
  }
  return undefined;
}

function badEnum(site: ValueSite): [string, string] | undefined {
  const values = Array.isArray(site.schema.enum) ? site.schema.enum : [];
  const first = values.find((v): v is string => typeof v === "string");
  if (first === undefined) return undefined;
  const wrong = [first.toUpperCase(), `not-${first}`].find((candidate) => !values.includes(candidate))!;
  return [wrong, `not in enum: ${JSON.stringify(wrong)}`];
}

/** Draws one more item of an array's item schema (for an array made too long). */
export type DrawItem = (schema: unknown) => unknown;

/** Every change of `kind` the request's sites allow. */
function changesOf(
  kind: FaultKind,
  rng: Random,
  values: readonly ValueSite[],
  objects: readonly ObjectSite[],
  parts: Parts,
  drawItem: DrawItem,
): (() => Change | undefined)[] {
  const present = (site: ValueSite) => valueAt(parts, site.part, site.pointer) !== undefined;
  const fault = (site: ValueSite | ObjectSite, detail: string, pointer = site.pointer): Fault => ({
    kind,
    part: site.part,
    pointer,
    location: site.location,
    detail,
  });
  const replace = (site: ValueSite, value: unknown, detail: string) => ({
    fault: fault(site, detail),
    apply: (p: Parts) => setAt(p, site.part, site.pointer, value),
  });
  const strings = values.filter(
    (s) =>
      present(s) && typeName(s.schema) === "string" && !Array.isArray(s.schema.enum) && s.schema.format === undefined,
  );
  switch (kind) {
    case "type":
      return values.filter(present).map((site) => () => {
        const value = wrongType(rng, site);
        return value === undefined
          ? undefined
          : replace(site, value, `type: ${JSON.stringify(value)} for ${typeName(site.schema)}`);
      });
    case "missing-required":
      return objects
        .filter((o) => o.required.length > 0 && valueAt(parts, o.part, o.pointer) !== undefined)
        .map((site) => () => {
          const name = rng.pick(site.required);
          return {
            fault: fault(site, `required member ${name} left out`),
            apply: (p: Parts) => {
              const object = valueAt(p, site.part, site.pointer) as Record<string, unknown>;
              delete object[name];
            },
          };
        });
    case "out-of-bounds":
      return values.filter(present).map((site) => () => {
        const found = outOfBounds(rng, site, valueAt(parts, site.part, site.pointer), drawItem);
        return found === undefined ? undefined : replace(site, found[0], found[1]);
      });
    case "bad-enum":
      return values
        .filter((s) => present(s) && Array.isArray(s.schema.enum))
        .map((site) => () => {
          const found = badEnum(site);
          return found === undefined ? undefined : replace(site, found[0], found[1]);
        });
    case "unknown-member":
      return objects
        .filter((o) => o.closed && o.part === "body" && isObject(valueAt(parts, o.part, o.pointer)))
        .map((site) => () => ({
          fault: fault(site, "unknown member unexpected_member"),
          apply: (p: Parts) => {
            (valueAt(p, site.part, site.pointer) as Record<string, unknown>).unexpected_member = "x";
          },
        }));
    case "malformed-id":
    case "pattern":
      return strings
        .filter((s) => s.identity === (kind === "malformed-id") && typeof s.schema.pattern === "string")
        .map((site) => () => {
          const text = offPattern(rng, site.schema);
          return text === null
            ? undefined
            : replace(site, text, `pattern ${String(site.schema.pattern)}: ${JSON.stringify(text)}`);
        });
    case "format":
      return values
        .filter((s) => present(s) && (s.schema.format === "date-time" || s.schema.format === "date"))
        .map((site) => () => {
          const text = rng.pick(["yesterday", "2030-02-30T10:00:00Z", "2030/01/01 10:00"]);
          return replace(site, text, `format ${String(site.schema.format)}: ${JSON.stringify(text)}`);
        });
    case "duplicate-items":
      return values
        .filter((s) => present(s) && s.schema.uniqueItems === true)
        .map((site) => () => {
          const items = valueAt(parts, site.part, site.pointer);
          if (!Array.isArray(items) || items.length === 0) return undefined;
          const max = typeof site.schema.maxItems === "number" ? site.schema.maxItems : Number.POSITIVE_INFINITY;
          if (items.length >= max && items.length < 2) return undefined;
          const copy = items.length < max ? [...items, items[0]] : [...items.slice(0, -1), items[0]];
          return replace(site, copy, "uniqueItems: the first item repeated");
        });
  }
}

/**
 * Applies one fault to the parts (in place) and returns it; null when the request has no
 * site for any kind (or for `only`, when given). The kind is drawn first, then the site.
 */
export function injectFault(
  rng: Random,
  values: readonly ValueSite[],
  objects: readonly ObjectSite[],
  parts: Parts,
  drawItem: DrawItem,
  only?: FaultKind,
): Fault | null {
  const kinds = only === undefined ? rng.shuffle(FAULT_KINDS) : [only];
  for (const kind of kinds) {
    const sites = rng.shuffle(changesOf(kind, rng, values, objects, parts, drawItem));
    for (const site of sites) {
      const change = site();
      if (change === undefined) continue;
      change.apply(parts);
      return change.fault;
    }
  }
  return null;
}
