// No sentence of the release's prose is in openapi.yaml: every summary, description and
// title of ours with six words or more is compared with all of the release's.
import { describe, expect, it } from "vitest";
import { proseOf } from "../../scripts/contract/wire-view.mjs";
import { loadOurs, loadRelease, releaseAvailable, type JsonObject } from "./documents.js";

const MIN_WORDS = 6;

const normalize = (text: string) =>
  text
    .toLowerCase()
    .replace(/[`"'()]/g, "")
    .replace(/\s+/g, " ")
    .replace(/[.:;,!?]+$/, "")
    .trim();
const words = (text: string) => text.split(" ").filter(Boolean).length;
const sentences = (text: string) =>
  text
    .split(/(?<=[.;:!?])\s+/)
    .map(normalize)
    .filter((s) => words(s) >= MIN_WORDS);

export interface ProseMatch {
  readonly pointer: string;
  readonly ours: string;
  readonly release: string;
}

/**
 * Texts of `ours` (six words or more) that equal a release text, share a sentence of six
 * words or more with one, or contain a whole release text of six words or more.
 */
export function findCopiedProse(ours: JsonObject, release: JsonObject): ProseMatch[] {
  const theirs = proseOf(release)
    .map((p) => normalize(p.text))
    .filter((t) => words(t) >= MIN_WORDS);
  const theirTexts = new Set(theirs);
  const theirSentences = new Map<string, string>();
  for (const text of theirs) for (const s of sentences(text)) theirSentences.set(s, text);
  const found: ProseMatch[] = [];
  for (const { pointer, text } of proseOf(ours)) {
    const mine = normalize(text);
    if (words(mine) < MIN_WORDS) continue;
    if (theirTexts.has(mine)) {
      found.push({ pointer, ours: text, release: mine });
      continue;
    }
    const sentence = sentences(mine).find((s) => theirSentences.has(s));
    if (sentence !== undefined) {
      found.push({ pointer, ours: text, release: theirSentences.get(sentence) ?? sentence });
      continue;
    }
    const contained = theirs.find((t) => mine.includes(t));
    if (contained !== undefined) found.push({ pointer, ours: text, release: contained });
  }
  return found;
}

describe.runIf(releaseAvailable("test/contract/prose.test.ts"))("openapi.yaml prose is ours", () => {
  it("shares no summary, description or sentence of six words or more with the release", () => {
    const ours = loadOurs();
    const checked = proseOf(ours).filter((p) => words(normalize(p.text)) >= MIN_WORDS);
    expect(checked.length).toBeGreaterThan(100);
    const matches = findCopiedProse(ours, loadRelease());
    expect(matches.map((m) => `${m.pointer}\n    ours:    ${m.ours}\n    release: ${m.release}`).join("\n")).toBe("");
  });

  it("has a summary of its own for every operation", () => {
    const ours = loadOurs();
    const summaries = proseOf(ours).filter((p) => /^\/paths\/[^/]+\/[a-z]+\/summary$/.test(p.pointer));
    expect(summaries.length).toBe(130);
    expect(new Set(summaries.map((s) => normalize(s.text))).size).toBe(130);
  });

  it("detects a release text planted in ours, whole or as one sentence of a longer text", () => {
    const release = loadRelease();
    const ours = structuredClone(loadOurs());
    const copy = proseOf(release).find((p) => words(normalize(p.text)) >= MIN_WORDS && !p.text.includes(". "));
    const sentence = proseOf(release)
      .flatMap((p) => p.text.split(/(?<=\.)\s+/))
      .find((s) => words(normalize(s)) >= MIN_WORDS + 2);
    expect(copy).toBeDefined();
    expect(sentence).toBeDefined();
    const paths = ours.paths as JsonObject;
    const first = Object.values(paths)[0] as JsonObject;
    const operation = Object.values(first)[0] as JsonObject;
    operation.summary = copy!.text;
    operation.description = `Our own opening words here. ${sentence!} And our closing words.`;
    const pointers = findCopiedProse(ours, release).map((m) => m.pointer);
    const at = Object.keys(paths)[0]!.replace(/~/g, "~0").replace(/\//g, "~1");
    const method = Object.keys(first)[0]!;
    expect(pointers).toContain(`/paths/${at}/${method}/summary`);
    expect(pointers).toContain(`/paths/${at}/${method}/description`);
  });
});
