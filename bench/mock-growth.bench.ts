/**
 * Mock growth benchmark (`npm run bench:mock`). Not a test: it prints numbers.
 *
 * A simulator that serves long CI runs and shared development servers must not
 * slow down as its data grows (issue 33, item 9). Each line times one request
 * kind at a small size and at ten times that size, in the same run and the
 * same process, and prints the ratio (large / small) with its target: costs
 * stay flat, at most 1.5x at 10x growth.
 *
 * - an 8 KB Artifact replaced again and again: a replacement, a read of the
 *   Artifact and the first page of its revisions, at 300 and at 3,000 revisions;
 * - Sources listed page by page (100 a page): a page, at 600 and at 6,000
 *   Sources in the Scope.
 *
 * The simulator runs in-process on a manual clock (`sim.handle`), so the numbers
 * are the simulator's own work, without HTTP. Each figure is the median of
 * `--samples` timed requests (default 60).
 *
 * Usage: npm run bench:mock [-- --samples 60 --base 300]
 */
import { performance } from "node:perf_hooks";
import { ManualClock } from "../packages/msw/src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../packages/msw/src/simulator/simulator.js";
import { isReset, type SimRequest } from "../packages/msw/src/simulator/types.js";

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1] ?? fallback);
};
const SAMPLES = arg("samples", 60);
/** Revisions of the small Artifact; Sources of the small Scope are twice as many. */
const BASE = arg("base", 300);
const TARGET = 1.5;
const TOKEN = "pc-admin";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** One request; throws unless it answers `status`. Returns its body. */
function send(
  sim: PowerContextSimulator,
  operationId: string,
  request: SimRequest,
  status = 200,
): Record<string, unknown> {
  const outcome = sim.handle(operationId as never, { token: TOKEN, ...request });
  if (isReset(outcome) || outcome.status !== status)
    throw new Error(`${operationId} answered ${isReset(outcome) ? "a reset" : outcome.status}, not ${status}`);
  return outcome.body as Record<string, unknown>;
}

/** Milliseconds each of `samples` calls of `step` took. */
function timed(samples: number, step: (i: number) => void): number[] {
  const times: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const start = performance.now();
    step(i);
    times.push(performance.now() - start);
  }
  return times;
}

const DETAIL = "Renewal runs daily; the lease holder writes its fencing token first. ".repeat(118).slice(0, 8000);

/** An Artifact of about 8 KB, replaced until it has `revisions` revisions; times a replacement, a read and a revisions page there. */
function artifactAt(
  sim: PowerContextSimulator,
  scopeId: string,
  state: { id: string; revision: number },
  revisions: number,
) {
  const address = { scope_id: scopeId, family: "topic-memory", artifact_id: state.id };
  const replace = () => {
    send(sim, "replace_artifact", {
      params: address,
      headers: { "If-Match": `"revision:${state.revision}"` },
      body: { content: { title: "Leases", summary: `revision ${state.revision + 1}`, detail: DETAIL } },
    });
    state.revision += 1;
  };
  while (state.revision < revisions - SAMPLES) replace();
  const write = median(timed(SAMPLES, replace));
  const read = median(timed(SAMPLES, () => send(sim, "get_artifact", { params: address })));
  const page = median(
    timed(SAMPLES, () => send(sim, "list_artifact_revisions", { params: address, query: { limit: "20" } })),
  );
  return { write, read, page };
}

/** A Scope with `count` Sources; times one page (100 Sources) followed from the start. */
function sourcesAt(sim: PowerContextSimulator, scopeId: string, state: { count: number }, count: number): number {
  while (state.count < count) {
    state.count += 1;
    send(
      sim,
      "capture_content_source",
      { body: { scope_id: scopeId, source_id: `note-${state.count}`, content: `note ${state.count}` } },
      202,
    );
  }
  let cursor: string | null = null;
  return median(
    timed(SAMPLES, () => {
      const query: Record<string, string> = { limit: "100", ...(cursor === null ? {} : { cursor }) };
      const body = send(sim, "list_sources", { params: { scope_id: scopeId }, query });
      cursor = (body.next_cursor as string | null) ?? null;
    }),
  );
}

function line(label: string, small: number, large: number): boolean {
  const ratio = large / small;
  const ok = ratio <= TARGET;
  console.log(
    `  ${label.padEnd(44)} ${small.toFixed(3).padStart(8)} ms ${large.toFixed(3).padStart(8)} ms ${ratio.toFixed(2).padStart(6)}x  (target <= ${TARGET}x) ${ok ? "ok" : "ABOVE"}`,
  );
  return ok;
}

const sim = createPowerContextSimulator({ seed: 1, clock: new ManualClock(), scopes: ["bench"] });
const created = send(
  sim,
  "create_artifact",
  {
    params: { scope_id: "bench" },
    body: { family: "topic-memory", content: { title: "Leases", summary: "r1", detail: DETAIL } },
  },
  201,
);
const artifact = { id: created.artifact_id as string, revision: 1 };
const sources = { count: 0 };

console.log(`\nmock growth: median of ${SAMPLES} requests, small vs 10x (in-process simulator, manual clock)`);
console.log(`  ${"".padEnd(44)} ${"small".padStart(11)} ${"10x".padStart(11)}  ratio`);
const small = artifactAt(sim, "bench", artifact, BASE);
const large = artifactAt(sim, "bench", artifact, BASE * 10);
const pageSmall = sourcesAt(sim, "bench", sources, BASE * 2);
const pageLarge = sourcesAt(sim, "bench", sources, BASE * 20);
const held = [
  line(`replace an 8 KB Artifact (${BASE} vs ${BASE * 10} revisions)`, small.write, large.write),
  line("read it", small.read, large.read),
  line("first page of its revisions (20)", small.page, large.page),
  line(`a page of Sources (100; ${BASE * 2} vs ${BASE * 20} in the Scope)`, pageSmall, pageLarge),
];
const memory = process.memoryUsage();
console.log(`  heap ${(memory.heapUsed / 2 ** 20).toFixed(0)} MB, rss ${(memory.rss / 2 ** 20).toFixed(0)} MB`);
console.log(held.every(Boolean) ? "\nall flat" : "\nSOME COSTS GROW");
if (!held.every(Boolean)) process.exitCode = 1;
