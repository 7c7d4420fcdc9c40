import type { FlushEngine } from "./flush.js";
import type { MemoryStore } from "./memory.js";
import type { OperationStore } from "./operations.js";
import type { ScopeStore } from "./scopes.js";
import type { SourceStore } from "./sources.js";
import type { TopicMemory } from "./topic-memory.js";

/** Everything the operation handlers read and change, composed by `createPowerContextSimulator`. */
export interface SimulatorState {
  readonly scopes: ScopeStore;
  readonly sources: SourceStore;
  readonly memory: MemoryStore;
  readonly operations: OperationStore;
  readonly flush: FlushEngine;
  readonly topic: TopicMemory;
  /** False makes `get_readiness` answer 503 not_ready. */
  ready: boolean;
  /** Requests handled so far. */
  requests: number;
}
