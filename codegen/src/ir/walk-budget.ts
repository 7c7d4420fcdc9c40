import { SpecError } from "../errors.js";
import { refOf } from "../load/walk-operations.js";

/**
 * The most schema nodes one walk of a request body may visit, following `$ref`
 * and `allOf` (member defaults, member names). The document bounds
 * (`load/check-bounds.ts`) cap what the text expands to, but a few kilobytes of
 * `$ref`s that each name the next schema ten times spell 10^9 member paths: a
 * walk that follows them path by path would not end. The largest body of
 * openapi.yaml visits fewer than 500.
 */
export const MAX_BODY_WALK = 100_000;

/** Counts the nodes one walk visits and refuses the walk past {@link MAX_BODY_WALK}. */
export class WalkBudget {
  #left: number;
  /** The last `$ref` the walk followed: where a refusal points. */
  #lastRef: string | undefined;

  constructor(limit: number = MAX_BODY_WALK) {
    this.#left = limit;
  }

  /**
   * Counts one visit of `node` (a schema, or a `$ref` to one).
   * @throws {SpecError} `too_large` past the limit, naming the schema the last `$ref` followed points at (else the document root)
   */
  spend(node: unknown): void {
    this.#lastRef = refOf(node) ?? this.#lastRef;
    this.#left -= 1;
    if (this.#left >= 0) return;
    const ref = this.#lastRef;
    throw new SpecError(
      "too_large",
      { pointer: ref?.startsWith("#") ? ref.slice(1) : "" },
      `a request body's schemas, followed through $ref and allOf, name more than ${MAX_BODY_WALK} ` +
        "member paths by the time they reach this one; nest fewer references to schemas that reference several others",
    );
  }
}
