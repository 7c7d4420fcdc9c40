/** One validation issue (the fields of ajv's `ErrorObject`). */
export interface ValidationError {
  /** JSON pointer of the offending value, "" for the value itself. */
  readonly instancePath: string;
  /** Always "" (the compact form keeps no schema paths). */
  readonly schemaPath: string;
  /** The JSON Schema keyword that failed, such as `required` or `type`. */
  readonly keyword: string;
  /** The keyword's parameters, as ajv gives them (`{ missingProperty }`, `{ limit }`, ...). */
  readonly params: Record<string, unknown>;
  /** What is wrong, in ajv's words. */
  readonly message: string;
}

/** The issue recorded last. Validation is synchronous, so one slot serves every validator. */
let recorded: ValidationError | null = null;

/**
 * Records the issue of a failing keyword of the value at JSON pointer `at`
 * (in ajv's words) and returns false; on the fast path (`at` null) it only
 * returns false.
 */
export function fail(at: string | null, keyword: string, message: string, params: Record<string, unknown> = {}): false {
  if (at !== null) recorded = { instancePath: at, schemaPath: "", keyword, params, message };
  return false;
}

/** The issue recorded last, emptying the slot. */
export function takeIssue(): ValidationError | null {
  const issue = recorded;
  recorded = null;
  return issue;
}

/** ajv's issue for a value that is none of the enum's `values`. */
export function notInEnum(at: string | null, values: readonly unknown[]): false {
  return fail(at, "enum", `must be one of ${values.map((allowed) => JSON.stringify(allowed)).join(", ")}`, {
    allowedValues: values,
  });
}

/** ajv's issue for a number past a bound: `must be >= 1`. */
export function bound(at: string | null, keyword: string, comparison: string, limit: number): false {
  return fail(at, keyword, `must be ${comparison} ${limit}`, { comparison, limit });
}

/** ajv's issue for a length or count past its limit (`keyword` is max... or min...): `must NOT have more than 3 items`. */
export function tooMany(at: string | null, keyword: string, limit: number, unit: string): false {
  return fail(at, keyword, `must NOT have ${keyword.startsWith("max") ? "more" : "fewer"} than ${limit} ${unit}`, {
    limit,
  });
}
