type Json = Record<string, unknown>;

/** A small deterministic random source (mulberry32). */
export class Random {
  constructor(private state: number) {}

  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = Math.imul(this.state ^ (this.state >>> 15), 1 | this.state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
}

const FORMAT_SAMPLES: Record<string, string> = {
  "date-time": "2024-02-29T23:59:60Z",
  date: "2024-01-31",
  uuid: "123e4567-e89b-12d3-a456-426614174000",
  uri: "https://example.com/a?b=c",
  "uri-reference": "../a/b",
  email: "someone@example.com",
  byte: "aGVsbG8=",
};
const STRING_CANDIDATES = [
  "abc",
  "a",
  "scope_1",
  "x-y",
  "ABC",
  "a1b2",
  "2024-01-31",
  "0",
  "v1.2.3",
  "mem_0123456789abcdef",
  "Größe",
  "😀",
  "a b",
  "",
];

/**
 * Produces values for a draft-07 JSON Schema (the subset the generator emits)
 * that are usually valid: the test decides validity with ajv, so "usually" is
 * enough. Strings exercise code-point lengths (astral characters near the limits).
 */
export class Sampler {
  constructor(
    private readonly definitions: (key: string) => unknown,
    private readonly random: Random,
  ) {}

  sample(schema: unknown, depth = 0): unknown {
    if (schema === true || schema === undefined) return this.random.pick([1, "s", null, { a: 1 }]);
    if (schema === false || schema === null || typeof schema !== "object") return "never";
    const s = schema as Json;
    if (typeof s.$ref === "string")
      return depth > 6 ? null : this.sample(this.definitions(s.$ref.replace("#/definitions/", "")), depth + 1);
    if (s.const !== undefined) return s.const;
    if (Array.isArray(s.enum)) return this.random.pick(s.enum);
    if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf))
      return this.sample(this.random.pick((s.anyOf ?? s.oneOf) as unknown[]), depth + 1);
    const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : [];
    let type = types.length > 0 ? this.random.pick(types) : s.properties || s.required ? "object" : undefined;
    if (type === "null" && this.random.next() < 0.6 && types.length > 1) type = types.find((t) => t !== "null");
    let value: unknown;
    switch (type) {
      case "null":
        value = null;
        break;
      case "boolean":
        value = this.random.next() < 0.5;
        break;
      case "integer":
      case "number":
        value = this.number(s, type === "integer");
        break;
      case "string":
        value = this.string(s);
        break;
      case "array":
        value = this.array(s, depth);
        break;
      case "object":
        value = this.object(s, depth);
        break;
      default:
        value = {};
    }
    for (const part of (s.allOf ?? []) as unknown[]) value = this.merge(value, part, depth);
    return value;
  }

  private merge(value: unknown, part: unknown, depth: number): unknown {
    const p = part as Json;
    if (p.if !== undefined) {
      const condition = ((p.if as Json).properties ?? {}) as Record<string, Json>;
      const holds = Object.entries(condition).every(([key, rule]) => (value as Json | null)?.[key] === rule.const);
      if (!holds || p.then === undefined) return value;
      const extra = this.sample(p.then, depth + 1);
      return typeof extra === "object" && extra !== null ? { ...extra, ...(value as Json) } : value;
    }
    const extra = this.sample(part, depth + 1);
    const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);
    return isObject(value) && isObject(extra) ? { ...(extra as Json), ...(value as Json) } : extra;
  }

  private number(s: Json, integer: boolean): number {
    const low =
      typeof s.minimum === "number" ? s.minimum : typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum + 1 : -5;
    const high =
      typeof s.maximum === "number"
        ? s.maximum
        : typeof s.exclusiveMaximum === "number"
          ? s.exclusiveMaximum - 1
          : low + 100;
    const choice = this.random.pick([low, high, low + (high - low) / 2, low + 1]);
    return integer ? Math.round(choice) : choice;
  }

  private string(s: Json): string {
    if (typeof s.format === "string" && FORMAT_SAMPLES[s.format] !== undefined && this.random.next() < 0.8)
      return FORMAT_SAMPLES[s.format] as string;
    const min = typeof s.minLength === "number" ? s.minLength : 0;
    const max = typeof s.maxLength === "number" ? s.maxLength : min + 12;
    if (typeof s.pattern === "string") {
      const regex = new RegExp(s.pattern, "u");
      const matching = STRING_CANDIDATES.filter((c) => regex.test(c) && [...c].length >= min && [...c].length <= max);
      if (matching.length > 0) return this.random.pick(matching);
    }
    const length = this.random.pick([min, max, Math.min(max, min + 3)]);
    if (length > 0 && this.random.next() < 0.4) return `${"a".repeat(length - 1)}😀`; // one code point, two UTF-16 units
    return "b".repeat(length);
  }

  private array(s: Json, depth: number): unknown[] {
    const min = typeof s.minItems === "number" ? s.minItems : 0;
    const max = Math.min(typeof s.maxItems === "number" ? s.maxItems : min + 3, min + 3, depth > 4 ? min : min + 3);
    const count = min + this.random.int(max - min + 1);
    return Array.from({ length: count }, () => this.sample(s.items, depth + 1));
  }

  private object(s: Json, depth: number): Json {
    const properties = (s.properties ?? {}) as Record<string, unknown>;
    const required = new Set((s.required ?? []) as string[]);
    const out: Json = {};
    for (const [name, schema] of Object.entries(properties)) {
      if (required.has(name) || (depth < 4 && this.random.next() < 0.6)) out[name] = this.sample(schema, depth + 1);
    }
    for (const name of required) if (!(name in out)) out[name] = "x";
    if (typeof s.additionalProperties === "object" && this.random.next() < 0.5)
      out.extra_key = this.sample(s.additionalProperties, depth + 1);
    return out;
  }
}

const REPLACEMENTS: unknown[] = [
  null,
  0,
  -1,
  1.5,
  2 ** 53,
  "",
  "x",
  "😀😀",
  "b".repeat(300),
  true,
  [],
  {},
  { unexpected: 1 },
  [1, 1],
];

/** A copy of `value` with one random change somewhere inside: a replaced, dropped, added or duplicated part. */
export function mutate(value: unknown, random: Random): unknown {
  const copy = JSON.parse(JSON.stringify(value ?? null)) as unknown;
  const containers: (Json | unknown[])[] = [];
  const walk = (node: unknown) => {
    if (typeof node !== "object" || node === null) return;
    containers.push(node as Json);
    for (const child of Object.values(node)) walk(child);
  };
  walk(copy);
  if (containers.length === 0 || random.next() < 0.15) return random.pick(REPLACEMENTS);
  const target = random.pick(containers);
  const keys = Object.keys(target);
  const action = random.int(4);
  if (Array.isArray(target)) {
    if (action === 0 && target.length > 0) target.push(JSON.parse(JSON.stringify(target[0])) as unknown);
    else if (action === 1) target.length = 0;
    else if (keys.length > 0) target[random.int(target.length)] = random.pick(REPLACEMENTS);
    else target.push(random.pick(REPLACEMENTS));
  } else if (action === 0 && keys.length > 0) delete target[random.pick(keys)];
  else if (action === 1) target.unexpected_key = random.pick(REPLACEMENTS);
  else if (keys.length > 0) target[random.pick(keys)] = random.pick(REPLACEMENTS);
  return copy;
}
