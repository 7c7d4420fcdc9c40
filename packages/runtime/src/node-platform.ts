import type { ClientOptions } from "./config/options.js";
import type { Platform } from "./config/platform.js";
import { resolveConfig as resolveWith, type ResolvedConfig } from "./config/resolve.js";
import { createCaller as createCallerWith, type CallerParts, type OperationCaller } from "./core/create-caller.js";
import { createRuntime as createRuntimeWith, type Runtime, type RuntimeInput } from "./core/runtime.js";
import type { OperationDescriptor } from "./descriptor.js";
import { ConfigurationError } from "./errors.js";
import type { Transport } from "./transport/port.js";
import type { Dispatcher } from "undici";
import { undiciTransport } from "./transport/undici-adapter.js";

let shared: Transport | undefined;

/** Node's platform: the undici adapter on the shared keep-alive agent, and callers' dispatchers. */
export const NODE_PLATFORM: Platform = {
  defaultTransport: () => (shared ??= undiciTransport()),
  // A request method is all that is checked; what it does is undici's contract.
  dispatcherTransport: (dispatcher) => {
    if (typeof (dispatcher as { request?: unknown } | null)?.request !== "function")
      throw new ConfigurationError("dispatcher must be an undici Dispatcher");
    return undiciTransport(dispatcher as Dispatcher);
  },
};

/** `resolveConfig` of the node entry: without `fetch`, `dispatcher` or `transport`, requests go through undici. */
export function resolveConfig(options: ClientOptions): ResolvedConfig {
  return resolveWith(options, NODE_PLATFORM);
}

/** `createRuntime` of the node entry (undici by default, see {@link resolveConfig}). */
export function createRuntime(options: ClientOptions, tables: RuntimeInput = {}): Runtime {
  return createRuntimeWith(options, tables, NODE_PLATFORM);
}

/** `createCaller` of the node entry (undici by default, see {@link resolveConfig}). */
export function createCaller<Request = unknown, Response = unknown>(
  options: ClientOptions,
  descriptor: OperationDescriptor,
  parts: CallerParts = {},
): OperationCaller<Request, Response> {
  return createCallerWith(options, descriptor, parts, NODE_PLATFORM);
}
