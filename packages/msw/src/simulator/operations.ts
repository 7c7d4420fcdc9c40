import { SimError, invalidRequest } from "./errors.js";
import { isoTime } from "./clock.js";
import type { SeededRandom } from "./random.js";
import { seal } from "./resources/cursor.js";

/**
 * The Operation store (seed 002, docs/architecture.md, ADR 0001): durable records of
 * background work with a `version` that grows by one on every change, the
 * status machine queued -> running -> succeeded | failed, operator cancel
 * (from queued or failed) and retry (from failed) guarded by
 * `expected_version`, and newest-first cursor pagination.
 */

export type OperationStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled";

/** Bounded failure classification: category and code only, never a message. */
export interface OperationError {
  category: "model_provider" | "timeout" | "worker" | "storage" | "domain_conflict" | "budget" | "internal";
  code: string;
}

/** The `FlushMemoryResponse` wire shape (also an Operation's `result`). */
export interface FlushResult {
  status: "idle" | "processed";
  previous_cursor: number;
  current_cursor: number;
  high_watermark: number;
  processed_source_count: number;
  memory: { family: string; artifact_id: string; revision: number } | null;
}

/** The Memory window an Operation works on (seed 002 logical key and its bounds). */
export interface FlushWindow {
  readonly key: string;
  readonly after: number;
  readonly through: number;
}

/** Internal record: wire fields (times in ms) plus simulator bookkeeping. */
export interface OperationRecord {
  readonly operation_id: string;
  readonly kind: "memory_flush";
  readonly scope_id: string;
  status: OperationStatus;
  version: number;
  readonly created_at: number;
  updated_at: number;
  started_at: number | null;
  finished_at: number | null;
  attempt_count: number;
  error: OperationError | null;
  result: FlushResult | null;
  /** Creation order, used for newest-first listing. */
  readonly seq: number;
  readonly window: FlushWindow;
  /** When the current status began (ms). */
  phaseSince: number;
  /** Failure decided when the running attempt started; null when it will succeed. */
  pendingFailure: OperationError | null;
}

/** Filters of `list_operations`. */
export interface OperationFilter {
  scope_id: string;
  status?: OperationStatus | undefined;
  kind?: string | undefined;
}

/** Statuses that keep holding the window's logical key (a failed one blocks it). */
export const KEY_HOLDING: readonly OperationStatus[] = ["queued", "running", "failed"];

/**
 * All Operations of the simulator, indexed so that no request scans every
 * Operation: by id, by scope (creation order) and by the logical key each
 * holding Operation holds.
 */
export class OperationStore {
  readonly #byId = new Map<string, OperationRecord>();
  readonly #byScope = new Map<string, OperationRecord[]>();
  readonly #holders = new Map<string, OperationRecord>();
  readonly #listeners: ((op: OperationRecord) => void)[] = [];
  #seq = 0;

  /**
   * @param random the seeded source of Operation ids
   * @param cursorKey seals the list's cursors (`resources/cursor.ts`), so one changed by hand is refused
   */
  constructor(
    private readonly random: SeededRandom,
    private readonly cursorKey = "",
  ) {}

  /** Calls `listener` after every creation and status change of an Operation (the flush engine schedules work with it). */
  onChange(listener: (op: OperationRecord) => void): void {
    this.#listeners.push(listener);
  }

