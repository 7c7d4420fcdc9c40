import { SimError } from "./errors.js";
import { toWireOperation, type OperationError, type OperationRecord, type OperationStore } from "./operations.js";
import { DueQueue } from "./due-queue.js";
import type { HandlerResult } from "./types.js";
import type { MemoryStore } from "./memory.js";
import type { SourceStore } from "./sources.js";

/**
 * Asynchronous memory flush over Source windows (seed 002, docs/architecture.md).
 *
 * A window is named by its logical key `[kind, scope, cursor name, cursor
 * generation, cursor position]`; the upper bound `through` is fixed by the
 * first submission and is not part of the key, so a later flush of the same
 * window merges into the existing Operation (`created=false`) and Sources
 * captured meanwhile belong to the next window. The key stays held until the
 * Operation ends; a failed Operation keeps holding it (409 operation_blocked)
 * until an operator retries or cancels it.
 *
 * Work progresses lazily with the clock: queued for `queuedMs`, running for
 * `runningMs`. When the whole remaining work fits in `waitBudgetMs`, the flush
 * answers 200 with the finished result, otherwise 202 + Location + Retry-After.
 */

/** Timing of flush work, all in milliseconds. */
export interface FlushTiming {
  /** Time an Operation stays queued before its attempt starts. Default 100. */
  queuedMs: number;
  /** Time one attempt runs before it succeeds or fails. Default 400. */
  runningMs: number;
  /** How long a flush may wait for the work before answering 202. Default 1000. */
  waitBudgetMs: number;
}

/** Memory Cursor name and generation used in the logical key. */
export const MEMORY_CURSOR = { name: "memory", generation: 0 } as const;

/** One submission, as recorded for inspection. */
export interface FlushSubmission {
  readonly scope_id: string;
  readonly operation_id: string | null;
  readonly created: boolean;
  readonly status: number;
}

/**
 * How many flush submissions `inspect.flushSubmissions()` keeps: the latest ones. A
 * simulator serving a long CI run or a shared development server answers any number
 * of flushes in bounded memory.
 */
export const SUBMISSION_LOG_SIZE = 1000;

/** The flush engine of the simulator. */
export class FlushEngine {
  readonly #cursor = new Map<string, number>();
  #lastProcessedMs: number | null = null;
  readonly #failures: OperationError[] = [];
  /** Queued and running Operations by the time of their next transition. */
  readonly #due = new DueQueue<OperationRecord>();
  /** The latest {@link SUBMISSION_LOG_SIZE} submissions, oldest first (a ring: older ones are dropped). */
  readonly submissions: FlushSubmission[] = [];

  constructor(
    private readonly operations: OperationStore,
    private readonly sources: SourceStore,
    private readonly memory: MemoryStore,
    private readonly timing: FlushTiming,
  ) {
    operations.onChange((op) => this.#schedule(op));
  }

  #record(submission: FlushSubmission): void {
    this.submissions.push(submission);
    if (this.submissions.length > SUBMISSION_LOG_SIZE)
      this.submissions.splice(0, this.submissions.length - SUBMISSION_LOG_SIZE);
  }

  /** The Memory Cursor position of a scope (Sources after it are not yet in Memory). */
  cursor(scopeId: string): number {
    return this.#cursor.get(scopeId) ?? 0;
  }

  /** The seed 002 logical key of the window starting after `after`. */
  logicalKey(scopeId: string, after: number): string {
    return JSON.stringify(["memory_flush", scopeId, MEMORY_CURSOR.name, MEMORY_CURSOR.generation, after]);
  }

  /** Makes the next `count` flush attempts fail with `error`. */
  failNextAttempts(count: number, error: OperationError): void {
    for (let i = 0; i < count; i += 1) this.#failures.push({ ...error });
  }

  /** When a flush last moved a Scope's cursor (ms since the epoch), synchronous or through its Operation; null before. */
  get lastProcessedMs(): number | null {
    return this.#lastProcessedMs;
  }

