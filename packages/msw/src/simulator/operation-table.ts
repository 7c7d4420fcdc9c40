/**
 * What the simulator needs to know about each operation it serves: where it
 * is routed, which credential rule applies and which statuses the contract
 * declares (a fault may only produce a declared status).
 *
 * The values mirror `openapi.yaml` (`security`, `x-powercontext-access`,
 * `responses`); `test/simulator/operation-table.test.ts` fails when they drift.
 * The simulator serves the operations the quick start, the recovery story and
 * the CLI use; the others are not routed yet.
 */
export interface SimOperation {
  readonly method: "GET" | "POST";
  /** OpenAPI path template, e.g. `/v1/operations/{operation_id}`. */
  readonly path: string;
  /** False for the health probes (`security: []`): no token needed. */
  readonly authenticated: boolean;
  /**
   * `x-powercontext-access` in one word: its `action` (a permission such as
   * `scope.read` or `server.admin`) or its `resolver` (a rule the handler
   * applies, e.g. `operation_read_access`); null when the spec has none.
   */
  readonly access: string | null;
  /** Every status the contract declares for the operation, success first. */
  readonly statuses: readonly number[];
  /** Declared statuses whose body is not the error envelope (readiness answers 503 with its report). */
  readonly reportStatuses?: readonly number[];
}

const SCOPED = [401, 403, 422, 500, 503] as const;

/** The operations the simulator serves, keyed by wire `operationId`. */
export const simOperations = {
  get_liveness: { method: "GET", path: "/health/live", authenticated: false, access: null, statuses: [200] },
  get_readiness: { method: "GET", path: "/health/ready", authenticated: false, access: null, statuses: [200, 503], reportStatuses: [503] },
  get_capabilities: { method: "GET", path: "/v1/capabilities", authenticated: true, access: "server.observe", statuses: [200, 401, 403, 503] },
  get_default_scope: { method: "GET", path: "/v1/scopes/default", authenticated: true, access: "server.observe", statuses: [200, 401, 403, 404, 409, 503] },
  create_scope: { method: "POST", path: "/v1/scopes", authenticated: true, access: "server.admin", statuses: [201, 401, 403, 404, 409, 422, 503] },
  get_scope: { method: "GET", path: "/v1/scopes/{scope_id}", authenticated: true, access: "path_scope_read_access", statuses: [200, 401, 403, 404, 503] },
  capture_content_source: { method: "POST", path: "/v1/sources/content", authenticated: true, access: "scope.contribute", statuses: [202, 409, ...SCOPED] },
  flush_memory: { method: "POST", path: "/v1/memory/flush", authenticated: true, access: "scope.contribute", statuses: [200, 202, 409, ...SCOPED] },
  remember_memory: { method: "POST", path: "/v1/memory/remember", authenticated: true, access: "scope.contribute", statuses: [200, 409, ...SCOPED] },
  search_memory: { method: "POST", path: "/v1/memory/search", authenticated: true, access: "scope.read", statuses: [200, 409, ...SCOPED] },
  list_memory_entries: { method: "POST", path: "/v1/memory/entries/list", authenticated: true, access: "scope.read", statuses: [200, 404, ...SCOPED] },
  list_operations: { method: "GET", path: "/v1/operations", authenticated: true, access: "scope.read", statuses: [200, 404, ...SCOPED] },
  get_operation: { method: "GET", path: "/v1/operations/{operation_id}", authenticated: true, access: "operation_read_access", statuses: [200, 404, ...SCOPED] },
  cancel_operation: { method: "POST", path: "/v1/operations/{operation_id}/cancel", authenticated: true, access: "operation_admin_access", statuses: [200, 404, 409, ...SCOPED] },
  retry_operation: { method: "POST", path: "/v1/operations/{operation_id}/retry", authenticated: true, access: "operation_admin_access", statuses: [200, 404, 409, ...SCOPED] },
  get_topic_memory_processing_status: { method: "POST", path: "/v1/topic-memory/processing/status", authenticated: true, access: "scope.read", statuses: [200, ...SCOPED] },
  get_topic_memory_processing_block: { method: "POST", path: "/v1/topic-memory/processing/blocks/get", authenticated: true, access: "scope.read", statuses: [200, 404, ...SCOPED] },
  retry_topic_memory_processing: { method: "POST", path: "/v1/topic-memory/processing/retry", authenticated: true, access: "scope.admin", statuses: [200, 404, 409, ...SCOPED] },
} as const satisfies Record<string, SimOperation>;

/** Wire name of an operation the simulator serves. */
export type SimOperationId = keyof typeof simOperations;

/** Every operationId the simulator serves, in table order. */
export const simOperationIds = Object.keys(simOperations) as SimOperationId[];

/** True when `id` names an operation the simulator serves. */
export function isSimOperationId(id: string): id is SimOperationId {
  return Object.prototype.hasOwnProperty.call(simOperations, id);
}
