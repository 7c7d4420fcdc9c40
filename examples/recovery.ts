/**
 * Recovery: an operator finds Topic Memory processing blocked, reads the
 * block, retries it, loses the response to a dropped connection, retries
 * again and gets the identical receipt; exactly one budget was granted.
 * Finally a stale block answers 409 and an unknown one 404 (the recovery RFC,
 * seed document 000).
 *
 * Run: npx tsx examples/recovery.ts
 */
import { ManualClock } from "@powercontext/msw";
import { startMockServer } from "@powercontext/msw/server";
import { PowerContextClient, ServerResponseError } from "@powercontext/sdk";

// A manual clock: nothing progresses on its own, so the story is the same on every
// run and every machine (timestamps included).
const server = await startMockServer({ seed: 2, simulatorOptions: { clock: new ManualClock() } });
const { controls, inspect } = server.simulator;

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`unexpected: ${what}`);
}

async function expectError(call: Promise<unknown>, status: number, code: string): Promise<void> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ServerResponseError && error.statusCode === status && error.code === code) {
      console.log(`  -> ${status} ${code} (request ${error.requestId})`);
      return;
    }
    throw error;
  }
  throw new Error(`expected ${status} ${code}`);
}

console.log(`\nOperator session: recovering blocked Topic Memory processing (mock server at ${server.url}).`);
try {
  const admin = new PowerContextClient({
    baseUrl: server.url,
    token: "pc-admin",
    onRetry: (event) => console.log(`  (client retried ${event.operationId} after ${event.reason})`),
  });
  // The operator works in a Scope of its own, created on the server (the key makes a re-run harmless).
  const scope = (
    await admin.createScope({
      title: "Operations",
      summary: "Where the operator recovers processing",
      idempotency_key: "recovery-example",
    })
  ).scope_id;

  // Scenario set-up: three Sources arrive and every attempt of the budget fails.
  controls.setProcessingEnabled(false);
  for (let i = 1; i <= 3; i += 1) {
    await admin.captureContentSource({ scope_id: scope, source_id: `evt-${i}`, content: `event ${i}` });
  }
  controls.exhaustTopicBudget(scope, { lastErrorCode: "model_timeout" });
  controls.setProcessingEnabled(true);

  const status = await admin.getTopicMemoryProcessingStatus({ scope_id: scope });
  console.log(
    `Processing of ${scope} is ${status.state}: Topic cursor ${status.source_cursor}, Source head ${status.source_head}.`,
  );
  check(status.state === "blocked" && status.block !== null, "the scope should be blocked");
  const blockId = status.block!.block_id;

  const block = await admin.getTopicMemoryProcessingBlock({ scope_id: scope, block_id: blockId });
  console.log(
    `Block ${block.block_id}: ${block.error_code} after ${block.attempts} attempts, last error ${block.last_error_code}.`,
  );
  console.log(
    `  Sources covered: last attempt selected through ${block.source_through} (source_through), the budget covered through ${block.budget_source_through} (budget_source_through), imported range ${block.legacy_source_through} (legacy_source_through), target ${block.target_source_through}.`,
  );

  // The first retry is accepted, but the connection drops before the answer arrives.
  controls.injectFault({ operationId: "retry_topic_memory_processing", action: { type: "reset", when: "after" } });
  console.log("Retrying the block; the server accepts it but the response is lost...");
  const first = await admin.retryTopicMemoryProcessing({ scope_id: scope, block_id: blockId });
  console.log(
    `Retry ${first.status}: retried_at ${first.block.retried_at}, request generation ${first.block.retry_request_generation}.`,
  );

  const again = await admin.retryTopicMemoryProcessing({ scope_id: scope, block_id: blockId });
  const identical = JSON.stringify(again) === JSON.stringify(first);
  console.log(`Retrying once more returns ${identical ? "the identical" : "a different"} receipt.`);
  console.log(
    `Acceptances recorded for the block: ${inspect.acceptances(blockId)}; budgets granted to the scope: ${inspect.budgetsGranted(scope)}.`,
  );
  check(
    identical && inspect.acceptances(blockId) === 1 && inspect.budgetsGranted(scope) === 1,
    "one acceptance, one budget",
  );

  // A second block that is then published by other means: never retried, no longer current.
  controls.exhaustTopicBudget(scope);
  const second = inspect.blocks(scope).find((b) => b.block_id !== blockId)!;
  controls.supersedeTopicBlock(scope);
  console.log(`Retrying stale block ${second.block_id}:`);
  await expectError(
    admin.retryTopicMemoryProcessing({ scope_id: scope, block_id: second.block_id }),
    409,
    "topic_memory_block_conflict",
  );
  console.log("Retrying an unknown block:");
  await expectError(
    admin.retryTopicMemoryProcessing({ scope_id: scope, block_id: "blk_unknown" }),
    404,
    "topic_memory_block_not_found",
  );
  check(inspect.budgetsGranted(scope) === 1, "no further budget");
  console.log("Still exactly one budget granted.");
} finally {
  await server.close();
}
