// The same seed and the same requests, sent one at a time, give the same ids and bodies:
// two fresh mocks with one seed play the same scenarios and every answer must match
// byte for byte (no normalisation). Needs no release: both sides are mocks.
import { describe, expect, it } from "vitest";
import { startMockServer } from "../../packages/msw/src/server/index.js";
import { operationsOf, type OpenApiDocument } from "../real/openapi.js";
import { loadOurs } from "../contract/documents.js";
import { play, type Observation } from "./play.js";
import { MOCK_ADMIN_TOKEN } from "./run.js";
import { loadScenarios } from "./scenario-format.js";
import { loadTargets } from "./targets.js";

/** Scenarios that create, update and list Scopes and write and forget memory, capturing no Source. */
const WITHOUT_SOURCES = ["scope-lifecycle", "scope-validation", "memory"];
/** The same with Sources captured before the memory writes. */
const WITH_SOURCES = ["scope-lifecycle", "scope-validation", "sources", "memory"];
const SEED = 7;

async function playOnFreshMock(names: readonly string[]): Promise<Observation[]> {
  const mock = await startMockServer({ seed: SEED });
  try {
    const scenarios = loadScenarios().filter((s) => names.includes(s.name));
    return await play(
      scenarios,
      { name: "mock", baseUrl: mock.url, token: MOCK_ADMIN_TOKEN },
      { operations: operationsOf(loadOurs() as OpenApiDocument) },
    );
  } finally {
    await mock.close();
  }
}

/** The first step whose status or body differs between two runs, or null. */
function firstMismatch(first: readonly Observation[], second: readonly Observation[]): string | null {
  for (let i = 0; i < Math.max(first.length, second.length); i++) {
    const [a, b] = [first[i], second[i]];
    const left = JSON.stringify([a?.step, a?.answer?.status, a?.answer?.body]);
    const right = JSON.stringify([b?.step, b?.answer?.status, b?.answer?.body]);
    if (left !== right)
      return `${a?.scenario ?? b?.scenario} / ${a?.step ?? b?.step}:\n  ${left.slice(0, 400)}\n  ${right.slice(0, 400)}`;
  }
  return null;
}

async function expectSameTwice(names: readonly string[], least: number): Promise<void> {
  const first = await playOnFreshMock(names);
  const second = await playOnFreshMock(names);
  expect(first.filter((o) => o.answer !== null).length).toBeGreaterThan(least);
  expect(firstMismatch(first, second)).toBeNull();
}

// A known failure that does not fail every time (it depends on timing) cannot be asserted
// either way: the check is skipped, loudly, with its reason, until the entry goes.
const known = loadTargets().knownFailures.determinism;

describe("the mock with one seed", () => {
  it("answers Scope and memory requests with the same ids and bodies on a second run", async () => {
    await expectSameTwice(WITHOUT_SOURCES, 30);
  }, 120_000);

  it.skipIf(known !== undefined)(
    `answers alike on a second run once Sources are captured${known ? ` (SKIPPED, known failure in targets.json: ${known})` : ""}`,
    async () => {
      await expectSameTwice(WITH_SOURCES, 40);
    },
    120_000,
  );
});
