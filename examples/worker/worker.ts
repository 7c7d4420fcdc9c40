/**
 * A Cloudflare Worker that searches PowerContext Memory (docs/workers.md).
 *
 * It imports only what it calls: `createCaller` with the descriptors and validators of
 * its two operations, so its bundle carries neither the other 128 operations nor their
 * validators (its size is in `npm run bench:sdk`). The server URL and token come from
 * the Worker's environment (`wrangler secret put POWERCONTEXT_CLIENT_API_TOKEN`), read
 * with `optionsFromEnv(env)`: Workers have no `process.env` without `nodejs_compat`.
 *
 *   GET /search?q=<words>   the Memory hits of the default Scope, as JSON
 */
import {
  ClientError,
  createCaller,
  getDefaultScopeDescriptor,
  getDefaultScopeValidators,
  optionsFromEnv,
  searchMemoryDescriptor,
  searchMemoryValidators,
  ServerResponseError,
  type RequestOf,
  type ResponseOf,
} from "@powercontext/sdk";

/** The Worker's bindings this example reads (strings set in wrangler.toml or as secrets). */
export interface Env {
  readonly POWERCONTEXT_CLIENT_SERVER_URL?: string;
  readonly POWERCONTEXT_CLIENT_API_TOKEN?: string;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname !== "/search") return new Response("not found", { status: 404 });
    const query = url.searchParams.get("q") ?? "";
    try {
      const options = optionsFromEnv({ ...env });
      const defaultScope = createCaller<undefined, ResponseOf<"get_default_scope">>(
        options,
        getDefaultScopeDescriptor,
        {
          validators: getDefaultScopeValidators,
        },
      );
      const search = createCaller<RequestOf<"search_memory">, ResponseOf<"search_memory">>(
        options,
        searchMemoryDescriptor,
        { validators: searchMemoryValidators },
      );
      const scope = await defaultScope(undefined);
      const found = await search({ scope_id: scope.scope_id, query }, { signal: request.signal });
      return Response.json({
        scope: scope.scope_id,
        hits: found.hits.map((hit) => ({ score: hit.score, text: hit.memory.text })),
      });
    } catch (error) {
      // A ServerResponseError keeps the server's status; anything else is the Worker's own failure.
      const status = error instanceof ServerResponseError ? error.statusCode : 502;
      const name = error instanceof ClientError ? error.name : "Error";
      return Response.json({ error: name }, { status });
    }
  },
};
