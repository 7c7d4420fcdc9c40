// Payloads generated from the resolver facts of x-powercontext-access-resolvers: for every
// case a payload that reaches it (each `when` value), and from each of those, every path
// the facts read broken one way at a time (absent, null, empty, spaces around it, a
// character Python strips and JavaScript does not, too long by code points, a number, a
// reference of another family, an empty list, ...). The resolver test runs the release's
// own resolver and the mock's interpreter on each and compares.
import type { CaseFact, CheckFact, Ref } from "../../packages/msw/src/simulator/access/facts.js";

type Payload = Record<string, unknown>;

/** The paths a resolver's facts read, by the kind of value each holds. */
interface Shape {
  /** Scalar members, with the values a `when` or `require` lists (empty: any id). */
  readonly scalars: Map<string, unknown[]>;
  /** Members that hold an object: a reference (with its constant family) or a bare object. */
  readonly objects: Map<string, string | null>;
  /** Lists: their path and the member of each item (null: the items themselves). */
  readonly lists: Map<string, string | null>;
}

const isObject = (value: unknown): value is Payload =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function refPath(ref: Ref | undefined): string | null {
  if (ref === undefined) return null;
  if (typeof ref === "string") return ref.startsWith("$") ? null : ref;
  return "text" in ref ? (ref.text.startsWith("$") ? null : ref.text) : null;
}

function listOf(path: string): [string, string | null] {
  const [list = "", member = ""] = path.split("[]");
  return [list, member === "" ? null : member.slice(1)];
}

function shapeOf(cases: readonly CaseFact[]): Shape {
  const shape: Shape = { scalars: new Map(), objects: new Map(), lists: new Map() };
  const scalar = (path: string | null, values: unknown[] = []) => {
    if (path === null) return;
    shape.scalars.set(path, [...(shape.scalars.get(path) ?? []), ...values]);
  };
  const check = (fact: CheckFact) => {
    scalar(refPath(fact.scope));
    if (fact.if !== undefined && !fact.if.startsWith("$"))
      shape.objects.set(fact.if, shape.objects.get(fact.if) ?? null);
    for (const path of [fact.each, fact.if_any_null]) if (path !== undefined) shape.lists.set(...listOf(path));
    const artifact = fact.artifact;
    if (artifact === undefined) return;
    scalar(refPath(artifact.scope));
    scalar(refPath(artifact.family));
    scalar(refPath(artifact.id));
    if (artifact.ref !== undefined)
      shape.objects.set(
        artifact.ref,
        typeof artifact.family === "object" && "value" in artifact.family ? artifact.family.value : null,
      );
  };
  for (const fact of cases) {
    for (const [path, values] of Object.entries(fact.when ?? {})) scalar(path, [...values]);
    for (const [path, requirement] of Object.entries(fact.require ?? {})) {
      if (Array.isArray(requirement)) scalar(path, [...requirement]);
      else if (requirement === "object") shape.objects.set(path, shape.objects.get(path) ?? null);
      else if (requirement === "non_empty_list" || requirement === "text_list") {
        if (!shape.lists.has(path)) shape.lists.set(path, null);
      } else scalar(path);
    }
    for (const item of fact.checks ?? []) check(item);
  }
  // A scalar under an object path is a member of that object, not a path of its own to fill first.
  return shape;
}

function setPath(target: Payload, path: string, value: unknown): void {
  const parts = path.split(".");
  let node = target;
  for (const part of parts.slice(0, -1)) {
    if (!isObject(node[part])) node[part] = {};
    node = node[part] as Payload;
  }
  const last = parts[parts.length - 1] as string;
  if (value === undefined) delete node[last];
  else node[last] = value;
}

/** A payload every path of `shape` is filled in: the first listed value, else an id; references of their family. */
function basePayload(shape: Shape): Payload {
  const payload: Payload = {};
  let n = 0;
  for (const [path, family] of shape.objects)
    setPath(payload, path, family === null ? {} : { family, artifact_id: `art-${(n += 1)}` });
  for (const [path, values] of shape.scalars) setPath(payload, path, values[0] ?? `id-${(n += 1)}`);
  for (const [path, member] of shape.lists)
    setPath(payload, path, member === null ? ["id-a", "id-b"] : [{ [member]: "entry-a" }, { [member]: null }]);
  return payload;
}

const SCALAR_FAULTS: readonly unknown[] = [
  undefined,
  null,
  "",
  " x",
  "x ",
  "\tx",
  "\u001cx",
  "x\u0085",
  "\ufeffx",
  "\u3000",
  "a".repeat(128),
  "a".repeat(129),
  "a".repeat(256),
  "a".repeat(257),
  "\u{1F600}".repeat(128),
  "\u{1F600}".repeat(129),
  "ü-ok/x",
  7,
  true,
  "other-value",
];

/** Every payload the resolver test sends for `cases`. */
export function generatedPayloads(cases: readonly CaseFact[]): Payload[] {
  const shape = shapeOf(cases);
  const base = basePayload(shape);
  const branches: Payload[] = [base];
  for (const [path, values] of shape.scalars)
    for (const value of new Set(values)) {
      const branch = structuredClone(base);
      setPath(branch, path, value);
      branches.push(branch);
    }
  const out: Payload[] = [];
  const vary = (from: Payload, path: string, value: unknown) => {
    const payload = structuredClone(from);
    setPath(payload, path, value);
    out.push(payload);
  };
  for (const branch of branches) {
    out.push(branch);
    for (const path of shape.scalars.keys()) for (const value of SCALAR_FAULTS) vary(branch, path, value);
    for (const [path, family] of shape.objects) {
      for (const value of [undefined, null, "text", {}]) vary(branch, path, value);
      if (family !== null) {
        for (const other of ["memory", "nope", "", null, 5])
          vary(branch, path, { family: other, artifact_id: "art-x" });
        for (const id of ["", " art", "a".repeat(129), null, 5]) vary(branch, path, { family, artifact_id: id });
        vary(branch, path, { artifact_id: "art-x" });
      }
    }
    for (const [path, member] of shape.lists) {
      for (const value of [undefined, null, [], "text"]) vary(branch, path, value);
      if (member === null) for (const items of [["", "x"], [" x"], ["a", "a"], [5]]) vary(branch, path, items);
      else
        for (const items of [
          [{ [member]: "e-1" }, { [member]: "e-1" }],
          [{ [member]: null }],
          [{ [member]: "" }],
          [{ [member]: " e" }],
          [{ [member]: 5 }],
          [{}],
          [5],
          [{ [member]: "a".repeat(129) }],
        ])
          vary(branch, path, items);
    }
  }
  const seen = new Set<string>();
  return out.filter((payload) => {
    const key = JSON.stringify(payload);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
