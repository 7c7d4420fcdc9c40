import { SimError } from "./errors.js";
import { isoTime } from "./clock.js";
import type { SeededRandom } from "./random.js";
import { DueQueue } from "./due-queue.js";
import type { SourceStore } from "./sources.js";
import { TopicBlockStore, type TopicBlock } from "./topic-blocks.js";
import {
  TOPIC_BINDING,
  exhausted,
  limitCode,
  type TopicAttempt,
  type TopicScopeState,
  type TopicTiming,
} from "./topic-state.js";

export {
  TOPIC_BUDGET,
  TOPIC_BINDING,
  type TopicAttempt,
  type TopicBudget,
  type TopicScopeState,
  type TopicTiming,
} from "./topic-state.js";

/**
 * Topic Memory processing per Scope (seed 000, docs/architecture.md): the Cursor
 * (`source_after`), the retained target, the current budget with its current
 * attempt (live = may still publish, or stopped), and blocks with their
 * one-time retry receipt.
 *
 * Attempts run lazily with the clock while processing is enabled. Each
 * attempt reserves one attempt, `requestsPerAttempt` requests and
 * `tokensPerAttempt` tokens; the first selects up to `windowSize` Sources past
 * the Cursor, each later one in the same budget halves the span (selections
 * 2, 1, 1 give source_through 1, budget coverage 2, as in the seed's example).
 * A success publishes: the Cursor moves to the selected end and the budget is
 * deleted. A stopped attempt with an exhausted budget (3 attempts, 512
 * requests or 64,000,000 tokens) is fixed as a block.
 */

/** Most steps one scope takes in one {@link TopicMemory.advance}; the rest waits for the next. */
const STEPS_PER_ADVANCE = 64;

/** The Topic Memory processing engine. */
export class TopicMemory {
  readonly #scopes = new Map<string, TopicScopeState>();
  /** Scopes with something due: a live attempt's end, or the admission of the next attempt. */
  readonly #due = new DueQueue<string>();
  readonly #failures: string[] = [];
  readonly blocks = new TopicBlockStore();
  enabled = true;

  constructor(
    private readonly sources: SourceStore,
    private readonly random: SeededRandom,
    private readonly timing: TopicTiming,
  ) {}

  /** The scope's state, created idle on first use. */
  state(scopeId: string): TopicScopeState {
    let st = this.#scopes.get(scopeId);
    if (!st) {
      st = { cursor: 0, target: null, budget: null, attempt: null, generation: 0, readySince: 0 };
      this.#scopes.set(scopeId, st);
    }
    return st;
  }

  /** Every scope with processing state. */
  scopes(): string[] {
    return [...this.#scopes.keys()];
  }

  /** Makes the next `count` admitted attempts stop with `code` instead of publishing. */
  failNextAttempts(count: number, code: string): void {
    for (let i = 0; i < count; i += 1) this.#failures.push(code);
  }

  /** A Source was captured at `nowMs`: an idle scope becomes ready to admit an attempt from then on. */
  noteSource(scopeId: string, nowMs: number): void {
    const st = this.state(scopeId);
    if (!st.attempt?.live && st.cursor >= this.sources.head(scopeId) - 1) st.readySince = nowMs;
    this.#schedule(scopeId, st);
  }

  /**
   * Runs every scope with something due forward to `nowMs`, in the order its
   * work falls due, fixing a block as soon as a stopped attempt exhausts its
   * budget. Scopes with nothing due are not touched, so the cost does not grow
   * with the number of scopes. Nothing runs while processing is disabled.
   */
  advance(nowMs: number): void {
    if (!this.enabled) return;
    const steps = new Map<string, number>();
    const deferred: string[] = [];
    for (let scopeId = this.#due.takeDue(nowMs); scopeId !== undefined; scopeId = this.#due.takeDue(nowMs)) {
      const st = this.state(scopeId);
      const taken = (steps.get(scopeId) ?? 0) + 1;
      steps.set(scopeId, taken);
      const changed = this.#stepOnce(scopeId, st, nowMs);
      this.observe(scopeId);
      if (changed && taken < STEPS_PER_ADVANCE) this.#schedule(scopeId, st);
      else deferred.push(scopeId);
    }
    for (const scopeId of deferred) this.#schedule(scopeId, this.state(scopeId));
  }

  /** Puts the scope on the queue at the time its next step is due, or takes it off when it waits for an event. */
  #schedule(scopeId: string, st: TopicScopeState): void {
    if (st.attempt?.live) this.#due.schedule(scopeId, st.attempt.ends_at);
    else if (st.cursor < this.sources.head(scopeId) && !(st.budget && exhausted(st.budget)))
      this.#due.schedule(scopeId, st.readySince);
    else this.#due.cancel(scopeId);
  }

  /** The block record matching the scope's current exhausted, stopped attempt, recorded on first observation. */
  observe(scopeId: string): TopicBlock | null {
    const st = this.state(scopeId);
    const { budget, attempt } = st;
    if (!budget || !attempt || attempt.live || !exhausted(budget)) return null;
    return this.blocks.observe(
      {
        scope_id: scopeId,
        binding_name: TOPIC_BINDING,
        source_after: st.cursor,
        attempt_id: attempt.attempt_id,
        source_through: attempt.selected_through,
        budget_source_through: budget.coverage,
        legacy_source_through: null,
        target_source_through: st.target ?? attempt.selected_through,
        attempts: budget.attempts,
        requests: budget.requests,
        tokens: budget.tokens,
        error_code: budget.limit_code ?? "window_attempt_limit",
        last_error_code: attempt.last_error_code,
        blocked_at: isoTime(attempt.ends_at),
      },
      () => this.random.id("blk"),
    );
  }

