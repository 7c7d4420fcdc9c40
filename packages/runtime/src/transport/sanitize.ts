/**
 * The shortest token searched for on its own in what a server answers. A
 * shorter one (`e`, `test`) also spells ordinary words and member names, so
 * searching for it would rewrite them; such a token is found only in its
 * exact header spelling, `Bearer <token>` (runtime README, "Secrets").
 */
export const MIN_SECRET_LENGTH = 8;

/**
 * The texts to remove from what reaches errors, logs and spans for `token`:
 * none without a token; the `Authorization` value `Bearer <token>` always;
 * the bare token when it has at least {@link MIN_SECRET_LENGTH} characters.
 * The bare token, when listed, is first.
 */
export function secretsOf(token: string): readonly string[] {
  if (token === "") return [];
  return token.length >= MIN_SECRET_LENGTH ? [token, `Bearer ${token}`] : [`Bearer ${token}`];
}

/** Replaces every occurrence of each non-empty secret in `text` with `[REDACTED]`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret !== "" && out.includes(secret)) out = out.split(secret).join("[REDACTED]");
  }
  return out;
}

/** Error codes (Node, undici) meaning the connection was never established. */
const CONNECT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/**
 * What runtimes without an error code say of a connection that was never
 * made: Deno's fetch (hyper) tags a failed connect, DNS lookup included, as
 * `client error (Connect)`. workerd says "Network connection lost." of a
 * refused connect and of a connection lost after the request left alike, so
 * its failures stay `exchange` (docs/runtimes.md).
 */
const CONNECT_MESSAGES = /\bclient error \(Connect\)|\btcp connect error\b/;

/** `value[name]`, or undefined when `value` is not an object or reading it throws (a hostile getter or proxy). */
function property(value: unknown, name: string): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  try {
    return (value as Record<string, unknown>)[name];
  } catch {
    return undefined;
  }
}

function codeOf(value: unknown): string | undefined {
  const code = property(value, "code");
  return typeof code === "string" ? code : undefined;
}

/**
 * A short text for a thrown value of any kind, never throwing: its string
 * `message`, a thrown string itself, else "unknown failure" (a value without
 * `toString`, such as `Object.create(null)`, or one whose getters throw).
 */
export function describeFailure(error: unknown): string {
  if (typeof error === "string") return error === "" ? "unknown failure" : error;
  const message = property(error, "message");
  return typeof message === "string" && message !== "" ? message : "unknown failure";
}

/** Walks `error` and its `cause` chain (bounded) and returns the first error code found. */
export function findErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth += 1) {
    const code = codeOf(current);
    if (code !== undefined) return code;
    current = property(current, "cause");
  }
  return undefined;
}

/**
 * True when the failure provably happened before the request left the client
 * (DNS failure, refused or timed-out connect). A reset of a reused keep-alive
 * socket (`ECONNRESET`, `UND_ERR_SOCKET`, "other side closed") is not: the
 * server may have read the request.
 */
export function isConnectFailure(error: unknown): boolean {
  const code = findErrorCode(error);
  if (code !== undefined) return CONNECT_CODES.has(code);
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth += 1) {
    const message = property(current, "message");
    if (typeof message === "string" && CONNECT_MESSAGES.test(message)) return true;
    current = property(current, "cause");
  }
  return false;
}

/**
 * Copies an error chain into fresh `Error` objects holding only name, message
 * and code, with every secret removed. The original objects are dropped: a
 * custom fetch may attach the request (and its Authorization header) to what it
 * throws. Never throws, whatever `error` is (see {@link describeFailure}).
 */
export function sanitizeCause(error: unknown, secrets: readonly string[], depth = 0): Error | undefined {
  if (error === undefined || error === null || depth > 4) return undefined;
  const cause = sanitizeCause(property(error, "cause"), secrets, depth + 1);
  // The `cause` option defines a non-enumerable, writable, configurable own property.
  const copy = new Error(redact(describeFailure(error), secrets), cause === undefined ? undefined : { cause });
  const name = property(error, "name");
  if (typeof name === "string") copy.name = redact(name, secrets);
  const code = codeOf(error);
  if (code !== undefined) (copy as Error & { code?: string }).code = redact(code, secrets);
  return copy;
}
