import type { SimOperation } from "../contract/operation-table.js";
import { copyJson, getPath, setPath, type JsonRecord } from "../members.js";

/**
 * A request as the server's request model reads it: every optional body
 * member the request leaves out takes the value the contract gives it (its
 * default, or null when nullable: `body.defaults` of the generated contract),
 * a member of a nested object only where the request has that object. Two
 * requests that differ only by a member sent with its default value are the
 * same request (an idempotent repeat replays), and a replacement stores the
 * defaults of what it leaves out.
 */
export function withDefaults(op: SimOperation, flat: JsonRecord): JsonRecord {
  const out = copyJson(flat);
  // Shorter paths first, so an outer object is filled in before its members are looked at.
  const paths = Object.keys(op.body?.defaults ?? {}).sort((a, b) => a.split(".").length - b.split(".").length);
  for (const path of paths) {
    const dot = path.lastIndexOf(".");
    const outer = dot === -1 ? out : getPath(out, path.slice(0, dot));
    if (typeof outer !== "object" || outer === null || Array.isArray(outer)) continue;
    if (getPath(out, path) === undefined) setPath(out, path, copyJson(op.body?.defaults[path]));
  }
  return out;
}
