// A structural diff of two wire views (scripts/contract/wire-view.mjs), reported as
// JSON pointers, with a label that names the operation or schema each one belongs to.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** `added`: only ours has it; `removed`: only the release has it; `changed`: both, with other values. */
export type Change = "added" | "removed" | "changed";

export interface WireDifference {
  readonly pointer: string;
  readonly change: Change;
  /** `operation list_scopes`, `schema ScopePage`, `response Conflict`, or `document` */
  readonly subject: string;
  readonly ours: string;
  readonly release: string;
}

const METHODS = new Set(["get", "put", "post", "delete", "patch"]);
const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === "object" && !Array.isArray(value);
const segment = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");
const show = (value: Json | undefined) => (value === undefined ? "(absent)" : JSON.stringify(value).slice(0, 200));

/**
 * Every place where `ours` and `release` differ. Objects are compared member by member;
 * arrays element by element when their lengths agree, otherwise as one value; numbers by
 * value (the release writes `0.0` where YAML reads `0`).
 */
export function diffWire(ours: Json, release: Json): WireDifference[] {
  const out: WireDifference[] = [];
  const subjectOf = subjects(ours, release);
  const visit = (a: Json | undefined, b: Json | undefined, path: string[]) => {
    const pointer = path.map((p) => `/${segment(p)}`).join("");
    const push = (change: Change) =>
      out.push({ pointer, change, subject: subjectOf(path), ours: show(a), release: show(b) });
    if (a === undefined) return push("removed");
    if (b === undefined) return push("added");
    if (isObject(a) && isObject(b)) {
      for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) visit(a[key], b[key], [...path, key]);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
      a.forEach((item, index) => {
        visit(item, b[index], [...path, String(index)]);
      });
      return;
    }
    if (JSON.stringify(a) !== JSON.stringify(b)) push("changed");
  };
  visit(ours, release, []);
  return out;
}

function subjects(ours: Json, release: Json): (path: string[]) => string {
  return (path) => {
    const [top, second, third] = path;
    if (top === "paths" && second !== undefined) {
      for (const doc of [ours, release]) {
        const item = isObject(doc) && isObject(doc.paths) ? doc.paths[second] : undefined;
        if (!isObject(item)) continue;
        if (third !== undefined && METHODS.has(third) && isObject(item[third]))
          return `operation ${String(item[third].operationId)}`;
        if (third === undefined) return `path ${second}`;
      }
      return `path ${second}`;
    }
    if (top === "components" && second !== undefined && third !== undefined) {
      const kind = second === "schemas" ? "schema" : second.replace(/s$/, "");
      return `${kind} ${third}`;
    }
    return "document";
  };
}

/** True when `pointer` is `prefix` or lies below it (whole segments). */
export function isUnder(pointer: string, prefix: string): boolean {
  return pointer === prefix || pointer.startsWith(`${prefix}/`);
}
