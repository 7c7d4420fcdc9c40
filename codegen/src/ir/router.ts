import { SpecError, SpecErrorList } from "../errors.js";
import { readFact } from "../facts/read-fact.js";
import type { Json } from "../domain/types.js";
import type { RouterIr } from "./model.js";

/** The document-level extension describing the server's router (docs/extensions.md). */
export const ROUTER_EXTENSION = "x-powercontext-router";

/**
 * Reads `x-powercontext-router` (docs/extensions.md, `router`), whose shape the
 * loader checked: every operationId of `order` is one of the document's. Null when
 * the document has no such extension.
 *
 * @param operationIds - every operationId of the document
 * @throws {SpecErrorList} `invalid_extension` naming the pointer of every unknown operationId
 */
export function readRouter(document: Json, operationIds: readonly string[]): RouterIr | null {
  const node: unknown = document[ROUTER_EXTENSION];
  if (node === undefined) return null;
  const router = readFact("router", node) as RouterIr;
  const known = new Set(operationIds);
  const issues = router.order.flatMap((id, index) =>
    known.has(id)
      ? []
      : [
          new SpecError(
            "invalid_extension",
            { pointer: `/${ROUTER_EXTENSION}/order/${index}` },
            `${JSON.stringify(id)} is not an operationId of the document`,
          ),
        ],
  );
  if (issues.length > 0) throw new SpecErrorList(issues);
  return router;
}
