/**
 * The generator's domain types, shared by every stage: the loader produces
 * them, the IR carries them, the emitters read them. They depend on nothing,
 * so no stage imports another stage for a type.
 */

/** A loosely typed OpenAPI object (the loader has checked it against the OpenAPI schema). */
export type Json = Record<string, unknown>;

/** Looks up the target of a local `$ref` such as `#/components/schemas/Foo`; undefined when there is none. */
export type RefLookup = (ref: string) => unknown;

/**
 * How strictly the generator's house rules apply (they are checked over the IR,
 * see `ir/house-rules.ts`).
 *
 * - `strict` (default, for our `openapi.yaml`): every operation declares
 *   `x-powercontext-retry-class`; every 4xx/5xx response uses the error envelope
 *   `{"error": {"code", "message", "details"}}`; every response declares the
 *   request-id header.
 * - `upstream` (for published contracts that predate our extensions, such as the
 *   released 1.4.1 contract or powercontext-0.0.2.yaml): a missing retry class
 *   defaults to `safe` for GET and `never` otherwise; envelope and header findings
 *   are warnings.
 *
 * Both profiles reject (in the loader, before the IR is built) what would make
 * generated code wrong: missing or duplicate operationIds, no success status,
 * response keys other than explicit status codes, request bodies with no JSON
 * media type, unknown retry classes and malformed `x-powercontext-*` extensions.
 */
export type LintProfile = "strict" | "upstream";

/** The retry classes of docs/architecture.md. */
export const RETRY_CLASSES = ["safe", "replay", "guarded", "never"] as const;
export type RetryClass = (typeof RETRY_CLASSES)[number];

/**
 * The flags the emitted validators compile a `pattern` with: `u` when the
 * pattern is a valid Unicode regular expression (what ajv does by default),
 * otherwise none; `null` when it is not a valid ECMAScript regular expression at all.
 */
export function patternFlags(source: string): "u" | "" | null {
  let flags = PATTERN_FLAGS.get(source);
  if (flags === undefined) {
    flags = parsedFlags(source);
    // A contract repeats its patterns (an id's on every schema that carries one): each is parsed once.
    if (PATTERN_FLAGS.size >= MAX_REMEMBERED_PATTERNS) PATTERN_FLAGS.clear();
    PATTERN_FLAGS.set(source, flags);
  }
  return flags;
}

/** Patterns {@link patternFlags} has read, with their flags; cleared when it holds this many. */
const MAX_REMEMBERED_PATTERNS = 10_000;
const PATTERN_FLAGS = new Map<string, "u" | "" | null>();

function parsedFlags(source: string): "u" | "" | null {
  for (const flags of ["u", ""] as const) {
    try {
      new RegExp(source, flags);
      return flags;
    } catch {
      // try the next flag set
    }
  }
  return null;
}

/**
 * How a body is read or written: `json` (application/json and any `+json`),
 * `text` (`text/*`), `binary` (anything else), `none` (no content).
 */
export type MediaKind = "json" | "text" | "binary" | "none";
