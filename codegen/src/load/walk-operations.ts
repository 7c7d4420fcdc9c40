import type { Json, RefLookup } from "../domain/types.js";
import { pointer } from "../errors.js";

/** The HTTP methods an OpenAPI 3.0 path item may hold, in emit order. */
export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** One operation as found in the document. */
export interface RawOperation {
  readonly path: string;
  readonly method: HttpMethod;
  readonly operation: Json;
  /** Parameters declared on the path item (shared by its operations). */
  readonly pathItemParameters: readonly unknown[];
  /** Pointer of the operation object, e.g. `/paths/~1v1~1stats/get`. */
  readonly pointer: string;
}

/**
 * Lists every operation of the document in document order (paths in the order
 * written, methods in {@link HTTP_METHODS} order). Path items given as `$ref` are
 * followed.
 */
export function walkOperations(document: Json, lookup: RefLookup): RawOperation[] {
  const found: RawOperation[] = [];
  const paths = (document.paths ?? {}) as Record<string, unknown>;
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = deref(rawItem, lookup) as Json | undefined;
    if (item === undefined || item === null || typeof item !== "object") continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation === undefined || operation === null || typeof operation !== "object") continue;
      found.push({
        path,
        method,
        operation: operation as Json,
        pathItemParameters: shared,
        pointer: pointer("paths", path, method),
      });
    }
  }
  return found;
}

/** Follows `$ref` chains (a reference to a reference) to the target object. */
export function deref(node: unknown, lookup: RefLookup): unknown {
  let current = node;
  for (let hops = 0; hops < 32; hops += 1) {
    const ref = refOf(current);
    if (ref === undefined) return current;
    current = lookup(ref);
  }
  return current;
}

/** The `$ref` string of a reference object, or undefined for inline objects. */
export function refOf(node: unknown): string | undefined {
  if (node !== null && typeof node === "object" && typeof (node as Json).$ref === "string")
    return (node as Json).$ref as string;
  return undefined;
}

/** The component name of `#/components/schemas/Name`, or undefined for any other ref. */
export function schemaRefName(node: unknown): string | undefined {
  const ref = refOf(node);
  const prefix = "#/components/schemas/";
  if (ref === undefined || !ref.startsWith(prefix)) return undefined;
  const tail = ref.slice(prefix.length);
  if (tail.includes("/")) return undefined;
  return decodeURIComponent(tail).replace(/~1/g, "/").replace(/~0/g, "~");
}
