import type { ApiIr } from "../../ir/model.js";
import { tsString } from "../../emit/ts/syntax.js";
import { banner } from "../../emit/banner.js";
import { tsValue } from "../../emit/ts/value.js";
import { CONTRACT_TYPES } from "./msw-contract.js";

/**
 * Emits `routes.ts` of `@powercontext/msw`: every operation's route in the order the
 * server registers it (`x-powercontext-router.order`; operations it does not list
 * follow, by operationId), each marked when the server matches it against the path as
 * sent (`raw-path-prefixes`), and how the server answers before any operation runs
 * (public paths, its framework's 404 and 405 bodies). The mock's HTTP server answers
 * the paths and methods no operation takes from these, as the server's router does.
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
  const router = ir.router;
  const answers = {
    publicPaths: router?.publicPaths ?? [],
    publicPrefixes: router?.publicPrefixes ?? [],
    frameworkBodies: router?.frameworkBodies ?? null,
  };
  out += `import type { ContractRoute, ContractRouterAnswers } from ${tsString(CONTRACT_TYPES)};\n\n`;
  out += `/** Every operation's route, in the order the server registers them (\`x-powercontext-router\`). */\n`;
  out += `export const contractRoutes: readonly ContractRoute[] = ${tsValue(routes, 1)};\n\n`;
  out += `/** How the server answers before an operation runs (\`x-powercontext-router\`): the paths it serves without a credential (exact, or under a prefix), and its framework's bodies for an unknown path and a method the path does not take (null: the error envelope). */\n`;
  out += `export const contractRouterAnswers: ContractRouterAnswers = ${tsValue(answers, 1)};\n`;
  return out;
}
