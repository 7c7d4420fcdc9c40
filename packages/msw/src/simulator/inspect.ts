import type { FlushSubmission } from "./flush.js";
import { toWireOperation } from "./operations.js";
import type { SimulatorState } from "./state.js";
import type { TopicBlock } from "./topic-blocks.js";
import type { TopicScopeState } from "./topic-memory.js";

/**
 * Read-only views for tests and examples: facts a client cannot see over
 * the wire, such as how many times a block was accepted. Every value is a
 * copy; changing it changes nothing in the simulator.
 */
export interface SimulatorInspector {
  /** Retries accepted for `blockId`: 0 before, exactly 1 after any number of replays. */
  acceptances(blockId: string): number;
  /** Budgets granted to the scope by accepted retries (its processing request generation). */
  budgetsGranted(scopeId: string): number;
  /** Every block record, optionally of one scope. */
  blocks(scopeId?: string): TopicBlock[];
  /** The scope's Topic Memory processing state (Cursor, target, budget, current attempt). */
  topic(scopeId: string): TopicScopeState;
  /** Every Operation as its wire body, optionally of one scope, oldest first. */
  operations(scopeId?: string): ReturnType<typeof toWireOperation>[];
  /**
   * The latest flush submissions (at most `SUBMISSION_LOG_SIZE`, 1,000), oldest first: the
   * Operation each joined, whether it created it, the status answered.
   */
  flushSubmissions(): FlushSubmission[];
  /** The scope's Memory flush Cursor. */
  memoryCursor(scopeId: string): number;
  /** Requests the simulator has started handling (faulted ones included). */
  requestCount(): number;
  /** The whole observable state as plain JSON, for before/after comparisons. */
  snapshot(): unknown;
}

/** Builds the inspector over the composed state. */
export function createInspector(state: SimulatorState): SimulatorInspector {
  const inspector: SimulatorInspector = {
    acceptances: (blockId) => state.topic.blocks.acceptances(blockId),
    budgetsGranted: (scopeId) => state.topic.state(scopeId).generation,
    blocks: (scopeId) => state.topic.blocks.all().filter((b) => scopeId === undefined || b.scope_id === scopeId),
    topic: (scopeId) => structuredClone(state.topic.state(scopeId)),
    operations: (scopeId) =>
      state.operations
        .all()
        .filter((op) => scopeId === undefined || op.scope_id === scopeId)
        .map(toWireOperation),
    flushSubmissions: () => state.flush.submissions.map((s) => ({ ...s })),
    memoryCursor: (scopeId) => state.flush.cursor(scopeId),
    requestCount: () => state.requests,
    snapshot: () => {
      const scopes = [...new Set([...state.sources.scopes(), ...state.topic.scopes()])].sort();
      return JSON.parse(
        JSON.stringify({
          ready: state.ready,
          processing_enabled: state.topic.enabled,
          scopes: scopes.map((scopeId) => ({
            scope_id: scopeId,
            source_head: state.sources.head(scopeId),
            memory_cursor: state.flush.cursor(scopeId),
            memory: state.memory.list(scopeId, true, Number.MAX_SAFE_INTEGER).entries,
            topic: state.topic.state(scopeId),
            acceptances: state.topic.blocks
              .all()
              .filter((b) => b.scope_id === scopeId)
              .map((b) => [b.block_id, state.topic.blocks.acceptances(b.block_id)]),
          })),
          blocks: state.topic.blocks.all(),
          operations: state.operations.all().map(toWireOperation),
        }),
      );
    },
  };
  return inspector;
}