  /** A new queued Operation at version 1. */
  create(scopeId: string, window: FlushWindow, nowMs: number): OperationRecord {
    const record: OperationRecord = {
      operation_id: this.random.id("op"),
      kind: "memory_flush",
      scope_id: scopeId,
      status: "queued",
      version: 1,
      created_at: nowMs,
      updated_at: nowMs,
      started_at: null,
      finished_at: null,
      attempt_count: 0,
      error: null,
      result: null,
      seq: (this.#seq += 1),
      window,
      phaseSince: nowMs,
      pendingFailure: null,
    };
    this.#byId.set(record.operation_id, record);
    const ofScope = this.#byScope.get(scopeId);
    if (ofScope) ofScope.push(record);
    else this.#byScope.set(scopeId, [record]);
    this.#holders.set(window.key, record);
    this.#changed(record);
    return record;
  }

  /** The record, or undefined. */
  find(operationId: string): OperationRecord | undefined {
    return this.#byId.get(operationId);
  }

  /** @throws SimError 404 `operation_not_found` for an unknown id. */
  get(operationId: string): OperationRecord {
    const record = this.#byId.get(operationId);
    if (!record) throw new SimError(404, "operation_not_found", "No operation with this id is visible.", null);
    return record;
  }

  /** The Operation of `scopeId` holding logical `key`, if any (queued, running or failed). */
  holderOf(scopeId: string, key: string): OperationRecord | undefined {
    const op = this.#holders.get(key);
    return op?.scope_id === scopeId ? op : undefined;
  }

  /** Applies one change: sets the status, bumps `version` by one, stamps `updated_at`. */
  transition(op: OperationRecord, status: OperationStatus, atMs: number): void {
    op.status = status;
    op.version += 1;
    op.updated_at = atMs;
    op.phaseSince = atMs;
    if (status === "running") {
      op.attempt_count += 1;
      op.started_at ??= atMs;
    }
    op.finished_at = status === "succeeded" || status === "failed" || status === "cancelled" ? atMs : null;
    if (KEY_HOLDING.includes(status)) this.#holders.set(op.window.key, op);
    else if (this.#holders.get(op.window.key) === op) this.#holders.delete(op.window.key);
    this.#changed(op);
  }

  #changed(op: OperationRecord): void {
    for (const listener of this.#listeners) listener(op);
  }

  /**
   * `cancel_operation`: queued or failed -> cancelled (releases the window).
   * @throws SimError 409 `version_conflict` (details.current_version) on a version mismatch
   * @throws SimError 409 `invalid_operation_transition` from running, succeeded or cancelled
   */
  cancel(op: OperationRecord, expectedVersion: number, nowMs: number): void {
    guard(op, expectedVersion, ["queued", "failed"]);
    op.error = op.status === "failed" ? op.error : null;
    this.transition(op, "cancelled", nowMs);
  }

  /**
   * `retry_operation`: failed -> queued, same identity and window.
   * @throws SimError 409 `version_conflict` or `invalid_operation_transition` as for {@link cancel}
   */
  retry(op: OperationRecord, expectedVersion: number, nowMs: number): void {
    guard(op, expectedVersion, ["failed"]);
    op.error = null;
    this.transition(op, "queued", nowMs);
  }

  /**
   * One page, newest first. The cursor is opaque, bound to the filters and sealed.
   * @throws SimError 422 `invalid_request` for a cursor not issued for these filters, or changed since
   */
  list(filter: OperationFilter, limit: number, cursor: string | undefined) {
    const signature = filterSignature(filter);
    const sealed = (seq: number): string => seal(this.cursorKey, `${signature}\n${seq}`);
    let before = Number.POSITIVE_INFINITY;
    if (cursor !== undefined) {
      const match = /^c(\d+)\.([a-f0-9]+)$/.exec(cursor);
      if (!match || match[2] !== sealed(Number(match[1])))
        throw invalidRequest("cursor", "was not issued for these filters");
      before = Number(match[1]);
    }
    const matching = (this.#byScope.get(filter.scope_id) ?? [])
      .filter((op) => op.seq < before)
      .filter((op) => !filter.status || op.status === filter.status)
      .filter((op) => !filter.kind || op.kind === filter.kind)
      .reverse();
    const page = matching.slice(0, limit);
    const last = page[page.length - 1];
    const next = matching.length > limit && last ? `c${last.seq}.${sealed(last.seq)}` : null;
    return { operations: page.map(toWireOperation), next_cursor: next };
  }

  /** Every record (for inspection). */
  all(): OperationRecord[] {
    return [...this.#byId.values()].sort((a, b) => a.seq - b.seq);
  }
}

function guard(op: OperationRecord, expectedVersion: number, from: readonly OperationStatus[]): void {
  if (op.version !== expectedVersion) {
    throw new SimError(409, "version_conflict", "The operation changed since the given version.", {
      current_version: op.version,
    });
  }
  if (!from.includes(op.status)) {
    throw new SimError(
      409,
      "invalid_operation_transition",
      "The operation cannot make this change from its current status.",
      {
        current_status: op.status,
        current_version: op.version,
      },
    );
  }
}

function filterSignature(filter: OperationFilter): string {
  const text = `${filter.scope_id}\u0000${filter.status ?? ""}\u0000${filter.kind ?? ""}`;
  let hash = 2166136261;
  for (let i = 0; i < text.length; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619) >>> 0;
  return hash.toString(36);
}

/** The `Operation` wire body of a record. */
export function toWireOperation(op: OperationRecord) {
  return {
    operation_id: op.operation_id,
    kind: op.kind,
    scope_id: op.scope_id,
    status: op.status,
    version: op.version,
    created_at: isoTime(op.created_at),
    updated_at: isoTime(op.updated_at),
    started_at: op.started_at === null ? null : isoTime(op.started_at),
    finished_at: op.finished_at === null ? null : isoTime(op.finished_at),
    attempt_count: op.attempt_count,
    error: op.error ? { ...op.error } : null,
    result: op.result ? structuredClone(op.result) : null,
  };
}
