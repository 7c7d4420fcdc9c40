/**
 * The shapes of Topic Memory processing state (seed 000) and the budget
 * rule: what one scope holds between requests, and when a budget is used up.
 */

/** The bounded budget one acceptance grants (seed 000). */
export const TOPIC_BUDGET = { attempts: 3, requests: 512, tokens: 64_000_000 } as const;

/** Binding name reported in status and block records. */
export const TOPIC_BINDING = "topic-memory-source-window";

/** Tunables of Topic Memory processing. */
export interface TopicTiming {
  /** Duration of one attempt in ms. Default 100. */
  readonly attemptMs: number;
  /** Largest number of Sources the first attempt of a budget selects. Default 2. */
  readonly windowSize: number;
  /** Requests reserved per attempt. Default 3. */
  readonly requestsPerAttempt: number;
  /** Tokens reserved per attempt. Default 20,000. */
  readonly tokensPerAttempt: number;
}

export interface TopicAttempt {
  attempt_id: string;
  selected_through: number;
  live: boolean;
  ends_at: number;
  /** Error code the attempt stops with; null when it will publish. */
  failure: string | null;
  last_error_code: string | null;
}

export interface TopicBudget {
  attempts: number;
  requests: number;
  tokens: number;
  coverage: number;
  limit_code: string | null;
}

/** Mutable per-scope processing state. */
export interface TopicScopeState {
  cursor: number;
  target: number | null;
  budget: TopicBudget | null;
  attempt: TopicAttempt | null;
  generation: number;
  readySince: number;
}

/** True when the budget has reached one of its limits. */
export function exhausted(budget: TopicBudget): boolean {
  return limitCode(budget) !== null;
}

/** The first limit the budget has reached, or null. */
export function limitCode(budget: TopicBudget): string | null {
  if (budget.attempts >= TOPIC_BUDGET.attempts) return "window_attempt_limit";
  if (budget.requests >= TOPIC_BUDGET.requests) return "window_request_limit";
  if (budget.tokens >= TOPIC_BUDGET.tokens) return "window_token_limit";
  return null;
}
