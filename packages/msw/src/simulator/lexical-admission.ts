import { foldKey } from "@powercontext/runtime/rules";

/**
 * Lexical admission, as the release's text search admits a candidate by default: the
 * query's distinct words are counted, and a candidate must hold enough of them (one for
 * a query of one or two words, else a quarter of them rounded up and at least two).
 * Memory search, `prepare_context` and the Experiences it recalls share it, and a
 * refusal's `words_above` counts words the same way. The release also leaves stop words
 * out of the query, which the mock counts as words (docs/compatibility.md).
 */

/** A query of at most this many distinct words needs one of them. */
const SHORT_QUERY_WORDS = 2;
/** The share of a longer query's distinct words a hit must hold (rounded up)... */
const QUERY_COVERAGE = 0.25;
/** ...and never fewer words than this. */
const MIN_MATCHED_WORDS = 2;

/** How many of a query's `distinct` words a candidate must hold to be a hit. */
export function requiredMatches(distinct: number): number {
  if (distinct <= SHORT_QUERY_WORDS) return 1;
  return Math.max(MIN_MATCHED_WORDS, Math.ceil(distinct * QUERY_COVERAGE));
}

/** A Han character (one word each, as the server's segmenter leaves characters it has no entry for), or a word of letters and digits (apostrophes inside it kept). */
const WORD = /\p{Script=Han}|(?:(?!\p{Script=Han})[\p{L}\p{N}_])+(?:['’](?:(?!\p{Script=Han})[\p{L}\p{N}_])+)*/gu;

/**
 * The words of `text` as the server's text analysis reads them: NFC, case folded, each Han
 * character a word; a member that is not text (kept from a write the release refuses) has none.
 */
export function words(text: unknown): string[] {
  if (typeof text !== "string") return [];
  return [...foldKey(text).matchAll(WORD)].map(([word]) => word.replaceAll("’", "'"));
}

/** How many distinct words `text` holds ({@link words}). */
export function distinctWords(text: unknown): number {
  return new Set(words(text)).size;
}

/**
 * The candidates `query` admits, best first, at most `limit`, each with its score: the
 * share of the query's distinct words its texts (`textsOf`) hold, in (0, 1].
 */
export function admitted<T>(
  query: string,
  candidates: readonly T[],
  textsOf: (candidate: T) => readonly unknown[],
  limit: number,
): { readonly candidate: T; readonly score: number }[] {
  const asked = [...new Set(words(query))];
  const required = requiredMatches(asked.length);
  return candidates
    .map((candidate) => {
      const have = new Set(textsOf(candidate).flatMap(words));
      const matched = asked.filter((w) => have.has(w)).length;
      return { candidate, score: matched >= required && matched > 0 ? matched / asked.length : 0 };
    })
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}
