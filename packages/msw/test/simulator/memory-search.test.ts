import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import { asAdmin } from "../support/world.js";
import { TEST_SCOPES } from "../support/scopes.js";

/** Full-text search of Memory finds a record by the words of its kind as well as its text, as the release's index does. */
describe("search_memory, full text", () => {
  it("matches the kind's words and the text's, and nothing else", () => {
    const sim = createPowerContextSimulator({ scopes: TEST_SCOPES, clock: new ManualClock(), inference: "off" });
    asAdmin(sim, "remember_memory", { body: { scope_id: "s1", kind: "release-process", text: "Cut on Tuesdays." } });
    const search = (query: string) =>
      (asAdmin(sim, "search_memory", { body: { scope_id: "s1", query, mode: "fts" } }).body as any).hits.length;
    expect([search("process"), search("tuesdays"), search("wednesday")]).toEqual([1, 1, 0]);
  });
});
