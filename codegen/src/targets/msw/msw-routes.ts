import type { ApiIr } from "../../ir/model.js";
import { tsString } from "../../emit/ts/syntax.js";
import { banner } from "../../emit/banner.js";
import { tsValue } from "../../emit/ts/value.js";
import { CONTRACT_TYPES } from "./msw-contract.js";

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
  const routes = operations.map((op) => ({
    operationId: op.operationId,
    method: op.method,
    path: op.path,
    rawPath: prefixes.some((prefix) => op.path.startsWith(prefix)),
  }));
  let out = banner(ir);
  out += `import type { ContractRoute } from ${tsString(CONTRACT_TYPES)};\n\n`;
  out += `/** Every operation's route, in the order the server registers them (\`x-powercontext-router\`). */\n`;
  out += `export const contractRoutes: readonly ContractRoute[] = ${tsValue(routes, 1)};\n`;
  return out;
}