  /**
   * `retry_topic_memory_processing`: the receipt of a block, accepting it first if needed.
   * @throws SimError 404 `topic_memory_block_not_found` for an unknown or other-scope id
   * @throws SimError 409 `topic_memory_block_conflict` for a never-retried block that is not current
   * @throws SimError 503 `processing_unavailable` when processing is disabled and nothing can be replayed
   */
  retry(scopeId: string, blockId: string, nowMs: number): TopicBlock {
    const block = this.blocks.get(scopeId, blockId);
    if (block.retried_at !== null) return structuredClone(block);
    const current = this.observe(scopeId);
    if (current?.block_id !== blockId) {
      throw new SimError(
        409,
        "topic_memory_block_conflict",
        "The block was never retried and is no longer current.",
        null,
      );
    }
    if (!this.enabled) {
      throw new SimError(503, "processing_unavailable", "Topic Memory processing is disabled.", null);
    }
    const st = this.state(scopeId);
    st.generation += 1;
    st.budget = null;
    st.attempt = null;
    st.readySince = nowMs;
    this.#schedule(scopeId, st);
    return this.blocks.accept(blockId, isoTime(nowMs), st.generation);
  }

  /** The `TopicMemoryProcessingStatus` wire body (`source_cursor` is the Cursor, the blocks' `source_after`). */
  status(scopeId: string) {
    const st = this.state(scopeId);
    const head = this.sources.head(scopeId);
    const block = this.observe(scopeId);
    const current = block && block.retried_at === null ? block : null;
    const state = current ? "blocked" : st.attempt?.live || st.cursor < head ? "pending" : "idle";
    return {
      state,
      source_cursor: st.cursor,
      source_head: head,
      target_source_through: st.target,
      block: current ? structuredClone(current) : null,
    };
  }

  /** Admits an attempt, or finishes the live one. @returns false when nothing changed */
  #stepOnce(scopeId: string, st: TopicScopeState, nowMs: number): boolean {
    const attempt = st.attempt;
    if (attempt?.live) {
      if (attempt.ends_at > nowMs) return false;
      if (attempt.failure !== null) {
        attempt.live = false;
        attempt.last_error_code = attempt.failure;
      } else {
        st.cursor = attempt.selected_through;
        st.budget = null;
        st.attempt = null;
        if (st.target !== null && st.cursor >= st.target) st.target = null;
      }
      st.readySince = attempt.ends_at;
      return true;
    }
    const head = this.sources.head(scopeId);
    if (st.cursor >= head || (st.budget && exhausted(st.budget)) || st.readySince > nowMs) return false;
    this.#admit(scopeId, st, st.readySince, this.#failures.shift() ?? null);
    return true;
  }

  /** Starts one attempt at `atMs`, reserving its share of the budget. */
  #admit(scopeId: string, st: TopicScopeState, atMs: number, failure: string | null): TopicAttempt {
    st.target ??= this.sources.head(scopeId);
    const previous = st.attempt && st.budget ? st.attempt.selected_through : null;
    const span = previous === null ? this.timing.windowSize : Math.floor((previous - st.cursor) / 2);
    const selected = Math.min(st.target, st.cursor + Math.max(1, span));
    const budget = (st.budget ??= { attempts: 0, requests: 0, tokens: 0, coverage: selected, limit_code: null });
    budget.attempts += 1;
    budget.requests += this.timing.requestsPerAttempt;
    budget.tokens += this.timing.tokensPerAttempt;
    budget.coverage = Math.max(budget.coverage, selected);
    budget.limit_code = limitCode(budget);
    st.attempt = {
      attempt_id: this.random.id("att"),
      selected_through: selected,
      live: true,
      ends_at: atMs + this.timing.attemptMs,
      failure,
      last_error_code: null,
    };
    return st.attempt;
  }

  /**
   * Scenario helper: admits failing attempts until the budget is exhausted, at `nowMs`.
   * The last attempt stays live (pending) when `live` is true, else it is stopped and fixed as a block.
   * @throws Error when the scope has no Source past its Cursor
   */
  exhaust(scopeId: string, nowMs: number, lastErrorCode: string, live: boolean): void {
    const st = this.state(scopeId);
    if (st.cursor >= this.sources.head(scopeId)) throw new Error("exhaust: the scope has no pending Source");
    if (st.attempt && !st.budget) st.attempt = null;
    while (!st.budget || !exhausted(st.budget)) {
      const attempt = this.#admit(scopeId, st, nowMs, lastErrorCode);
      attempt.ends_at = nowMs;
      attempt.live = false;
      attempt.last_error_code = lastErrorCode;
    }
    if (live && st.attempt) {
      st.attempt.live = true;
      st.attempt.last_error_code = null;
      st.attempt.ends_at = Number.POSITIVE_INFINITY;
    }
    this.#schedule(scopeId, st);
    this.observe(scopeId);
  }

  /** Scenario helper: the live attempt's worker is found stopped at `nowMs` with `code` (null = unknown). */
  stopAttempt(scopeId: string, nowMs: number, code: string | null): void {
    const attempt = this.state(scopeId).attempt;
    if (!attempt?.live) throw new Error("stopAttempt: no live attempt");
    attempt.live = false;
    attempt.ends_at = nowMs;
    attempt.failure = code;
    attempt.last_error_code = code;
    this.#schedule(scopeId, this.state(scopeId));
    this.observe(scopeId);
  }

  /** Scenario helper: the window is published by other means (e.g. an offline import); the current block goes stale. */
  supersede(scopeId: string): void {
    const st = this.state(scopeId);
    st.cursor = st.attempt?.selected_through ?? st.target ?? st.cursor;
    st.budget = null;
    st.attempt = null;
    if (st.target !== null && st.cursor >= st.target) st.target = null;
    this.#schedule(scopeId, st);
  }
}
