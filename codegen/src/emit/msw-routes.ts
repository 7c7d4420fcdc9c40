import type { ApiIr } from "../ir/model.js";
import { tsString } from "./ts/syntax.js";
import { banner } from "./banner.js";

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
  out += `];\n\n`;
  const router = ir.router;
  const answers = {
    publicPaths: router?.publicPaths ?? [],
    publicPrefixes: router?.publicPrefixes ?? [],
    frameworkBodies: router?.frameworkBodies ?? null,
  };
  out += `/** How the server answers before an operation runs (\`x-powercontext-router\`): the paths it serves without a credential (exact, or under a prefix), and its framework's bodies for an unknown path and a method the path does not take (null: the error envelope). */\n`;
  out += `export const contractRouterAnswers = ${JSON.stringify(answers, null, 2)} as const;\n`;
  return out;
}
