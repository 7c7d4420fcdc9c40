import type { JsonRecord } from "./members.js";
import type { AccessLedger } from "./access/ledger.js";
import type { AccessControl } from "./access/decide.js";
import type { AfterAccess } from "./access/after.js";
import type { AtomicLifecycle } from "./atomic-lifecycle.js";
import type { FlushEngine } from "./flush.js";
import type { Handoffs } from "./handoffs.js";
import type { MemoryStore } from "./memory.js";
import type { Prompts } from "./prompts.js";
import type { OperationStore } from "./operations.js";
import type { ResourceEngine } from "./resources/engine.js";
import type { ResourceStore } from "./resources/store.js";
import type { ScopeStore } from "./scopes.js";
import type { SkillDomain } from "./skills/index.js";
import type { SourceStore } from "./sources.js";
import type { SubjectSources } from "./subject-sources.js";
import type { TopicMemory } from "./topic-memory.js";

/** Everything the operation handlers read and change, composed by `createPowerContextSimulator`. */
export interface SimulatorState {
  /** Every stored record of the resource families (`x-powercontext-resources`). */
  readonly store: ResourceStore;
  /** The generic engine answering the operations that declare `x-powercontext-resource`. */
  readonly engine: ResourceEngine;
  /** Preset bindings, policy revisions, the access audit and binding replacement. */
  readonly access: AccessLedger;
  /** The access decisions (bindings, owners, the static preset), for checks a domain module makes itself. */
  readonly control: AccessControl;
  /** The key the simulator's own list cursors are sealed with (`resources/cursor.ts`). */
  readonly cursorKey: string;
  /** The checks after the access layer (`x-powercontext-access-after`), for the `domain` stage. */
  readonly after: AfterAccess;
  readonly scopes: ScopeStore;
  readonly sources: SourceStore;
  readonly subjects: SubjectSources;
  readonly handoffs: Handoffs;
  readonly prompts: Prompts;
  readonly memory: MemoryStore;
  readonly lifecycle: AtomicLifecycle;
  readonly operations: OperationStore;
  readonly flush: FlushEngine;
  readonly topic: TopicMemory;
  /** Managed Skills, remote Skill targets and their publications. */
  readonly skills: SkillDomain;
  /**
   * What the extraction diagnostics report (`get_capabilities`): since when (the server's
   * start), the last failure a refusal recorded (`records.extraction_failure`, with its
   * time), and the time of the last flush that processed Sources.
   */
  readonly extraction: { readonly since: string; lastFailure: JsonRecord | null };
  /** False makes `get_readiness` answer 503 not_ready. */
  ready: boolean;
  /** Requests handled so far. */
  requests: number;
}
