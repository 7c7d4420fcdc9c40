import { $RefParser } from "@apidevtools/json-schema-ref-parser";
import { RefError, SpecErrorList, pointer } from "../errors.js";

/** Looks up the target of a local `$ref` such as `#/components/schemas/Foo`. */
export type RefLookup = (ref: string) => unknown;

/**
 * Resolves the `$ref`s of a parsed document without dereferencing it: the document
 * keeps its references (emitters need the names), and `lookup` returns the target
 * of any reference by pointer.
 *
 * Only local references (`#/...`) are supported; bundle a multi-file spec first.
 *
 * @param document - the parsed spec (left unmodified)
 * @returns a lookup function for local references
 * @throws {RefError} `external_ref` for a reference to another file, `dangling_ref`
 *   for a reference whose target does not exist; the pointer names the `$ref` itself.
 *   Several bad references are reported together as a {@link SpecErrorList} of them.
 */
export async function resolveRefs(document: object): Promise<RefLookup> {
  const parser = new $RefParser();
  const options = { resolve: { external: false } };
  const refs = await parser.resolve(document as never, options);
  const problems: RefError[] = [];
  for (const { ref, at } of collectRefs(document)) {
    if (!ref.startsWith("#")) {
      problems.push(new RefError("external_ref", { pointer: at }, `external $ref "${ref}" is not supported; bundle the spec into one file`));
    } else if (!refs.exists(ref, options)) {
      problems.push(new RefError("dangling_ref", { pointer: at }, `$ref "${ref}" does not resolve to anything in the document`));
    }
  }
  if (problems.length === 1) throw problems[0];
  if (problems.length > 1) throw new SpecErrorList(problems);
  const cache = new Map<string, unknown>();
  return (ref: string) => {
    if (!cache.has(ref)) cache.set(ref, refs.get(ref, options));
    return cache.get(ref);
  };
}

/** Every `$ref` string in the document with the pointer of the `$ref` member. */
export function collectRefs(document: unknown): { ref: string; at: string }[] {
  const found: { ref: string; at: string }[] = [];
  const walk = (node: unknown, path: (string | number)[]): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, [...path, index]));
      return;
    }
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") found.push({ ref: value, at: pointer(...path, "$ref") });
      else if (!key.startsWith("x-") && key !== "example" && key !== "examples") walk(value, [...path, key]);
    }
  };
  walk(document, []);
  return found;
}
