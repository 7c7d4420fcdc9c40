import type { HandlerResponses } from "../generated/handler-types.js";
import type { SimOperationId } from "./contract/operation-table.js";
import type { SimRequest } from "./types.js";

/**
 * Per-operation answers an application installs on the simulator
 * (`sim.override("get_scope", handler)`), for tests that need one specific
 * response. The handler's return type is the operation's generated response
 * union (`HandlerResponses` of `src/generated/handler-types.ts`): a status the
 * operation does not declare, or a body its schema does not allow for the
 * status picked, does not compile.
 */

/** The answer of an override: one declared status with its body type, plus optional headers. */
export type OverrideResponse<K extends SimOperationId> = HandlerResponses[K];

/**
 * Answers one request of operation `K`. It runs after the simulator checked
 * credentials, access and the request against the contract, so `request`
 * is valid; it may return a promise only when served through msw or HTTP
 * (`sim.handle` is synchronous and rejects a promise with 500).
 */
export type OverrideHandler<K extends SimOperationId> = (request: SimRequest) => OverrideResponse<K>;

/** The installed overrides of one simulator. */
export class OverrideTable {
  readonly #handlers = new Map<
    SimOperationId,
    (request: SimRequest) => { status: number; body?: unknown; headers?: Record<string, string> }
  >();

  /** Installs `handler` for `operationId`, replacing an earlier one. @returns a function that removes it */
  set<K extends SimOperationId>(operationId: K, handler: OverrideHandler<K>): () => void {
    const stored = handler as unknown as (request: SimRequest) => { status: number; body?: unknown };
    this.#handlers.set(operationId, stored);
    return () => {
      if (this.#handlers.get(operationId) === stored) this.#handlers.delete(operationId);
    };
  }

  /** The override of `operationId`, if any. */
  get(
    operationId: SimOperationId,
  ): ((request: SimRequest) => { status: number; body?: unknown; headers?: Record<string, string> }) | undefined {
    return this.#handlers.get(operationId);
  }

  /** Removes every override. */
  clear(): void {
    this.#handlers.clear();
  }
}
