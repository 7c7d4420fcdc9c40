import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/core/runtime.js";
import { runOperation } from "../../src/core/run-operation.js";
import type { FetchLike } from "../../src/transport/fetch-adapter.js";
import { descriptor } from "../helpers/descriptors.js";
import { json, socketClosed } from "@powercontext/runtime/testing";

const retryProcessing = descriptor({
  operationId: "retry_topic_memory_processing",
  path: "/v1/topic-memory/processing/retry",
  retryClass: "replay",
});

/**
 * A processing-retry endpoint keyed by block_id (seed 000): the first request
 * for a block is accepted once and its receipt stored; any later request for
 * the same block returns that receipt unchanged. `dropFirstResponse` loses the
 * first response after the server accepted (a reset keep-alive socket).
 */
function processingServer(dropFirstResponse: boolean) {
  const receipts = new Map<string, Record<string, unknown>>();
  let acceptances = 0;
  let requests = 0;
  const fetch: FetchLike = async (_url, init) => {
    requests += 1;
    const { block_id: blockId } = JSON.parse(init.body ?? "{}") as { block_id: string };
    let receipt = receipts.get(blockId);
    if (receipt === undefined) {
      acceptances += 1;
      receipt = {
        block_id: blockId,
        retried_at: "2026-11-30T10:00:00Z",
        retry_request_generation: acceptances,
        budget: { attempts: 3, requests: 512, tokens: 64_000_000 },
      };
      receipts.set(blockId, receipt);
      if (dropFirstResponse && requests === 1) throw socketClosed();
    }
    return json(200, receipt);
  };
  return { fetch, counts: () => ({ acceptances, requests }) };
}

describe("replay class", () => {
  it("returns the original receipt after a lost response, exactly as a first success would", async () => {
    const lossy = processingServer(true);
    const clean = processingServer(false);
    const options = { baseUrl: "https://pc.example.com", retry: { baseDelayMs: 0, maxDelayMs: 0 } };
    const request = { scope_id: "scope-1", block_id: "blk_7" };

    const replayed = await runOperation(createRuntime({ ...options, fetch: lossy.fetch }), retryProcessing, request);
    const first = await runOperation(createRuntime({ ...options, fetch: clean.fetch }), retryProcessing, request);

    expect(lossy.counts()).toEqual({ acceptances: 1, requests: 2 });
    expect(clean.counts()).toEqual({ acceptances: 1, requests: 1 });
    expect(replayed.data).toEqual(first.data);
    expect(replayed.statusCode).toBe(first.statusCode);
    expect(replayed.reconciled).toBe(false);
  });

  it("re-sends the request body intact on every attempt, even if the caller mutates its object", async () => {
    const bodies: (string | undefined)[] = [];
    const fetch: FetchLike = async (_url, init) => {
      bodies.push(init.body);
      if (bodies.length < 3) throw socketClosed();
      return json(200, { ok: true });
    };
    const request: Record<string, unknown> = { scope_id: "scope-1", block_id: "blk_7", note: "ünïcødé ✓" };
    const expected = JSON.stringify(request);
    const runtime = createRuntime({
      baseUrl: "https://pc.example.com",
      fetch,
      retry: { baseDelayMs: 0, maxDelayMs: 0 },
      onRetry: () => {
        request.block_id = "changed";
      },
    });
    await runOperation(runtime, retryProcessing, request);
    expect(bodies).toEqual([expected, expected, expected]);
  });
});
