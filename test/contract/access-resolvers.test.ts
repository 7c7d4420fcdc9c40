// The resolver facts (x-powercontext-access-resolvers) are the release's resolvers: for
// every access rule of openapi.yaml (each named resolver, each unnamed form), payloads
// generated from the facts (every branch, every path broken one way at a time; see
// access-cases.ts) go through the release's own resolution (its code, run at test time)
// and through the mock's interpreter; both must give the same checks, or both refuse.
import { describe, expect, it } from "vitest";
import { contractOperations } from "../../packages/msw/src/generated/contract.js";
import type { CaseFact } from "../../packages/msw/src/simulator/access/facts.js";
import { AccessInvalid, casesOf, resolveChecks, type Check } from "../../packages/msw/src/simulator/access/resolve.js";
import { validateTarget } from "../../packages/msw/src/simulator/access/targets.js";
import { generatedPayloads } from "./access-cases.js";
import { loadRelease, operationsOf, releaseAvailable } from "./documents.js";
import { type ResolvedCheck, resolveWithRelease } from "./release-access.js";

const run = releaseAvailable("access resolver facts against the release");

/** The mock's answer for one payload, in the release's terms. */
function mockResolution(cases: readonly CaseFact[], payload: unknown): ResolvedCheck[] | "invalid" {
  let checks: Check[];
  try {
    checks = resolveChecks(cases, payload);
    for (const check of checks) validateTarget(check);
  } catch (error) {
    if (error instanceof AccessInvalid) return "invalid";
    throw error;
  }
  return checks.map(({ action, target }) => ({
    action,
    type: target.kind,
    scope_id: target.kind === "server" ? null : target.scopeId,
    deployment: target.kind === "server" ? target.deployment : null,
    family: target.kind === "artifact" ? target.family : null,
    artifact_id: target.kind === "artifact" ? target.artifactId : null,
    entry_id: target.kind === "artifact" ? target.entryId : null,
  }));
}

describe.runIf(run)("x-powercontext-access-resolvers against the release's resolvers", () => {
  it("resolves every generated payload of every access rule as the release does", () => {
    const releaseIds = new Set(run ? operationsOf(loadRelease()).map((op) => op.operationId) : []);
    // One operation per distinct rule: a named resolver, or an unnamed form with its field.
    const byRule = new Map<string, string>();
    for (const [operationId, op] of Object.entries(contractOperations)) {
      if (op.access === null || !releaseIds.has(operationId)) continue;
      const rule = JSON.stringify(op.access);
      if (!byRule.has(rule)) byRule.set(rule, operationId);
    }
    const cases: { operation: string; payload: unknown }[] = [];
    const mock: (ResolvedCheck[] | "invalid")[] = [];
    for (const operationId of byRule.values()) {
      const access = contractOperations[operationId as keyof typeof contractOperations].access;
      if (access === null) continue;
      const facts = casesOf(access);
      for (const payload of generatedPayloads(facts)) {
        cases.push({ operation: operationId, payload });
        mock.push(mockResolution(facts, payload));
      }
    }
    const release = resolveWithRelease(cases);
    const differ = cases
      .map((c, i) => ({ ...c, release: release[i], mock: mock[i] }))
      .filter((c) => JSON.stringify(c.release) !== JSON.stringify(c.mock));
    // Both sides see the same payloads; a branch must be reached and a fault must be refused somewhere.
    expect(byRule.size).toBeGreaterThan(30);
    expect(cases.length).toBeGreaterThan(1500);
    expect(release.filter((r) => r === "invalid").length).toBeGreaterThan(500);
    expect(release.filter((r) => r !== "invalid").length).toBeGreaterThan(500);
    expect(differ.slice(0, 5), `${differ.length} of ${cases.length} payloads resolve differently`).toEqual([]);
  });
});
