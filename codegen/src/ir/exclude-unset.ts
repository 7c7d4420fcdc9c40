import { SpecError, SpecErrorList } from "../errors.js";
import type { Json } from "./domain.js";

/**
 * Our operation extension: the server leaves out of its success answer every optional
 * member it did not set, instead of sending it as null (docs/architecture.md).
 */
export const EXCLUDE_UNSET_EXTENSION = "x-powercontext-exclude-unset";

/**
 * Reads `x-powercontext-exclude-unset` of one operation: `true` when the server's answer
 * carries only the members it set (FastAPI's `response_model_exclude_unset`), so a
 * member that is optional and unset is absent, not null. False without the extension.
 *
 * @param at - JSON pointer of the operation
 * @throws {SpecErrorList} `invalid_extension` naming the extension's pointer when it is not a boolean
 */
export function readExcludeUnset(op: Json, at: string): boolean {
  const raw = op[EXCLUDE_UNSET_EXTENSION];
  if (raw === undefined) return false;
  if (typeof raw !== "boolean")
    throw new SpecErrorList([
      new SpecError("invalid_extension", { pointer: `${at}/${EXCLUDE_UNSET_EXTENSION}` }, "expected true or false"),
    ]);
  return raw;
}
