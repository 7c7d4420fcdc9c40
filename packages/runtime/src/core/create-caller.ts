import type { CallOptions } from "../call-options.js";
import type { ClientOptions } from "../config/options.js";
import type { Platform } from "../config/platform.js";
import { hideSecrets, resolveConfig } from "../config/resolve.js";
import type { OperationDescriptor, OperationValidators } from "../descriptor.js";
import { ConfigurationError, type ContractErrorTable } from "../errors.js";
import type { MiddlewareRunner } from "./middleware.js";
import { runOperation } from "./run-operation.js";
import { type Runtime, withClientHeaders } from "./runtime.js";

/**
 * A function that runs one operation: `(request, options?) => Promise<response>`.
 */
export type OperationCaller<Request, Response> = (request: Request, options?: CallOptions) => Promise<Response>;

/** What a standalone caller keeps beyond the runtime core; each part is opt-in so that a bundle carries only what it names. */
export interface CallerParts {
  /** The operation's validators (from the generated `validatorMap`); without them bodies are not schema-checked. */
  validators?: OperationValidators;
  /**
   * Contract error classes by envelope code, usually the generated `contractErrorsByCode`.
   * Without them a contract error such as `409 operation_blocked` raises its
   * status class (`ConflictError`) with the same `code` and `details`.
   */
  contractErrors?: ContractErrorTable;
  /**
   * The middleware runner, `sendThroughMiddleware`: needed (and only then
   * bundled) when `options.middleware` is not empty.
   */
  middleware?: MiddlewareRunner;
  /**
   * Headers sent on every request, usually the generated `clientHeaders` (what the
   * server's own client declares, such as the contract versions it speaks); a header of
   * the same name in `options.headers` or a call's `headers` is sent instead.
   */
  clientHeaders?: Readonly<Record<string, string>>;
}

/**
 * Builds a standalone caller for one operation, without the client facade or
 * the generated tables, so that a bundler keeps only this operation's code.
 * Transport, retry and status-error behaviour are the client's (docs/compatibility.md,
 * §4); schema checks and contract error classes come with `parts`. An
 * accepted (202) response resolves to its accepted body; polling needs the
 * full client.
 *
 * @param options client options, as for `PowerContextClient`.
 * @param descriptor the operation's row of the generated operation table.
 * @param parts optional validators, contract error classes and middleware runner, for example
 *   `{ validators: validatorMap.flush_memory, contractErrors: contractErrorsByCode }`.
 * @param platform the entry's default transport (see `resolveConfig`).
 * @returns `(request, options?) => Promise<response body>`.
 * @throws ConfigurationError immediately for bad options, when
 *   `parts.validators` is not one operation's validators, or when
 *   `options.middleware` is not empty and `parts.middleware` is missing.
 */
export function createCaller<Request = unknown, Response = unknown>(
  options: ClientOptions,
  descriptor: OperationDescriptor,
  parts: CallerParts = {},
  platform?: Platform,
): OperationCaller<Request, Response> {
  const config = resolveConfig(options, platform);
  if (config.middleware.length > 0 && parts.middleware === undefined) {
    throw new ConfigurationError(
      "middleware needs the runner: pass parts.middleware (sendThroughMiddleware), or use the client",
    );
  }
  // No table: nothing to poll or reconcile against, so neither is bundled.
  const runtime: Runtime = hideSecrets({
    ...config,
    headers: withClientHeaders(parts.clientHeaders, config.headers),
    operations: null,
    validators: null,
    reconcile: null,
    contractErrors: parts.contractErrors ?? null,
    runMiddleware: config.middleware.length === 0 ? null : (parts.middleware ?? null),
  });
  const { validators } = parts;
  if (validators !== undefined && typeof validators.responses !== "object") {
    throw new ConfigurationError("validators must be one operation's validators, such as validatorMap.flush_memory");
  }
  return async (request, callOptions) =>
    (await runOperation(runtime, descriptor, request, callOptions ?? {}, validators)).data as Response;
}
