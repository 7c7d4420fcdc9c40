/**
 * The application code under test: a small notes service over the SDK, as an
 * application team would write it. It saves notes as Sources, commits them to
 * Memory (a flush that may answer 202 and be polled), searches, and recovers
 * blocked Topic Memory processing. Each outcome the team must handle is a value,
 * not an exception: a flush still running at its deadline, a server without a
 * model, a search the server cannot serve right now.
 */
import { OperationPendingError, ServerResponseError, type PowerContextClient } from "@powercontext/sdk";

/** What committing notes to Memory came to. */
export type CommitOutcome =
  | { readonly state: "processed"; readonly sources: number }
  | { readonly state: "pending"; readonly operationId: string }
  | { readonly state: "no-model" };

/** What a search came to. */
export type SearchOutcome =
  | { readonly state: "found"; readonly texts: readonly string[] }
  | { readonly state: "unavailable"; readonly retryAfterMs: number | null };

export class NotesService {
  constructor(private readonly client: PowerContextClient) {}

  /** The Scope the notes go to: the server's default one. */
  async scope(): Promise<string> {
    return (await this.client.getDefaultScope()).scope_id;
  }

  /** Captures each note as a Source (ids `prefix-1`, `prefix-2`, ...); returns how many were captured. */
  async save(scope: string, prefix: string, notes: readonly string[]): Promise<number> {
    for (const [index, content] of notes.entries()) {
      await this.client.captureContentSource({ scope_id: scope, source_id: `${prefix}-${index + 1}`, content });
    }
    return notes.length;
  }

  /** Flushes the Scope's Sources into Memory, waiting at most `deadlineMs` (a 202 is polled until then). */
  async commit(scope: string, deadlineMs: number): Promise<CommitOutcome> {
    try {
      const flushed = await this.client.flushMemory({ scope_id: scope }, { deadlineMs });
      return { state: "processed", sources: flushed.processed_source_count };
    } catch (error) {
      if (error instanceof OperationPendingError) return { state: "pending", operationId: error.operationId };
      if (error instanceof ServerResponseError && error.code === "inference_unavailable") return { state: "no-model" };
      throw error;
    }
  }

  /** Waits for a commit that was still pending; the Operation's final status. */
  async resume(operationId: string, deadlineMs: number): Promise<string> {
    return (await this.client.waitForOperation(operationId, { deadlineMs })).status;
  }

  /** Searches Memory; a 503 the client's retries did not get past is "unavailable", with the server's Retry-After. */
  async search(scope: string, query: string): Promise<SearchOutcome> {
    try {
      const found = await this.client.searchMemory({ scope_id: scope, query });
      return { state: "found", texts: found.hits.map((hit) => hit.memory.text) };
    } catch (error) {
      if (error instanceof ServerResponseError && error.statusCode === 503)
        return { state: "unavailable", retryAfterMs: error.retryAfterMs };
      throw error;
    }
  }

  /** Retries the Scope's blocked Topic Memory window, if there is one; returns the retry's receipt. */
  async recoverTopicMemory(scope: string) {
    const status = await this.client.getTopicMemoryProcessingStatus({ scope_id: scope });
    if (status.state !== "blocked" || status.block === null) return null;
    return await this.client.retryTopicMemoryProcessing({ scope_id: scope, block_id: status.block.block_id });
  }
}
