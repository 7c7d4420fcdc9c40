import type { SimOperation } from "../contract/operation-table.js";
import { SeededRandom } from "../random.js";
import { hash } from "./responder.js";
import { sampleValue } from "./sample.js";

/**
 * The response headers the contract pins: a header an operation declares for a
 * status whose schema fixes its form (an `enum`, a `const` or a `pattern`, such
 * as `Cache-Control: no-store` or a `sha256:` digest) is sent with every answer
 * of that status, with a value sampled from its schema and the seed, as the
 * release sends them. Headers of a free form (`ETag`, `Location`, `Retry-After`,
 * `Content-Disposition`) are the handlers' to send when they apply.
 */

function pins(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null) return false;
  const s = schema as Record<string, unknown>;
  return Array.isArray(s.enum) || "const" in s || typeof s.pattern === "string";
}

const cache = new Map<string, Readonly<Record<string, string>>>();

/** The pinned headers of `op` for `status`, by declared name (empty when it declares none). */
export function pinnedHeaders(
  operationId: string,
  op: SimOperation,
  status: number,
  seed: number,
): Readonly<Record<string, string>> {
  const key = `${seed}\u0000${operationId}\u0000${status}`;
  let headers = cache.get(key);
  if (headers === undefined) {
    const response = op.responses.find((r) => r.status === status);
    const out: Record<string, string> = {};
    for (const [name, schema] of Object.entries(response?.headerSchemas ?? {})) {
      if (!pins(schema)) continue;
      const value = sampleValue(
        "header",
        { random: new SeededRandom(hash(`${seed}:${operationId}:${name}`)), variant: 0 },
        { header: schema as never },
      );
      if (value !== null && value !== undefined) out[name] = String(value);
    }
    headers = out;
    cache.set(key, headers);
  }
  return headers;
}
