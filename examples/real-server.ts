/**
 * The quick start against a server you run: learn the default Scope from the
 * server, capture a few Sources, flush them into Memory (a 1.4.1 server
 * answers the flush synchronously, and without a configured model with 503
 * inference_unavailable, which is reported, not retried), remember one fact
 * and search for it.
 *
 * Run: POWERCONTEXT_CLIENT_SERVER_URL=http://127.0.0.1:8000 \
 *      POWERCONTEXT_CLIENT_API_TOKEN=... npx tsx examples/real-server.ts
 */
import { PowerContextClient, ServerResponseError } from "@powercontext/sdk";

const client = PowerContextClient.fromEnv();
const scope = (await client.getDefaultScope()).scope_id;
console.log(`Server ${client.baseUrl}: default Scope ${scope}.`);

const run = Date.now().toString(36);
const notes = [
  "The scheduler lease is renewed every ten seconds and fenced by a monotonic token.",
  "A failed window blocks its lane until an operator retries or cancels it.",
];
for (const [index, content] of notes.entries()) {
  const captured = await client.captureContentSource({
    scope_id: scope,
    source_id: `quickstart-${run}-${index + 1}`,
    content,
  });
  console.log(`Captured ${captured.source.source_id} at position ${captured.position}.`);
}

try {
  const flushed = await client.flushMemory({ scope_id: scope }, { deadlineMs: 30_000 });
  console.log(
    `Flush ${flushed.status}: ${flushed.processed_source_count} Sources, Memory cursor ${flushed.previous_cursor} -> ${flushed.current_cursor}.`,
  );
} catch (error) {
  if (!(error instanceof ServerResponseError) || error.code !== "inference_unavailable") throw error;
  console.log("Flush: this server has no model configured (503 inference_unavailable); the Sources stay pending.");
}

const remembered = await client.rememberMemory({ scope_id: scope, kind: "fact", text: notes[0]! });
console.log(
  `Remembered ${remembered.records.length} record(s): ${remembered.records.map((r) => r.artifact.artifact_id).join(", ")}.`,
);

const found = await client.searchMemory({ scope_id: scope, query: "scheduler lease" });
console.log(`Search (${found.mode}) found ${found.hits.length} Memory record(s):`);
for (const hit of found.hits)
  console.log(`  ${hit.score.toFixed(3)}  ${hit.memory.kind} ${hit.memory.artifact.artifact_id}  ${hit.memory.text}`);
if (found.hits.length === 0) throw new Error("expected the remembered fact to be found");
