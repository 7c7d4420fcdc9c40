/**
 * The caller's abort reason, read so that reading it cannot fail: a signal of
 * another make (a polyfill, a Proxy) may throw from its `reason` getter, and
 * an abort must stay an abort whatever its reason does. Such a reason reads as
 * undefined (the `AbortError` then has no `cause`).
 */
export function abortReason(signal: AbortSignal | undefined): unknown {
  try {
    return signal?.reason;
  } catch {
    return undefined;
  }
}
