import type { Permission } from "./types.js";

/**
 * What the simulator needs to know about each operation of `openapi.yaml`:
 * where it is routed, which credential rule applies and which statuses the
 * contract declares (a fault may only produce a declared status).
 *
 * The values mirror `openapi.yaml` (`security`, `x-powercontext-permission`,
 * `responses`); `test/simulator/operation-table.test.ts` fails when they drift.
 */
export interface SimOperation {
  readonly method: "GET" | "POST";
  /** OpenAPI path template, e.g. `/v1/operations/{operation_id}`. */
  readonly path: string;
  /** False for the health probes (`security: []`): no token needed. */
  readonly authenticated: boolean;
  /** The Scope permission checked, or null when none is (health, capabilities). */
  readonly permission: Permission | null;
  /** Every status the contract declares for the operation, success first. */
  readonly statuses: readonly number[];
  /** Declared statuses whose body is not the error envelope (readiness answers 503 with its report). */
  readonly reportStatuses?: readonly number[];
}

const SCOPED = [401, 403, 422, 429, 500, 503] as const;

/** The operations of the contract, keyed by wire `operationId`. */
export const simOperations = {
  get_liveness: { method: "GET", path: "/health/live", authenticated: false, permission: null, statuses: [200] },
  get_readiness: { method: "GET", path: "/health/ready", authenticated: false, permission: null, statuses: [200, 503], reportStatuses: [503] },
  get_capabilities: { method: "GET", path: "/v1/capabilities", authenticated: true, permission: null, statuses: [200, 401, 403, 429, 503] },
  capture_content_source: { method: "POST", path: "/v1/sources/content", authenticated: true, permission: "scope.write", statuses: [202, 409, ...SCOPED] },
  flush_memory: { method: "POST", path: "/v1/memory/flush", authenticated: true, permission: "scope.write", statuses: [200, 202, 409, ...SCOPED] },
  remember_memory: { method: "POST", path: "/v1/memory/remember", authenticated: true, permission: "scope.write", statuses: [200, 409, ...SCOPED] },
  search_memory: { method: "POST", path: "/v1/memory/search", authenticated: true, permission: "scope.read", statuses: [200, 409, ...SCOPED] },
  list_memory_entries: { method: "POST", path: "/v1/memory/entries/list", authenticated: true, permission: "scope.read", statuses: [200, 404, ...SCOPED] },
  get_memory_entry: { method: "POST", path: "/v1/memory/entries/get", authenticated: true, permission: "scope.read", statuses: [200, 404, ...SCOPED] },
  list_operations: { method: "GET", path: "/v1/operations", authenticated: true, permission: "scope.read", statuses: [200, ...SCOPED] },
  get_operation: { method: "GET", path: "/v1/operations/{operation_id}", authenticated: true, permission: "scope.read", statuses: [200, 404, ...SCOPED] },
  cancel_operation: { method: "POST", path: "/v1/operations/{operation_id}/cancel", authenticated: true, permission: "scope.admin", statuses: [200, 404, 409, ...SCOPED] },
  retry_operation: { method: "POST", path: "/v1/operations/{operation_id}/retry", authenticated: true, permission: "scope.admin", statuses: [200, 404, 409, ...SCOPED] },
  get_topic_memory_processing_status: { method: "POST", path: "/v1/topic-memory/processing/status", authenticated: true, permission: "scope.read", statuses: [200, ...SCOPED] },
  get_topic_memory_processing_block: { method: "POST", path: "/v1/topic-memory/processing/blocks/get", authenticated: true, permission: "scope.read", statuses: [200, 404, ...SCOPED] },
  retry_topic_memory_processing: { method: "POST", path: "/v1/topic-memory/processing/retry", authenticated: true, permission: "scope.admin", statuses: [200, 404, 409, ...SCOPED] },
} as const satisfies Record<string, SimOperation>;

/** Wire name of an operation the simulator serves. */
export type SimOperationId = keyof typeof simOperations;

/** Every operationId the simulator serves, in contract order. */
export const simOperationIds = Object.keys(simOperations) as SimOperationId[];

/** True when `id` names an operation of the contract. */
export function isSimOperationId(id: string): id is SimOperationId {
  return Object.prototype.hasOwnProperty.call(simOperations, id);
}
