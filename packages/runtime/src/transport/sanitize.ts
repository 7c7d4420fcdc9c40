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

function codeOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const code = (value as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/** Walks `error` and its `cause` chain (bounded) and returns the first error code found. */
export function findErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth += 1) {
    const code = codeOf(current);
    if (code !== undefined) return code;
    current = (current as { cause?: unknown }).cause;
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
  return code !== undefined && CONNECT_CODES.has(code);
}

/**
 * Copies an error chain into fresh `Error` objects holding only name, message
 * and code, with every secret removed. The original objects are dropped: a
 * custom fetch may attach the request (and its Authorization header) to what it
 * throws.
 */
export function sanitizeCause(error: unknown, secrets: readonly string[], depth = 0): Error | undefined {
  if (error === undefined || error === null || depth > 4) return undefined;
  const source = typeof error === "object" ? (error as { name?: unknown; message?: unknown; cause?: unknown }) : {};
  const message = typeof source.message === "string" ? source.message : String(error);
  const cause = sanitizeCause(source.cause, secrets, depth + 1);
  // The `cause` option defines a non-enumerable, writable, configurable own property.
  const copy = new Error(redact(message, secrets), cause === undefined ? undefined : { cause });
  if (typeof source.name === "string") copy.name = redact(source.name, secrets);
  const code = codeOf(error);
  if (code !== undefined) (copy as Error & { code?: string }).code = redact(code, secrets);
  return copy;
}
