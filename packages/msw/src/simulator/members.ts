/**
 * Dotted member paths (`artifact.artifact_id`) and JSON pointers (`/records/0`)
 * over plain JSON records, and the stable text of a JSON value. Every object
 * this module creates has a null prototype, so a member named `__proto__` is an
 * ordinary member.
 */

/** A JSON object as the simulator stores it. */
export type JsonRecord = Record<string, unknown>;

/** A fresh object without a prototype. */
export function emptyRecord(): JsonRecord {
  return Object.create(null) as JsonRecord;
}

/** True for a JSON object (not an array, not null). */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value at a dotted path, or undefined when a step is missing. */
export function getPath(value: unknown, path: string): unknown {
  let node = value;
  for (const step of path.split(".")) {
    if (!isRecord(node) || !Object.hasOwn(node, step)) return undefined;
    node = node[step];
  }
  return node;
}

/**
 * The values at a dotted path: one, none when a step is missing, one per item
 * after a list step (`member[]`) and one per key after a key step (`member{}`).
 */
export function valuesAt(value: unknown, path: string): unknown[] {
  let values: unknown[] = [value];
  for (const step of path.split(".")) {
    const list = step.endsWith("[]");
    const keys = step.endsWith("{}");
    const name = list || keys ? step.slice(0, -2) : step;
    values = values.flatMap((node) => {
      if (!isRecord(node) || !Object.hasOwn(node, name)) return [];
      const next = node[name];
      if (keys) return isRecord(next) ? Object.keys(next) : [];
      return list ? (Array.isArray(next) ? next : []) : [next];
    });
  }
  return values;
}

/** Sets the value at a dotted path, creating the objects on the way. */
export function setPath(target: JsonRecord, path: string, value: unknown): void {
  const steps = path.split(".");
  let node = target;
  for (const step of steps.slice(0, -1)) {
    const next = Object.hasOwn(node, step) ? node[step] : undefined;
    if (!isRecord(next)) node[step] = emptyRecord();
    node = node[step] as JsonRecord;
  }
  node[steps[steps.length - 1] as string] = value;
}

/** Removes the value at a dotted path, if any. */
export function deletePath(target: JsonRecord, path: string): void {
  const steps = path.split(".");
  const parent = steps.length === 1 ? target : getPath(target, steps.slice(0, -1).join("."));
  if (isRecord(parent)) delete parent[steps[steps.length - 1] as string];
}

/**
 * Wraps `value` so that it sits at the JSON pointer `pointer` (`""` is the
 * value itself; `/records/0` gives `{ records: [value] }`).
 */
export function placeAt(pointer: string, value: unknown): unknown {
  if (pointer === "") return value;
  const steps = pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  let out: unknown = value;
  for (const step of steps.reverse()) {
    if (/^\d+$/.test(step)) {
      const list: unknown[] = [];
      list[Number(step)] = out;
      out = list;
    } else {
      const wrapper = emptyRecord();
      wrapper[step] = out;
      out = wrapper;
    }
  }
  return out;
}

/** The value at a JSON pointer, or undefined. */
export function atPointer(value: unknown, pointer: string): unknown {
  if (pointer === "") return value;
  let node = value;
  for (const raw of pointer.slice(1).split("/")) {
    const step = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node) && /^\d+$/.test(step)) node = node[Number(step)];
    else if (isRecord(node) && Object.hasOwn(node, step)) node = node[step];
    else return undefined;
  }
  return node;
}

/** JSON text of `value` with object members in sorted order: equal values give equal text. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => stableJson(item ?? null)).join(",")}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The values each once, compared as JSON (members in any order), in their first places. */
export function unique<T>(values: readonly T[]): T[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = stableJson(value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A deep copy of a JSON value, every object with a null prototype. */
export function copyJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => copyJson(item)) as T;
  if (isRecord(value)) {
    const out = emptyRecord();
    for (const [key, item] of Object.entries(value)) out[key] = copyJson(item);
    return out as T;
  }
  return value;
}

/**
 * Whether every member of `when` has its value in `request` (dotted paths; an absent
 * member holds null), or one of its values for a list: the conditions of a list's
 * filters and of a creation's `set_when`.
 */
export function meetsWhen(request: unknown, when: Readonly<Record<string, unknown>>): boolean {
  return Object.entries(when).every(([member, wanted]) => {
    const actual = getPath(request, member) ?? null;
    return Array.isArray(wanted) ? wanted.includes(actual) : actual === wanted;
  });
}
