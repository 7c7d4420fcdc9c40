import type { CallOptions } from "../call-options.js";
import { resolveConfig, type ClientOptions } from "../config.js";
import type { OperationDescriptor, OperationValidators } from "../descriptor.js";
import { runOperation } from "./run-operation.js";
import type { Runtime } from "./runtime.js";

/**
 * A function that runs one operation: `(request, options?) => Promise<response>`.
 */
export type OperationCaller<Request, Response> = (request: Request, options?: CallOptions) => Promise<Response>;

/**
 * Builds a standalone caller for one operation, without the client facade or
 * the generated tables, so that a bundler keeps only this operation's code
 * (pass `validators` to keep its schema checks). Same transport, retry and
 * error behaviour as the client (DESIGN §2, §4). An accepted (202) response
 * resolves to its accepted body; polling needs the full client.
 *
 * @throws ConfigurationError immediately for bad options.
 */
export function createCaller<Request = unknown, Response = unknown>(
  options: ClientOptions,
  descriptor: OperationDescriptor,
  validators?: OperationValidators,
): OperationCaller<Request, Response> {
  // No table: nothing to poll or reconcile against, so neither is bundled.
  const runtime: Runtime = { ...resolveConfig(options), operations: null, validators: null, reconcile: null };
  return async (request, callOptions) =>
    (await runOperation(runtime, descriptor, request, callOptions ?? {}, validators)).data as Response;
}
