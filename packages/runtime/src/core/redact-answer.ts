import { redact } from "../transport/sanitize.js";

/**
 * Secrets in what a server answers (DESIGN §2, "Secrets"). A server may
 * reflect the bearer token into any part of its answer: a header (the request
 * id, `Location`), a member name or a string anywhere in the body. Every
 * server-derived string reaches the SDK's outcomes and errors through
 * {@link ServerAnswer}, which removes the secrets once, where the answer
 * enters, so no field can be forgotten downstream.
 */

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
        Object.defineProperty(target, redact(key, secrets), { value: copy(item, depth + 1), enumerable: true, writable: true, configurable: true });
      }
    }
  }
  return root;
}

/**
 * The parts of one HTTP response that the SDK keeps, each with the secrets
 * removed: headers, the parsed body and anything derived from it (validator
 * issues). The only way decoding reads a response's headers or hands out
 * its body.
 */
export class ServerAnswer {
  readonly #response: Response;
  readonly #secrets: readonly string[];

  constructor(response: Response, secrets: readonly string[]) {
    this.#response = response;
    this.#secrets = secrets;
  }

  /** A header's value with the secrets removed, or null when absent. */
  header(name: string): string | null {
    const value = this.#response.headers.get(name);
    return value === null ? null : redact(value, this.#secrets);
  }

  /** A text derived from the answer (an issue, a message) with the secrets removed. */
  text(value: string): string {
    return redact(value, this.#secrets);
  }

  /**
   * A parsed body with the secrets removed. A success body is walked only
   * when its `text` may hold a secret; an error body always is, capped at
   * {@link MAX_DETAILS_DEPTH} levels below its `details`.
   */
  body(value: unknown, text: string, kind: "success" | "error"): unknown {
    if (kind === "success") return mayHoldSecret(text, this.#secrets) ? redactJson(value, this.#secrets) : value;
    // `{"error": {"details": ...}}`: the envelope's two levels, then the details.
    return redactJson(value, this.#secrets, MAX_DETAILS_DEPTH + 2);
  }
}