  /**
   * `flush_memory` for one scope.
   * @returns 200 FlushMemoryResponse, or 202 Operation with Location and Retry-After
   * @throws SimError 409 `operation_blocked` (details.operation_id) while a failed Operation holds the window
   */
  flush(scopeId: string, nowMs: number): HandlerResult {
    const after = this.cursor(scopeId);
    const key = this.logicalKey(scopeId, after);
    let op = this.operations.holderOf(scopeId, key);
    const created = op === undefined;
    if (op?.status === "failed") {
      this.#record({ scope_id: scopeId, operation_id: op.operation_id, created: false, status: 409 });
      throw new SimError(409, "operation_blocked", "A failed operation holds this memory window.", {
        operation_id: op.operation_id,
      });
    }
    if (!op) {
      const head = this.sources.head(scopeId);
      if (head <= after) {
        this.#record({ scope_id: scopeId, operation_id: null, created: false, status: 200 });
        return { status: 200, body: this.#idle(scopeId, after) };
      }
      op = this.operations.create(scopeId, { key, after, through: head }, nowMs);
    }
    if (this.#remainingMs(op, nowMs) <= this.timing.waitBudgetMs) {
      while (op.status === "queued" || op.status === "running") this.#step(op, nowMs);
    }
    if (op.status === "failed") {
      this.#record({ scope_id: scopeId, operation_id: op.operation_id, created, status: 409 });
      throw new SimError(409, "operation_blocked", "A failed operation holds this memory window.", {
        operation_id: op.operation_id,
      });
    }
    if (op.status === "succeeded" && op.result) {
      this.#record({ scope_id: scopeId, operation_id: op.operation_id, created, status: 200 });
      return { status: 200, body: structuredClone(op.result) };
    }
    this.#record({ scope_id: scopeId, operation_id: op.operation_id, created, status: 202 });
    const retryAfterS = Math.max(1, Math.ceil(this.#remainingMs(op, nowMs) / 1000));
    return {
      status: 202,
      body: toWireOperation(op),
      headers: { Location: `/v1/operations/${op.operation_id}`, "Retry-After": String(retryAfterS) },
    };
  }

  /**
   * Moves every queued or running Operation forward to `nowMs`, at its natural
   * transition times, in the order they fall due. Touches only Operations with
   * a transition due, whatever the number of Operations and scopes.
   */
  advance(nowMs: number): void {
    for (let op = this.#due.takeDue(nowMs); op !== undefined; op = this.#due.takeDue(nowMs)) {
      this.#step(op, this.#nextTransitionAt(op));
    }
  }

  /**
   * Changes the timing from now on: Operations in progress keep their phase start and take the new durations.
   * @returns the timing it replaced (a copy), to restore it later
   */
  setTiming(nowMs: number, timing: Partial<FlushTiming>): FlushTiming {
    this.advance(nowMs);
    const before = { ...this.timing };
    Object.assign(this.timing, timing);
    for (const op of this.#due.keys()) this.#schedule(op);
    return before;
  }

  /** When a queued or running Operation makes its next transition (ms). */
  #nextTransitionAt(op: OperationRecord): number {
    return op.phaseSince + (op.status === "queued" ? this.timing.queuedMs : this.timing.runningMs);
  }

  #schedule(op: OperationRecord): void {
    if (op.status === "queued" || op.status === "running") this.#due.schedule(op, this.#nextTransitionAt(op));
    else this.#due.cancel(op);
  }

  /** Time until `op` finishes if nothing fails (ms, >= 0). */
  #remainingMs(op: OperationRecord, nowMs: number): number {
    const { queuedMs, runningMs } = this.timing;
    if (op.status === "queued") return Math.max(0, op.phaseSince + queuedMs - nowMs) + runningMs;
    if (op.status === "running") return Math.max(0, op.phaseSince + runningMs - nowMs);
    return 0;
  }

  /** One transition: queued -> running (attempt starts) or running -> succeeded | failed. */
  #step(op: OperationRecord, atMs: number): void {
    if (op.status === "queued") {
      op.pendingFailure = this.#failures.shift() ?? null;
      this.operations.transition(op, "running", atMs);
      return;
    }
    if (op.pendingFailure) {
      op.error = op.pendingFailure;
      op.pendingFailure = null;
      this.operations.transition(op, "failed", atMs);
      return;
    }
    const { after, through } = op.window;
    const window = this.sources.window(op.scope_id, after, through).filter((s) => !s.derived);
    this.memory.write(
      op.scope_id,
      window.map((s) => ({ kind: "observation", text: s.content })),
    );
    this.#cursor.set(op.scope_id, through);
    this.#lastProcessedMs = atMs;
    op.result = {
      status: "processed",
      previous_cursor: after,
      current_cursor: through,
      high_watermark: this.sources.head(op.scope_id),
      processed_source_count: window.length,
      // The release's Atomic Memory flush names no single Memory Artifact: it writes one per
      // record (listed by `list_atomic_memories`), and answers null here whatever it wrote.
      memory: null,
    };
    this.operations.transition(op, "succeeded", atMs);
  }

  #idle(scopeId: string, after: number) {
    return {
      status: "idle",
      previous_cursor: after,
      current_cursor: after,
      high_watermark: this.sources.head(scopeId),
      processed_source_count: 0,
      memory: null,
    };
  }
}
