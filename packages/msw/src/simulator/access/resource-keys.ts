import { stableJson, type JsonRecord } from "../members.js";
import type { Target } from "./resolve.js";

/**
 * Access resources as `list_access_resources` answers and orders them: each in its
 * wire form (an Artifact with its `identity` and its `selector`, null unless it names
 * a memory entry), keyed by the canonical JSON text of that form (members sorted), and
 * ordered by key code point by code point, as the release compares its keys (Python's
 * string order, which is not JavaScript's UTF-16 one past the Basic Multilingual Plane).
 */

/** `target` as the Access API writes a resource. */
export function resourceWire(target: Target): JsonRecord {
  switch (target.kind) {
    case "server":
      return { type: "server", deployment_id: target.deployment };
    case "scope":
      return { type: "scope", scope_id: target.scopeId };
    case "artifact":
      return {
        type: "artifact",
        scope_id: target.scopeId,
        identity: { family: target.family, artifact_id: target.artifactId },
        selector: target.entryId === null ? null : { type: "memory_entry", entry_id: target.entryId },
      };
  }
}

/** The key of `target`: the canonical JSON text of its wire form. */
export function resourceKey(target: Target): string {
  return stableJson(resourceWire(target));
}

/** Compares two keys code point by code point (negative when `a` comes first). */
export function compareResourceKeys(a: string, b: string): number {
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const x = left.next();
    const y = right.next();
    if (x.done === true || y.done === true) return (x.done === true ? 0 : 1) - (y.done === true ? 0 : 1);
    const byPoint = (x.value.codePointAt(0) ?? 0) - (y.value.codePointAt(0) ?? 0);
    if (byPoint !== 0) return byPoint;
  }
}
