/**
 * Quickstart: start the embedded mock server, ask it for its default Scope,
 * capture a few Sources, turn
 * them into Memory with an asynchronous flush (the server answers 202 and the
 * client polls the Operation to completion), search the Memory, stop.
 *
 * Run: npx tsx examples/quickstart.ts
 */
import { startMockServer } from "@powercontext/msw/server";
import { PowerContextClient } from "@powercontext/sdk";

const notes = [
  "The scheduler lease is renewed every ten seconds and fenced by a monotonic token.",
  "Flush requests for the same Cursor window merge into one Operation.",
  "A failed window blocks its lane until an operator retries or cancels it.",
];

// The flush work takes longer than the server's wait budget, so the first answer is 202.
const server = await startMockServer({
  seed: 1,
  simulatorOptions: { waitBudgetMs: 0, flushTiming: { queuedMs: 200, runningMs: 800 } },
});

try {
  console.log(`Mock server listening at ${server.url}`);
  const client = new PowerContextClient({ baseUrl: server.url, token: "pc-admin" });
  // Scope ids are the server's: ask for the default one (or create one with createScope).
  const scope = (await client.getDefaultScope()).scope_id;
  console.log(`Working in the default Scope ${scope}.`);

  for (const [index, content] of notes.entries()) {
    const captured = await client.captureContentSource({ scope_id: scope, source_id: `note-${index + 1}`, content });
    console.log(`Captured ${captured.source.source_id} at position ${captured.position}.`);
  }

  const flushed = await client.flushMemory({ scope_id: scope }, { deadlineMs: 30_000 });
  const submission = server.simulator.inspect.flushSubmissions()[0];
  console.log(
    `The server answered the flush with ${submission?.status}; the client polled operation ${submission?.operation_id} until it finished.`,
  );
  console.log(
    `Flush ${flushed.status}: ${flushed.processed_source_count} Sources moved the Memory cursor from ${flushed.previous_cursor} to ${flushed.current_cursor}.`,
  );
  if (submission?.status !== 202 || flushed.status !== "processed")
    throw new Error("expected an asynchronous flush that processed the notes");

  const found = await client.searchMemory({ scope_id: scope, query: "operator retries window" });
  console.log(`Search found ${found.hits.length} Memory entries:`);
  for (const hit of found.hits) console.log(`  ${hit.score.toFixed(2)}  ${hit.memory.text}`);
  if (found.hits.length === 0) throw new Error("expected at least one search hit");
} finally {
  await server.close();
  console.log("Mock server closed.");
}
