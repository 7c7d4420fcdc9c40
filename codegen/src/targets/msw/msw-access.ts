import type { ApiIr } from "../../ir/model.js";
import { banner } from "../../emit/banner.js";

/**
 * Emits `access.ts` of `@powercontext/msw`: the access facts of the IR as one typed
 * data export, `contractAccess` (`x-powercontext-access-policy`, `-resolvers`, and the
 * operations' `-after` and `-owner` by operationId), `null` when the spec has none.
 * The values are written as the spec gives them (the language of
 * `codegen/schema/extensions.schema.json`, `access-*`); the simulator's access layer declares the
 * types it reads them as and assigns this value to them, so a fact it cannot read does
 * not compile.
 */
export function emitMswAccess(ir: ApiIr): string {
  const facts = ir.accessFacts;
  let out = banner(ir);
  out += `/** The access facts of the contract (docs/architecture.md, "Access"), or null when it has none. */\n`;
  if (facts === null) return `${out}export const contractAccess = null;\n`;
  const value = { policy: facts.policy, resolvers: facts.resolvers, after: facts.after, owners: facts.owners };
  return `${out}export const contractAccess = ${literal(value)} as const;\n`;
}

/**
 * A JSON value as a TypeScript literal: objects two-space indented, a list of scalars or
 * an object of scalars on one line (line and paragraph separators escaped).
 */
function literal(value: unknown, indent = ""): string {
  const flat = (v: unknown) => v === null || typeof v !== "object";
  if (flat(value)) return escapeSeparators(JSON.stringify(value));
  const entries = Array.isArray(value) ? value.map((v) => [null, v] as const) : Object.entries(value as object);
  if (entries.every(([, v]) => flat(v))) return escapeSeparators(JSON.stringify(value));
  const inner = `${indent}  `;
  const lines = entries.map(([k, v]) => `${inner}${k === null ? "" : `${JSON.stringify(k)}: `}${literal(v, inner)}`);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  return `${open}\n${lines.join(",\n")}\n${indent}${close}`;
}

function escapeSeparators(text: string): string {
  return text.replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}
