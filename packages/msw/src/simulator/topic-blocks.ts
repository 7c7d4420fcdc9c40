import { SimError } from "./errors.js";

/**
 * Durable block records and their receipts (seed 000, "持久阻塞和回执"): one
 * row per distinct terminal block, identified by a server-generated
 * `block_id` and unique on (scope_id, binding_name, source_after, attempt_id)
 * so repeated observations converge on one identity. The evidence is
 * immutable once recorded; only the receipt pair (`retried_at`,
 * `retry_request_generation`) changes, together and exactly once. Records
 * never expire.
 */

/** The `TopicMemoryProcessingBlock` wire shape. */
export interface TopicBlock {
  block_id: string;
  scope_id: string;
  binding_name: string;
  source_after: number;
  attempt_id: string;
  source_through: number | null;
  budget_source_through: number | null;
  legacy_source_through: number | null;
  target_source_through: number;
  attempts: number;
  requests: number;
  tokens: number;
  error_code: string;
  last_error_code: string | null;
  blocked_at: string;
  retried_at: string | null;
  retry_request_generation: number | null;
}

/** The evidence of a block, without identity and receipt. */
export type BlockEvidence = Omit<TopicBlock, "block_id" | "retried_at" | "retry_request_generation">;

/** Every block of every scope, plus how often each was accepted. */
export class TopicBlockStore {
  readonly #byId = new Map<string, TopicBlock>();
  readonly #byKey = new Map<string, string>();
  readonly #acceptances = new Map<string, number>();

  /** Records the block for `evidence` on first observation; later observations return the same record. */
  observe(evidence: BlockEvidence, newId: () => string): TopicBlock {
    const key = JSON.stringify([evidence.scope_id, evidence.binding_name, evidence.source_after, evidence.attempt_id]);
    const known = this.#byKey.get(key);
    if (known !== undefined) return this.#byId.get(known) as TopicBlock;
    const block: TopicBlock = { block_id: newId(), ...evidence, retried_at: null, retry_request_generation: null };
    this.#byId.set(block.block_id, block);
    this.#byKey.set(key, block.block_id);
    return block;
  }

  /**
   * A copy of the block, visible only from its own scope.
   * @throws SimError 404 `topic_memory_block_not_found` when unknown or of another scope (not told apart)
   */
  get(scopeId: string, blockId: string): TopicBlock {
    const block = this.#byId.get(blockId);
    if (!block || block.scope_id !== scopeId) {
      throw new SimError(
        404,
        "topic_memory_block_not_found",
        "No processing block with this id exists in the scope.",
        null,
      );
    }
    return structuredClone(block);
  }

  /**
   * Sets the receipt pair once and counts the acceptance.
   * @throws Error when the block is unknown or already accepted (a simulator bug, never a client error)
   */
  accept(blockId: string, retriedAt: string, generation: number): TopicBlock {
    const block = this.#byId.get(blockId);
    if (!block || block.retried_at !== null) throw new Error(`block ${blockId} cannot be accepted twice`);
    block.retried_at = retriedAt;
    block.retry_request_generation = generation;
    this.#acceptances.set(blockId, (this.#acceptances.get(blockId) ?? 0) + 1);
    return structuredClone(block);
  }

  /** Records an imported legacy block (never current, so never accepted later). */
  importLegacy(block: TopicBlock): TopicBlock {
    this.#byId.set(block.block_id, structuredClone(block));
    return structuredClone(block);
  }

  /** How many retries were accepted for `blockId` (0 or 1 while the invariants hold). */
  acceptances(blockId: string): number {
    return this.#acceptances.get(blockId) ?? 0;
  }

  /** Copies of every block, in creation order. */
  all(): TopicBlock[] {
    return [...this.#byId.values()].map((b) => structuredClone(b));
  }
}
