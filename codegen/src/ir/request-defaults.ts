import type { Json, RefLookup } from "../domain/types.js";
import { deref } from "../load/walk-operations.js";
import { WalkBudget } from "./walk-budget.js";

/**
 * The value each optional member of a request body takes when the request
 * leaves it out, as the server's request model fills it in: its declared
 * `default`, or `null` for a nullable member without one. Keys are member
 * paths: a member of a nested object (through `$ref` and `allOf`, not through
 * arrays or variants) is `outer.inner`, filled in only where the request has
 * the outer object. A server that compares requests (an idempotent repeat) or
 * replaces a record with one compares and stores the request with these
 * filled in.
 *
 * @throws {SpecError} `too_large` when the walk passes `MAX_BODY_WALK` schema nodes (`walk-budget.ts`)
 */
export function requestDefaults(schema: unknown, lookup: RefLookup): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  collect(schema, lookup, "", out, 0, new WalkBudget());
  return out;
}

function collect(
  node: unknown,
  lookup: RefLookup,
  prefix: string,
  out: Record<string, unknown>,
  depth: number,
  budget: WalkBudget,
): void {
  budget.spend(node);
  const schema = deref(node, lookup) as Json | undefined;
  if (schema === undefined || schema === null || typeof schema !== "object" || depth > 8) return;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  for (const [name, raw] of Object.entries((schema.properties ?? {}) as Json)) {
    const member = deref(raw, lookup) as Json | undefined;
    if (member === undefined || member === null || typeof member !== "object") continue;
    const path = `${prefix}${name}`;
    const declared = (raw as Json).default ?? member.default;
    if (declared !== undefined) out[path] = declared;
    else if (!required.has(name) && ((raw as Json).nullable === true || member.nullable === true)) out[path] = null;
    if (member.type === "object" || member.properties !== undefined || Array.isArray(member.allOf))
      collect(raw, lookup, `${path}.`, out, depth + 1, budget);
  }
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : [])
    collect(part, lookup, prefix, out, depth + 1, budget);
}
