import { runOperation, type CallContext } from "../core/run-operation.js";
import type { Runtime } from "../core/runtime.js";
import type { OperationDescriptor } from "../descriptor.js";
import { InvalidRequestError, InvalidResponseError } from "../errors.js";

/**
 * Iterates every item of a cursor-paginated operation
 * (`x-powercontext-pagination`): sends the request, yields the page's
 * `itemsField` entries, then re-sends with `cursorParameter` set to the page's
 * `nextCursorField` until that is null, absent or empty. Pages are fetched
 * lazily, one at a time; stopping the loop stops fetching. Every cursor seen is
 * remembered, so a server that leads back to an earlier page (A, B, A) ends the
 * loop with an error instead of paging forever.
 *
 * @throws InvalidRequestError when the operation is not paginated;
 *   InvalidResponseError when a page has no items array or names a cursor already
 *   followed (its own or an earlier page's);
 *   everything `runOperation` throws.
 */
export async function* paginate(
  runtime: Runtime,
  descriptor: OperationDescriptor,
  request: Record<string, unknown> = {},
  context: CallContext = {},
): AsyncGenerator<unknown, void, undefined> {
  const spec = descriptor.pagination;
  if (spec === null) throw new InvalidRequestError(`${descriptor.operationId} is not a paginated operation`);
  let cursor = request[spec.cursorParameter];
  const followed = new Set<unknown>([cursor]);
  for (;;) {
    const pageRequest = { ...request };
    if (cursor === undefined || cursor === null) delete pageRequest[spec.cursorParameter];
    else pageRequest[spec.cursorParameter] = cursor;
    const page = await runOperation(runtime, descriptor, pageRequest, context);
    const body = (page.data ?? {}) as Record<string, unknown>;
    const items = body[spec.itemsField];
    const context_ = { statusCode: page.statusCode, requestId: page.requestId };
    if (!Array.isArray(items)) {
      throw new InvalidResponseError(`page has no ${spec.itemsField} array`, {
        ...context_,
        issues: [`missing ${spec.itemsField}`],
      });
    }
    yield* items;
    const next = body[spec.nextCursorField];
    if (next === undefined || next === null || next === "") return;
    if (followed.has(next)) {
      throw new InvalidResponseError("page repeats its cursor", {
        ...context_,
        issues: [
          next === cursor ? "next cursor equals the current cursor" : "next cursor leads back to an earlier page",
        ],
      });
    }
    followed.add(next);
    cursor = next;
  }
}
