/**
 * Contract tests of the notes service against the PowerContext msw handlers:
 * no server runs, msw answers the SDK's requests in this process from a
 * simulator of the contract. Each test gets a simulator of its own, so what one
 * test sets up (an override, a fault, a blocked window) never leaks into the next.
 *
 * Run: npx vitest run examples/contract-tests
 */
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ManualClock,
  createPowerContextHandlers,
  createPowerContextSimulator,
  type PowerContextSimulator,
  type SimulatorOptions,
} from "@powercontext/msw";
import { PowerContextClient } from "@powercontext/sdk";
import { NotesService } from "./notes-service.js";

// A made-up host: msw intercepts every request, nothing leaves the process.
const baseUrl = "http://powercontext.test";
const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** A simulator behind msw for this test, and a client that sends through the global fetch msw intercepts. */
function world(options: SimulatorOptions = {}): {
  sim: PowerContextSimulator;
  client: PowerContextClient;
  notes: NotesService;
  retries: string[];
} {
  const sim = createPowerContextSimulator({ seed: 1, ...options });
  server.use(...createPowerContextHandlers(sim, { baseUrl }));
  const retries: string[] = [];
  const client = new PowerContextClient({
    baseUrl,
    token: "pc-admin",
    // On Node the default transport is undici's dispatcher, which msw does not see.
    fetch: (url, init) => fetch(url, init),
    // Plaintext http to a host that is not loopback needs the opt-in (an https:// URL would not).
    trustTransportSecurity: true,
    onRetry: (event) => retries.push(`${event.operationId}: ${event.reason}`),
  });
  return { sim, client, notes: new NotesService(client), retries };
}

describe("the notes service against the PowerContext contract", () => {
  it("uses the Scope the server names (one operation overridden, typed by the contract)", async () => {
    const { sim, notes } = world();
    sim.override("get_default_scope", () => ({
      status: 200,
      body: {
        scope_id: "team-notes",
        title: "Team notes",
        summary: "What the team wrote down",
        context_references: [],
        external_references: [],
        version: 3,
      },
    }));
    // A wrong answer does not compile (examples/test type-checks this file); it is never installed.
    void (() =>
      // @ts-expect-error the contract declares no 201 for get_default_scope
      sim.override("get_default_scope", () => ({ status: 201, body: {} })));
    expect(await notes.scope()).toBe("team-notes");
  });

  it("commits notes through a 202: the client polls the Operation to the end", async () => {
    const { sim, notes } = world({ waitBudgetMs: 0, flushTiming: { queuedMs: 50, runningMs: 150 } });
    const scope = await notes.scope();
    expect(
      await notes.save(scope, "note", ["lease renewed every ten seconds", "failed windows block their lane"]),
    ).toBe(2);
    expect(await notes.commit(scope, 20_000)).toEqual({ state: "processed", sources: 2 });
    const [submission] = sim.inspect.flushSubmissions();
    expect(submission?.status).toBe(202);
    expect(sim.inspect.operations(scope).map((operation) => operation.status)).toEqual(["succeeded"]);
  });

  it("reports a commit still pending at its deadline, and resumes it later", async () => {
    const clock = new ManualClock();
    const { sim, notes } = world({ clock, waitBudgetMs: 0 });
    const scope = await notes.scope();
    await notes.save(scope, "slow", ["a note that takes a while"]);
    // The simulator's time stands still: the Operation cannot finish before the deadline.
    const pending = await notes.commit(scope, 300);
    expect(pending).toEqual({ state: "pending", operationId: expect.stringMatching(/\S/) });
    if (pending.state !== "pending") return;
    sim.controls.advanceTime(10_000);
    expect(await notes.resume(pending.operationId, 5_000)).toBe("succeeded");
  });

  it("gets past one injected 503 by retrying, and reports a 503 that outlasts the retries", async () => {
    const { sim, notes, retries } = world();
    const scope = await notes.scope();
    sim.controls.injectFault({ operationId: "search_memory", action: { type: "status", status: 503, retryAfterS: 0 } });
    expect(await notes.search(scope, "lease")).toEqual({ state: "found", texts: [] });
    expect(retries).toEqual(["search_memory: status_503"]);

    sim.controls.injectFault({
      operationId: "search_memory",
      times: 10,
      action: { type: "status", status: 503, retryAfterS: 0 },
    });
    expect(await notes.search(scope, "lease")).toEqual({ state: "unavailable", retryAfterMs: 0 });
    sim.controls.clearFaults();
  });

  it("retries a blocked Topic Memory window once, even when the answer is lost and the client replays it", async () => {
    const { sim, client, notes, retries } = world();
    const scope = await notes.scope();
    sim.controls.setProcessingEnabled(false);
    await notes.save(scope, "evt", ["event 1", "event 2", "event 3"]);
    sim.controls.exhaustTopicBudget(scope, { lastErrorCode: "model_timeout" });
    sim.controls.setProcessingEnabled(true);

    // The server accepts the retry, then the connection drops before the answer arrives.
    sim.controls.injectFault({
      operationId: "retry_topic_memory_processing",
      action: { type: "reset", when: "after" },
    });
    const receipt = await notes.recoverTopicMemory(scope);
    expect(receipt).not.toBeNull();
    expect(retries).toEqual([expect.stringMatching(/^retry_topic_memory_processing: /)]);

    // Asked again for the same block, the server replays the same receipt.
    const blockId = receipt!.block.block_id;
    expect(await client.retryTopicMemoryProcessing({ scope_id: scope, block_id: blockId })).toEqual(receipt);
    expect(sim.inspect.acceptances(blockId)).toBe(1);
    expect(sim.inspect.budgetsGranted(scope)).toBe(1);
  });
});
