import type { ApiIr } from "../../ir/model.js";
import { tsString } from "../../emit/ts/syntax.js";
import { banner } from "../../emit/banner.js";

/**
 * Emits `routes.ts` of `@powercontext/msw`: every operation's route in the order the
 * server registers it (`x-powercontext-router.order`; operations it does not list
 * follow, by operationId), each marked when the server matches it against the path as
 * sent (`raw-path-prefixes`). The mock's HTTP server answers the paths and methods no
 * operation takes from this table, as the server's router does.
 */
export function emitMswRoutes(ir: ApiIr): string {
  const rank = new Map((ir.router?.order ?? []).map((id, index) => [id, index]));
  const last = rank.size;
  const operations = [...ir.operations].sort(
    (a, b) => (rank.get(a.operationId) ?? last) - (rank.get(b.operationId) ?? last),
  );
  const prefixes = ir.router?.rawPathPrefixes ?? [];
  let out = banner(ir);
  out += `/** One route of the server. */
export interface ContractRoute {
  readonly operationId: string;
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** OpenAPI path template, e.g. \`/v1/scopes/{scope_id}\`. */
  readonly path: string;
  /** The server matches it against the path as sent, percent-escapes kept (so never redirects a trailing slash to it). */
  readonly rawPath: boolean;
}

/** Every operation's route, in the order the server registers them (\`x-powercontext-router\`). */
export const contractRoutes: readonly ContractRoute[] = [\n`;
  for (const op of operations) {
    const rawPath = prefixes.some((prefix) => op.path.startsWith(prefix));
    out += `  { operationId: ${tsString(op.operationId)}, method: ${tsString(op.method)}, path: ${tsString(op.path)}, rawPath: ${rawPath} },\n`;
  }
  out += `];\n`;
  return out;
}
