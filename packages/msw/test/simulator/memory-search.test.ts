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

  it("admits a record holding enough of the query's distinct words: one of two, else a quarter and at least two", () => {
    const sim = createPowerContextSimulator({ scopes: TEST_SCOPES, clock: new ManualClock(), inference: "off" });
    asAdmin(sim, "remember_memory", { body: { scope_id: "s1", kind: "zulu", text: "alpha beta gamma delta" } });
    const hits = (query: string) =>
      (asAdmin(sim, "search_memory", { body: { scope_id: "s1", query } }).body as any).hits.length;
    const context = (query: string) =>
      (asAdmin(sim, "prepare_context", { body: { scope_id: "s1", query } }).body as any).status;
    const filler = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");
    expect([hits("alpha"), hits("alpha zeta"), hits("zulu")]).toEqual([1, 1, 1]);
    // Three distinct words need two; a repeated word counts once.
    expect([hits("alpha zeta eta"), hits("alpha alpha zeta eta"), hits("alpha beta eta")]).toEqual([0, 0, 1]);
    // Ten words need three.
    expect([hits(`alpha beta ${filler(8)}`), hits(`alpha beta gamma ${filler(7)}`)]).toEqual([0, 1]);
    expect([context("alpha zeta eta"), context("alpha beta eta")]).toEqual(["empty", "ready"]);
  });
});

describe("prepare_context, recall", () => {
  it("recalls Memory and Experiences by the same admission, from the families its assembly names", () => {
    const sim = createPowerContextSimulator({ scopes: TEST_SCOPES, clock: new ManualClock(), inference: "off" });
    asAdmin(sim, "create_artifact", {
      params: { scope_id: "s1" },
      body: {
        family: "experience",
        content: { situation: "alpha beta", action: "gamma", outcome: "delta", lesson: "epsilon", failure: null },
      },
    });
    const prepare = (query: string, assembly?: unknown) =>
      asAdmin(sim, "prepare_context", {
        body: { scope_id: "s1", query, ...(assembly === undefined ? {} : { assembly }) },
      }).body as { status: string; content: string | null };
    // Every member of the Experience is read; three words need two of them.
    expect(["alpha beta zzz", "gamma delta yyy", "epsilon", "alpha zzz yyy"].map((q) => prepare(q).status)).toEqual([
      "ready",
      "ready",
      "ready",
      "empty",
    ]);
    asAdmin(sim, "remember_memory", { body: { scope_id: "s1", kind: "note", text: "alpha beta" } });
    const lines = (assembly?: unknown) => (prepare("alpha beta", assembly).content ?? "").split("\n").length - 1;
    // Both families by default and under an assembly without sections; one, or none, as its sections say.
    expect([
      lines(),
      lines({ show: ["confidence"] }),
      lines({ sections: [{ family: "memory", limit: 1 }] }),
      lines({ sections: [{ family: "experience", limit: 1 }] }),
      lines({ sections: [] }),
    ]).toEqual([2, 2, 1, 1, 0]);
  });
});

describe("search_topic_memory, the query's terms", () => {
  it("refuses a query of more than 64 distinct words (422, no details), counted as the server analyses text", () => {
    const sim = createPowerContextSimulator({ scopes: TEST_SCOPES, clock: new ManualClock(), inference: "off" });
    const search = (query: string) => {
      const answer = asAdmin(sim, "search_topic_memory", { body: { scope_id: "s1", query } });
      return [answer.status, (answer.body as { error?: { code: string; details: unknown } }).error ?? null];
    };
    const words = (n: number, prefix = "w") => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(" ");
    const refused = [422, { code: "invalid_request", message: "The request is invalid.", details: null }];
    expect(search(words(64))).toEqual([200, null]);
    expect(search(words(65))).toEqual(refused);
    // Repeated and differently cased words count once; an apostrophe joins a word, an underscore too.
    expect(search(`${words(64)} w1 W2`)).toEqual([200, null]);
    expect(search(`${words(63)} don't`)).toEqual([200, null]);
    expect(search(`${words(63)} don't won’t`)).toEqual(refused);
    expect(search(words(65, "a_"))).toEqual(refused);
    // Words are case folded: ß and ss, ς and σ are one word each.
    expect(search(`${words(63)} Straße STRASSE strasse`)).toEqual([200, null]);
    expect(search(`${words(63)} λόγος ΛΌΓΟΣ`)).toEqual([200, null]);
    // Every Han character is a term of its own.
    expect(search(`${words(60)} 日本語テ`)).toEqual([200, null]);
    expect(search(`${words(62)} 日本語テ`)).toEqual(refused);
    // Unknown Scope first.
    const unknown = asAdmin(sim, "search_topic_memory", { body: { scope_id: "nowhere", query: words(65) } });
    expect(unknown.status).toBe(404);
  });
});
