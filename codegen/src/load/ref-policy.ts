import { RefError, SpecError, SpecErrorList, pointerSegment } from "../errors.js";
import { step, trailPointer, type Trail } from "./trail.js";

/**
 * Longest chain of references to references (a `$ref` whose target is itself a
 * `$ref`, and so on) that is followed. `walk-operations.ts`'s `deref` follows the
 * same number of hops, so a chain accepted here always ends at a real object there.
 */
export const MAX_REF_HOPS = 32;

/**
 * Members whose string value resolvers follow: `$ref`, and an Example Object's
 * `externalValue`, which Redocly (inside openapi-typescript) fetches to inline it.
 */
const REFERENCE_MEMBERS = new Set(["$ref", "externalValue"]);

/**
 * Every reference string of the document, wherever it stands: `$ref` and
 * `externalValue` members at any depth, also under `x-*` extensions, `example`
 * and `examples` (third-party resolvers follow those too), and the values of
 * `discriminator.mapping`, which resolvers follow as well: one written as a
 * reference (containing `/`, `#` or `:`, or starting with `.`) as it is, a bare
 * schema name as `#/components/schemas/<name>`. Iterative, in document order;
 * each with the trail of the member that holds it.
 */
export function findRefs(document: unknown): { ref: string; trail: Trail }[] {
  const found: { ref: string; trail: Trail }[] = [];
  const stack: { node: object; trail: Trail | undefined }[] = [];
  if (document !== null && typeof document === "object") stack.push({ node: document, trail: undefined });
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const record = entry.node as Record<string, unknown>;
    const keys = Object.keys(record);
    for (const key of keys) {
      const value = record[key];
      if (typeof value === "string") {
        if (REFERENCE_MEMBERS.has(key)) found.push({ ref: value, trail: step(entry.trail, key) });
      } else if (key === "discriminator" && isObject(value) && isObject(value.mapping)) {
        const mapping = step(step(entry.trail, key), "mapping");
        for (const [name, target] of Object.entries(value.mapping)) {
          if (typeof target !== "string") continue;
          found.push({ ref: mappingRef(target), trail: step(mapping, name) });
        }
      }
    }
    for (let index = keys.length - 1; index >= 0; index -= 1) {
      const key = keys[index] as string;
      const value = record[key];
      if (value !== null && typeof value === "object") stack.push({ node: value, trail: step(entry.trail, key) });
    }
  }
  return found;
}

/**
 * The reference policy (docs/adr/0006-internal-refs-only.md), applied before any
 * third-party resolver sees the document: every reference is internal (`#/...`, a
 * JSON pointer into this document), its target exists, and a chain of references
 * to references ends at an object within {@link MAX_REF_HOPS} hops. Nothing is read
 * from disk or the network; the document is not modified.
 *
 * @throws {RefError} `external_ref` for a reference to another file or a URL (or a
 *   fragment that is not a JSON pointer), `dangling_ref` for a target that does not
 *   exist, `circular_ref` for references that only lead to each other; several
 *   problems come as one {@link SpecErrorList}. Each names the pointer of the
 *   offending reference.
 */
export function checkRefs(document: unknown): void {
  const problems: SpecError[] = [];
  const targets = new Map<string, { found: boolean; value: unknown }>();
  const target = (ref: string) => {
    let hit = targets.get(ref);
    if (hit === undefined) {
      hit = resolvePointer(document, ref);
      targets.set(ref, hit);
    }
    return hit;
  };
  for (const { ref, trail } of findRefs(document)) {
    const at = () => trailPointer(trail);
    if (!ref.startsWith("#/") && ref !== "#") {
      const what =
        trail.key === "externalValue"
          ? `externalValue "${ref}" is not supported (inline the example as value)`
          : `$ref "${ref}" is not supported`;
      problems.push(
        new RefError(
          "external_ref",
          { pointer: at() },
          `${what}: only references into this document ("#/...") are, since the generator reads nothing but the spec and opens no connection; bundle the spec into one file`,
        ),
      );
      continue;
    }
    const first = target(ref);
    if (!first.found) {
      problems.push(
        new RefError("dangling_ref", { pointer: at() }, `$ref "${ref}" does not resolve to anything in the document`),
      );
      continue;
    }
    const chain = [ref];
    for (let current = first.value; typeof refOf(current) === "string"; ) {
      const next = refOf(current) as string;
      if (chain.includes(next)) {
        problems.push(
          new RefError(
            "circular_ref",
            { pointer: at() },
            `$ref "${ref}" starts a cycle of references that never reaches a schema or object: ${[...chain, next].join(" -> ")}`,
          ),
        );
        break;
      }
      chain.push(next);
      if (chain.length > MAX_REF_HOPS) {
        problems.push(
          new SpecError(
            "too_deep",
            { pointer: at() },
            `$ref "${ref}" starts a chain of more than ${MAX_REF_HOPS} references to references`,
          ),
        );
        break;
      }
      // An external or dangling link of the chain is reported at its own $ref.
      if (!next.startsWith("#")) break;
      const hop = target(next);
      if (!hop.found) break;
      current = hop.value;
    }
  }
  if (problems.length === 1) throw problems[0];
  if (problems.length > 1) throw new SpecErrorList(problems);
}

/**
 * The value a local reference (`#` plus an RFC 6901 JSON pointer, percent-encoded
 * as a URI fragment) points at. Only own members are followed, so `__proto__` or
 * `constructor` never resolve to something the document does not contain.
 */
export function resolvePointer(document: unknown, ref: string): { found: boolean; value: unknown } {
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return { found: false, value: undefined };
  }
  if (fragment === "") return { found: true, value: document };
  let current: unknown = document;
  for (const raw of fragment.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(key) || Number(key) >= current.length) return { found: false, value: undefined };
      current = current[Number(key)];
    } else if (current !== null && typeof current === "object" && Object.hasOwn(current, key)) {
      current = (current as Record<string, unknown>)[key];
    } else {
      return { found: false, value: undefined };
    }
  }
  return { found: true, value: current };
}

/**
 * The reference a discriminator mapping value stands for: the value itself when
 * it is written as a reference (the rule resolvers such as Redocly apply before
 * following it), else `#/components/schemas/<name>` for a bare schema name.
 */
export function mappingRef(value: string): string {
  const isRef = value.includes("/") || value.includes("#") || value.includes(":") || value.startsWith(".");
  return isRef ? value : `#/components/schemas/${encodeURIComponent(pointerSegment(value))}`;
}

function refOf(node: unknown): string | undefined {
  return isObject(node) && typeof node.$ref === "string" ? node.$ref : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
