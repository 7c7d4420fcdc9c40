// Writes, reads and list pages cost the same however much the simulator holds.
// The work is counted, not timed: every copy of a stored value goes through
// `copyJson` and every read of a record's member (a filter, an order, a cursor)
// through `getPath`, so what one request does is counted at a small size and at
// ten times that size. bench/mock-growth.bench.ts times the same.
import { describe, expect, it, vi } from "vitest";
import * as members from "../../src/simulator/members.js";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import { call } from "../support/flat-call.js";

vi.mock("../../src/simulator/members.js", async (original) => {
  const actual = await original<typeof members>();
  return { ...actual, copyJson: vi.fn(actual.copyJson), getPath: vi.fn(actual.getPath) };
});

const copies = members.copyJson as unknown as ReturnType<typeof vi.fn>;
const reads = members.getPath as unknown as ReturnType<typeof vi.fn>;

/** How many values `request` copies, and how many members it reads. */
function copiesOf(request: () => unknown): { copies: number; reads: number } {
  copies.mockClear();
  reads.mockClear();
  request();
  return { copies: copies.mock.calls.length, reads: reads.mock.calls.length };
}

/**
 * The same copies at ten times the size, and hardly more reads: finding a place
 * by bisection or in a skip list is O(log n), a few reads more at 10x; a walk
 * over the records would read ten times as many.
 */
function expectFlat(small: Record<string, { copies: number; reads: number }>, large: typeof small): void {
  for (const [kind, cost] of Object.entries(small)) {
    expect({ kind, copies: large[kind]?.copies }).toEqual({ kind, copies: cost.copies });
    expect(large[kind]?.reads, kind).toBeLessThanOrEqual(cost.reads * 1.2 + 10);
  }
}

const DETAIL = "x".repeat(8000);

describe("the cost of one request as the simulator grows tenfold", () => {
  it("stays the same for replacing, reading and paging the revisions of an Artifact (100 vs 1,000 revisions)", () => {
    const sim = createPowerContextSimulator({ seed: 2, clock: new ManualClock(), scopes: ["s1"] });
    const made = call(sim, "create_artifact", {
      scope_id: "s1",
      family: "topic-memory",
      content: { title: "t", summary: "s", detail: DETAIL },
    });
    const address = { scope_id: "s1", family: "topic-memory", artifact_id: made.body.artifact_id as string };
    let revision = 1;
    const replace = () => {
      const reply = call(sim, "replace_artifact", {
        ...address,
        "If-Match": `"revision:${revision}"`,
        content: { title: "t", summary: `r${revision + 1}`, detail: DETAIL },
      });
      expect(reply.status).toBe(200);
      revision += 1;
    };
    const measure = () => ({
      write: copiesOf(replace),
      read: copiesOf(() => expect(call(sim, "get_artifact", address).status).toBe(200)),
      revision: copiesOf(() =>
        expect(call(sim, "get_artifact_revision", { ...address, revision: 2 }).status).toBe(200),
      ),
      page: copiesOf(() => expect(call(sim, "list_artifact_revisions", { ...address, limit: 20 }).status).toBe(200)),
    });
    while (revision < 100) replace();
    const small = measure();
    while (revision < 1_000) replace();
    expectFlat(small, measure());
  });

  it("stays the same for a page of Sources (300 vs 3,000 in the Scope)", () => {
    const sim = createPowerContextSimulator({ seed: 2, clock: new ManualClock(), scopes: ["s1"] });
    let count = 0;
    const captureUntil = (total: number) => {
      while (count < total) {
        count += 1;
        call(sim, "capture_content_source", { scope_id: "s1", source_id: `n${count}`, content: `note ${count}` });
      }
    };
    const pages = () => {
      const first = call(sim, "list_sources", { scope_id: "s1", limit: 50 });
      const cursor = first.body.next_cursor as string;
      return copiesOf(() => expect(call(sim, "list_sources", { scope_id: "s1", limit: 50, cursor }).status).toBe(200));
    };
    captureUntil(300);
    const small = pages();
    captureUntil(3_000);
    expectFlat({ page: small }, { page: pages() });
  });
});
