import { anything, checkInOrder } from "./check.js";
import { prepare } from "./compile.js";
import type { Prepared } from "./prepared.js";
import { integralFloats } from "./float-literals.js";
import { takeIssue, type ValidationError } from "./issue.js";
import type { SchemaRef } from "./schema-node.js";

export type { ValidationError } from "./issue.js";

/**
 * A validator: true when the value matches; otherwise `errors` holds the
 * issue. `text`, when given, is the valid JSON text `data` was parsed from: a
 * number written there with a fraction or exponent (`3.0`, `3e0`) is then not
 * an integer, as for a strict decoder.
 */
export interface ValidateFunction {
  (data: unknown, text?: string): boolean;
  /** The issue of the last call that returned false (one), or null after a success. */
  errors: ValidationError[] | null;
}

/**
 * The validator of a schema in the compact form
 * (docs/adr/0031-validators-fast-and-ordered.md). Nothing is prepared until
 * its first call; each schema node is prepared once, whatever the number of
 * validators that reach it. A value is checked on the fast path
 * (`check.ts`), which records nothing; when it fails, the ordered path finds
 * the issue ajv reports first. A value that takes a
 * recursive schema more than 256 levels deep fails with the `depth` issue
 * (`depth.ts`) instead of exhausting the stack.
 *
 * @param schema the schema, as the generator writes it.
 * @param integers false when no value under the schema can be an integer
 *   (no node it reaches has the type `integer`): the JSON text is then never
 *   read. Default true.
 */
export function validator(schema: SchemaRef, integers = true): ValidateFunction {
  let check: Prepared | null | undefined;
  // The fast path's check of the root (`check.ts`), kept at hand.
  let accepted: (value: unknown) => boolean = anything;
  const validate: ValidateFunction = Object.assign(
    (data: unknown, text?: string): boolean => {
      if (check === undefined) {
        check = prepare(schema);
        if (check !== null) accepted = check.a;
      }
      // Only the ordered path knows where a value sits: it alone runs when the text writes an integer as a float.
      const floats = integers && typeof text === "string" ? integralFloats(text) : null;
      if (floats === null && accepted(data)) {
        if (validate.errors !== null) validate.errors = null;
        return true;
      }
      const ok = checkInOrder(check, data, floats);
      const issue = takeIssue();
      validate.errors = ok || issue === null ? null : [issue];
      return ok;
    },
    { errors: null },
  );
  return validate;
}
