import { ManualClock, type Clock } from "./clock.js";
import type { FaultInjector, FaultRule } from "./faults.js";
import type { FlushTiming } from "./flush.js";
import type { OperationError } from "./operations.js";
import type { SimulatorState } from "./state.js";
import { TOPIC_BINDING } from "./topic-memory.js";
import type { SeededRandom } from "./random.js";
import { isoTime } from "./clock.js";

/**
 * Scenario controls: the levers a test or an example pulls to reach states a
 * real server reaches through failures and time. None of them is reachable
 * over HTTP; they act on the simulator directly.
 */
export interface SimulatorControls {
  /**
   * Adds a Scope under a chosen id (a real server assigns ids; tests and demos
   * want readable ones). Returns the id; adding an existing id changes nothing.
   */
  addScope(scopeId: string, scope?: { title?: string; summary?: string }): string;
  /** The id of the default Scope (`get_default_scope`). */
  defaultScopeId(): string;
  /** The next `count` (default 1) flush attempts fail with `error` (default model_provider/provider_unavailable). */
  failNextFlushAttempts(count?: number, error?: OperationError): void;
  /** The next `count` (default 1) Topic Memory attempts stop with `code` (default model_timeout). */
  failNextTopicAttempts(count?: number, code?: string): void;
  /**
   * Exhausts the scope's Topic Memory budget now (3 failed attempts). With `live: true` the last
   * attempt is still live, so the scope shows pending until {@link stopTopicAttempt}.
   * @throws Error when the scope has no Source past its Topic Cursor
   */
  exhaustTopicBudget(scopeId: string, options?: { lastErrorCode?: string; live?: boolean }): void;
  /** The live attempt is found stopped with `code` (default worker_lost; null = unknown). @throws Error when none is live */
  stopTopicAttempt(scopeId: string, code?: string | null): void;
  /** The blocked window is published by other means; a never-retried block becomes stale (409 on retry). */
  supersedeTopicBlock(scopeId: string): void;
  /**
   * Records an imported legacy block (seed 000 migration): `source_through` null, the ambiguous end in
   * `legacy_source_through`, `budget_source_through` null. It is never current. @returns its block_id
   */
  importLegacyBlock(
    scopeId: string,
    evidence: { legacySourceThrough: number; targetSourceThrough: number; sourceAfter?: number },
  ): string;
  /** Turns Topic Memory processing on or off (off: no attempts run; a new retry is 503, replays still answer). */
  setProcessingEnabled(enabled: boolean): void;
  /** Makes `get_readiness` answer 200 ready or 503 not_ready. */
  setReady(ready: boolean): void;
  /** Changes flush timing (ms) from now on. @returns the timing it replaced, to restore it later */
  setFlushTiming(timing: Partial<FlushTiming>): FlushTiming;
  /** Advances a {@link ManualClock} by `ms`. @throws Error when the simulator runs on another clock */
  advanceTime(ms: number): void;
  /** Arms a transport fault (see {@link FaultRule}). @throws RangeError for an undeclared status */
  injectFault(rule: FaultRule): void;
  /** Disarms every fault. */
  clearFaults(): void;
}

/** Builds the controls over the composed state. */
export function createControls(
  state: SimulatorState,
  deps: { clock: Clock; faults: FaultInjector; timing: FlushTiming; random: SeededRandom },
): SimulatorControls {
  const now = () => deps.clock.now();
  return {
    addScope: (scopeId, scope = {}) =>
      state.scopes.add(scopeId, { title: scope.title ?? scopeId, summary: scope.summary ?? `Scope ${scopeId}` })
        .scope_id,
    defaultScopeId: () => state.scopes.defaultScopeId,
    failNextFlushAttempts: (count = 1, error = { category: "model_provider", code: "provider_unavailable" }) =>
      state.flush.failNextAttempts(count, error),
    failNextTopicAttempts: (count = 1, code = "model_timeout") => state.topic.failNextAttempts(count, code),
    exhaustTopicBudget: (scopeId, options = {}) => {
      state.topic.advance(now());
      state.topic.exhaust(scopeId, now(), options.lastErrorCode ?? "model_timeout", options.live ?? false);
    },
    stopTopicAttempt: (scopeId, code = "worker_lost") => state.topic.stopAttempt(scopeId, now(), code),
    supersedeTopicBlock: (scopeId) => state.topic.supersede(scopeId),
    importLegacyBlock: (scopeId, evidence) =>
      state.topic.blocks.importLegacy({
        block_id: deps.random.id("blk"),
        scope_id: scopeId,
        binding_name: TOPIC_BINDING,
        source_after: evidence.sourceAfter ?? 0,
        attempt_id: deps.random.id("att"),
        source_through: null,
        budget_source_through: null,
        legacy_source_through: evidence.legacySourceThrough,
        target_source_through: evidence.targetSourceThrough,
        attempts: 3,
        requests: 9,
        tokens: 1000,
        error_code: "window_attempt_limit",
        last_error_code: null,
        blocked_at: isoTime(now()),
        retried_at: null,
        retry_request_generation: null,
      }).block_id,
    setProcessingEnabled: (enabled) => {
      state.topic.advance(now());
      state.topic.enabled = enabled;
    },
    setReady: (ready) => {
      state.ready = ready;
    },
    setFlushTiming: (timing) => state.flush.setTiming(now(), timing),
    advanceTime: (ms) => {
      if (!(deps.clock instanceof ManualClock)) throw new Error("advanceTime needs a ManualClock");
      deps.clock.advance(ms);
    },
    injectFault: (rule) => deps.faults.inject(rule),
    clearFaults: () => deps.faults.clear(),
  };
}
