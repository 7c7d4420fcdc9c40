import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import { call } from "../support/flat-call.js";

/**
 * list_sources followed while Sources keep being captured ends, as the
 * release's does: its first page bounds the list at the Sources there were
 * then (x-powercontext-resource `bound: position`), and later pages leave out
 * what was captured since. A new first page sees everything.
 */
function capture(sim: PowerContextSimulator, id: string): void {
  expect(call(sim, "capture_content_source", { scope_id: "s1", source_id: id, content: id }).status).toBeLessThan(300);
}

/** Follows the list page by page, capturing one Source after each page; the source ids listed, and the pages. */
function followWhileWriting(sim: PowerContextSimulator, limit: number): { ids: string[]; pages: number } {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const reply = call(sim, "list_sources", { scope_id: "s1", limit, ...(cursor === null ? {} : { cursor }) });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    ids.push(...(reply.body.items as { source_id: string }[]).map((s) => s.source_id));
    cursor = reply.body.next_cursor as string | null;
    capture(sim, `w${++pages}`);
  } while (cursor !== null && pages < 40);
  return { ids, pages };
}

describe("a list bounded by its first page", () => {
  it("ends after the Sources there were when it started, one page each, while one is captured per page", () => {
    const sim = createPowerContextSimulator({ seed: 3, clock: new ManualClock(), scopes: ["s1"] });
    capture(sim, "a");
    capture(sim, "b");
    expect(followWhileWriting(sim, 1)).toEqual({ ids: ["a", "b"], pages: 2 });
  });

  it("lists the nine Sources in five pages of two, and a new list then sees the ones captured meanwhile", () => {
    const sim = createPowerContextSimulator({ seed: 4, clock: new ManualClock(), scopes: ["s1"] });
    const start = ["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9"];
    for (const id of start) capture(sim, id);
    expect(followWhileWriting(sim, 2)).toEqual({ ids: start, pages: 5 });
    const all = call(sim, "list_sources", { scope_id: "s1", limit: 100 }).body.items as { source_id: string }[];
    expect(all.map((s) => s.source_id)).toEqual([...start, "w1", "w2", "w3", "w4", "w5"]);
  });
});
