import { redact } from "../transport/sanitize.js";
import type { TransportResponse } from "../transport/port.js";

/**
 * Secrets in what a server answers (runtime README, "Secrets"). A server may
 * reflect the bearer token into any part of its answer: a header (the request
 * id, `Location`), a member name or a string anywhere in the body. Every
 * server-derived string reaches the SDK's outcomes and errors through
 * {@link ServerAnswer}, which removes the secrets once, where the answer
 * enters, so no field can be forgotten downstream.
 */

const ENCODER = new TextEncoder();
const LENIENT = new TextDecoder("utf-8");

/** How deep an error envelope's `details` is kept; deeper values become {@link TRUNCATED}. */
export const MAX_DETAILS_DEPTH = 32;

/** What replaces a value nested deeper than the depth limit. */
export const TRUNCATED = "[TRUNCATED]";

/** JSON escapes produce these characters (and any character through `\u`). */
const ESCAPABLE = /["\\/\b\f\n\r\t]/;

/**
 * False when no string or member name parsed from the JSON `text` can
 * contain a secret: each secret is absent from the text and no escape
 * sequence could spell it. Lets ordinary bodies skip the walk.
 */
export function mayHoldSecret(text: string, secrets: readonly string[]): boolean {
  if (secrets.length === 0) return false;
  const escapes = text.includes("\\");
  for (const secret of secrets) {
    if (secret === "") continue;
    if (text.includes(secret)) return true;
    if (escapes && (text.includes("\\u") || ESCAPABLE.test(secret))) return true;
  }
  return false;
}

/**
 * Every spelling of each secret that a text outside JSON strings may carry:
 * the secret itself, percent-encoded (upper- and lower-case hex, as a server
 * that reflects the request into a URL or an HTML page writes it),
 * JSON-escaped (with `/` written `\/`, as many JSON encoders do) and as a
 * JSON Pointer segment (`~0`, `~1`: how a validator issue names a member). Text that
 * parses as JSON is also walked value by value, which catches any other
 * escape (as `ServerAnswer.errorBody` does).
 */
export function secretSpellings(secrets: readonly string[]): readonly string[] {
  let cached = SPELLINGS.get(secrets);
  if (cached === undefined) {
    cached = spell(secrets);
    SPELLINGS.set(secrets, cached);
  }
  return cached;
}

/**
 * {@link secretSpellings} by list: a client's list of secrets is made once,
 * with its configuration, and every answer it receives reuses it.
 */
const SPELLINGS = new WeakMap<readonly string[], readonly string[]>();

function spell(secrets: readonly string[]): readonly string[] {
  const spellings = new Set<string>();
  for (const secret of secrets) {
    if (secret === "") continue;
    const encoded = encodeURIComponent(secret);
    const json = JSON.stringify(secret).slice(1, -1);
    // A validator issue names a member by its JSON Pointer, where `~` is `~0` and `/` is `~1`.
    const pointer = secret.replaceAll("~", "~0").replaceAll("/", "~1");
    for (const spelling of [
      secret,
      encoded,
      encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
      json,
      json.replaceAll("/", "\\/"),
      pointer,
    ])
      spellings.add(spelling);
  }
  // Longest first, so that a spelling containing another is replaced whole.
  return [...spellings].sort((a, b) => b.length - a.length);
}

/** One container still to copy: its source, its copy, and its depth (the root is 1). */
interface Pending {
  readonly source: object;
  readonly target: Record<string, unknown> | unknown[];
  readonly depth: number;
}

/**
 * Copies a parsed JSON value with every secret removed from its strings and
 * member names, without recursion (an explicit work list), so a value nested
 * 100,000 levels deep costs no stack. Containers nested deeper than
 * `maxDepth` are replaced by {@link TRUNCATED}. Numbers, booleans and null
 * are kept; objects are copied as plain objects.
 *
 * @param maxDepth containers kept from the root down; Infinity keeps all.
 */
export function redactJson(value: unknown, secrets: readonly string[], maxDepth = Infinity): unknown {
  const pending: Pending[] = [];
  const copy = (item: unknown, depth: number): unknown => {
    if (typeof item === "string") return redact(item, secrets);
    if (typeof item !== "object" || item === null) return item;
    if (depth > maxDepth) return TRUNCATED;
    const target: Record<string, unknown> | unknown[] = Array.isArray(item) ? [] : {};
    pending.push({ source: item, target, depth });
    return target;
  };
  const root = copy(value, 1);
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { source, target, depth } = next;
    if (Array.isArray(source)) {
      for (const item of source) (target as unknown[]).push(copy(item, depth + 1));
    } else {
      for (const [key, item] of Object.entries(source)) {
        // defineProperty: a member named __proto__ stays a plain member.
        Object.defineProperty(target, redact(key, secrets), {
          value: copy(item, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
  }
  return root;
}

/** `text` with every `\uXXXX` escape replaced by its character. */
function unescapeUnicode(text: string): string {
  return text.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/**
 * The parts of one HTTP response that the SDK keeps, each with the secrets
 * removed: headers, the parsed body and anything derived from it (validator
 * issues). The only way decoding reads a response's headers or hands out
 * its body.
 */
export class ServerAnswer {
  readonly #response: TransportResponse;
  readonly #secrets: readonly string[];

  constructor(response: TransportResponse, secrets: readonly string[]) {
    this.#response = response;
    this.#secrets = secrets;
  }

  /** Computed once per list of secrets, on first use. */
  get #spelled(): readonly string[] {
    return secretSpellings(this.#secrets);
  }

  /** A header's value with the secrets removed, or null when absent. */
  header(name: string): string | null {
    const value = this.#response.headers.get(name);
    return value === null ? null : redact(value, this.#spelled);
  }

  /**
   * Every response header as a WHATWG `Headers`, each value with the secrets
   * removed (what `withResponse()` and `onResponse` middleware see).
   */
  headers(): Headers {
    const headers = new Headers();
    for (const [name, value] of this.#response.headers.entries())
      headers.append(name, this.#secrets.length === 0 ? value : redact(value, this.#spelled));
    return headers;
  }

  /** A text derived from the answer (an issue, a message) with the secrets removed. */
  text(value: string): string {
    return redact(value, this.#spelled);
  }

  /**
   * An error body that is not the envelope, as text for the caller: the
   * secrets are removed from the whole body first (from the decoded strings
   * when it is JSON, so that no escape hides one; the JSON is then written
   * anew), and only then is it cut to its first `limitBytes` bytes, so a cut
   * cannot leave part of a secret behind.
   */
  errorBody(text: string, limitBytes: number): string {
    let out = text;
    if (this.#secrets.length > 0 && mayHoldSecret(text, this.#secrets)) {
      try {
        // Written anew whenever an escape could hide a secret: the raw text may
        // also hold values that parsing dropped (a member given twice).
        out = JSON.stringify(redactJson(JSON.parse(text) as unknown, this.#secrets));
      } catch {
        // Not JSON (a page, a cut JSON text): `\uXXXX` escapes are undone
        // where they spell a secret, then the spellings below apply.
        const unescaped = unescapeUnicode(text);
        if (unescaped !== text && this.#secrets.some((secret) => secret !== "" && unescaped.includes(secret)))
          out = unescaped;
      }
    }
    out = redact(out, this.#spelled);
    const bytes = ENCODER.encode(out);
    return bytes.byteLength <= limitBytes ? out : LENIENT.decode(bytes.subarray(0, limitBytes));
  }

  /**
   * A parsed body as the caller gets it. A success body is the server's data
   * and is returned exactly as parsed: never searched, never rewritten. An
   * error body becomes part of an error, so it is copied with the secrets
   * removed (every spelling, so a token percent-encoded or escaped inside a
   * string goes too), capped at {@link MAX_DETAILS_DEPTH} levels below its
   * `details`.
   */
  body(value: unknown, kind: "success" | "error"): unknown {
    if (kind === "success") return value;
    // `{"error": {"details": ...}}`: the envelope's two levels, then the details.
    return redactJson(value, this.#spelled, MAX_DETAILS_DEPTH + 2);
  }
}

/**
 * A value taken from a success body into an error (the last known state of an
 * Operation): a copy with the secrets removed, so the error holds none, while
 * the caller's own data stays as sent.
 */
export function forError<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  return redactJson(value, secretSpellings(secrets), MAX_DETAILS_DEPTH + 2) as T;
}
