import type { RefLookup } from "../domain/types.js";
import { checkRefs, resolvePointer } from "./ref-policy.js";

/**
 * Resolves the `$ref`s of a parsed document without dereferencing it: the document
 * keeps its references (emitters need the names), and `lookup` returns the target
 * of any reference by pointer.
 *
 * Only local references (`#/...`) are supported; bundle a multi-file spec first.
 * The reference policy (`checkRefs`) refuses every other reference, so nothing
 * but the document is read. A reference is followed as RFC 6901 says and
 * nothing more (`resolvePointer`): only own members, no path normalisation
 * (a general resolver reads `\` in a pointer as `/`).
 *
 * @param document - the parsed spec (left unmodified)
 * @returns a lookup function for local references
 * @throws {RefError} `external_ref` for a reference to another file or a URL,
 *   `dangling_ref` for a reference whose target does not exist, `circular_ref` for
 *   references that only lead to each other; the pointer names the `$ref` itself.
 *   Several bad references are reported together as a `SpecErrorList` of them.
 */
export async function resolveRefs(document: object): Promise<RefLookup> {
  checkRefs(document);
  return lookupIn(document);
}

/**
 * The lookup of local references into `document`, whose references were checked
 * by {@link resolveRefs} (the normalized copy of a checked document: it holds the
 * same references). Each target is found once, on first use.
 */
export function lookupIn(document: object): RefLookup {
  const cache = new Map<string, unknown>();
  return (ref: string) => {
    if (!cache.has(ref)) cache.set(ref, resolvePointer(document, ref).value);
    return cache.get(ref);
  };
}
