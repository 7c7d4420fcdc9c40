import type { PowerContextSimulator } from "../simulator/simulator.js";
import { everywhereContributor, type PrincipalConfig } from "../simulator/access/principals.js";

/** What {@link prepareDemo} left in the simulator, for the operator to look at. */
export interface DemoState {
  /** Scope whose Topic Memory processing is blocked. */
  readonly blockedScopeId: string;
  /** The current block of {@link blockedScopeId}. */
  readonly blockId: string;
  /** Scope whose flush window is held by a failed Operation. */
  readonly failedScopeId: string;
  /** The failed Operation and its version (for `--expected-version`). */
  readonly operationId: string;
  readonly operationVersion: number;
}

/**
 * Prepares a small operator scenario in a fresh simulator, so that the operator
 * CLI has something to show against `powercontext-mock serve --demo`:
 * scope `demo-topic` has three Sources and an exhausted Topic Memory budget
 * (state blocked, seed 000), and scope `demo-ops` has a failed memory flush
 * Operation holding its window (seed 002).
 *
 * @param principals - the served principals; one of them must be the static token or
 *   contribute to every scope (`*`), which the set-up writes with
 * @throws Error when no such principal exists, or a set-up request is refused
 */
export function prepareDemo(simulator: PowerContextSimulator, principals: PrincipalConfig): DemoState {
  const token = everywhereContributor(principals);
  if (token === undefined)
    throw new Error("--demo needs the static token or a principal that may scope.contribute on every scope (*)");
  const send = (operationId: string, body: Record<string, unknown>) => {
    const outcome = simulator.handle(operationId, { token, body });
    if (!("status" in outcome) || outcome.status >= 300) throw new Error(`demo set-up: ${operationId} was refused`);
  };

  const blockedScopeId = simulator.controls.addScope("demo-topic");
  for (let index = 1; index <= 3; index += 1) {
    send("capture_content_source", {
      scope_id: blockedScopeId,
      source_id: `demo-${index}`,
      content: `demo observation ${index}`,
    });
  }
  simulator.controls.exhaustTopicBudget(blockedScopeId, { lastErrorCode: "model_timeout" });
  const block = simulator.inspect.blocks(blockedScopeId).at(-1);

  const failedScopeId = simulator.controls.addScope("demo-ops");
  send("capture_content_source", { scope_id: failedScopeId, source_id: "demo-1", content: "demo observation" });
  simulator.controls.failNextFlushAttempts(1, { category: "model_provider", code: "provider_unavailable" });
  // The set-up flush waits for its attempt whatever `--wait-budget-ms` says (0 would answer 202
  // with the attempt still queued); the served timing is put back right after.
  const served = simulator.controls.setFlushTiming({ waitBudgetMs: Number.MAX_SAFE_INTEGER });
  simulator.handle("flush_memory", { token, body: { scope_id: failedScopeId } });
  simulator.controls.setFlushTiming(served);
  const operation = simulator.inspect.operations(failedScopeId).find((candidate) => candidate.status === "failed");
  if (block === undefined || operation === undefined)
    throw new Error("demo set-up did not produce a block and a failed operation");
  return {
    blockedScopeId,
    blockId: block.block_id,
    failedScopeId,
    operationId: operation.operation_id,
    operationVersion: operation.version,
  };
}

/**
 * The lines `powercontext-mock serve --demo` prints on stderr: what the demo
 * left, the environment the CLI reads (the token by role only: no token is
 * printed), and commands to try.
 *
 * @param url - the served URL
 */
export function describeDemo(demo: DemoState, url: string): string[] {
  return [
    `demo: scope ${demo.blockedScopeId} is blocked (block ${demo.blockId}); scope ${demo.failedScopeId} has failed operation ${demo.operationId} (version ${demo.operationVersion})`,
    `demo: first export POWERCONTEXT_CLIENT_SERVER_URL=${url} and POWERCONTEXT_CLIENT_API_TOKEN=<the admin token of the README's "Tokens", or a token of your --config with every Scope role>`,
    `demo: try  npx powercontext-ts topic-memory status --scope-id ${demo.blockedScopeId}`,
    `demo:      npx powercontext-ts topic-memory block get --scope-id ${demo.blockedScopeId} ${demo.blockId}`,
    `demo:      npx powercontext-ts topic-memory retry --scope-id ${demo.blockedScopeId} ${demo.blockId}`,
    `demo:      npx powercontext-ts operations list --scope-id ${demo.failedScopeId} --status failed`,
    `demo:      npx powercontext-ts operations retry ${demo.operationId} --expected-version ${demo.operationVersion}   (or operations cancel)`,
    `demo:      npx powercontext-ts memory flush --scope-id ${demo.failedScopeId} --wait --deadline 60s`,
  ];
}
