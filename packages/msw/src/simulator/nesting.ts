/**
 * How deeply a request body may nest. A parsed JSON value deeper than this is
 * refused with `422 invalid_request` before any handler walks it, because
 * recursive walks (`JSON.stringify`, `structuredClone`, validators) overflow
 * the stack on bodies a client can send in a few hundred kilobytes.
 */

/** Deepest nesting of arrays and objects a request body may have (the top-level value is level 1). */
export const MAX_BODY_DEPTH = 256;

/**
 * True when `value` has arrays or objects nested more than `limit` levels
 * deep. Iterative, so it never recurses whatever the input; stops at the
 * first path that crosses the limit.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: { readonly value: unknown; readonly depth: number }[] = [{ value, depth: 1 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (typeof item.value !== "object" || item.value === null) continue;
    if (item.depth > limit) return true;
    const children: readonly unknown[] = Array.isArray(item.value) ? item.value : Object.values(item.value);
    for (const child of children) {
      if (typeof child === "object" && child !== null) stack.push({ value: child, depth: item.depth + 1 });
    }
  }
  return false;
}
