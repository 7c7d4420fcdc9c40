import { describe, expect, it } from "vitest";
import { simOperationIds, simOperations } from "../../src/simulator/contract/operation-table.js";
import { isReset } from "../../src/simulator/types.js";
import { buildWorld, validRequest } from "../support/world.js";

/**
 * Every list operation of the mock ends: following `next_cursor` (as the SDK's
 * `paginate()` does) reaches a page without one, and no page repeats the
 * cursor it was asked with. Lists the resource engine keeps page over what is
 * stored; lists the simulator keeps no state for answer one empty last page.
 */
const lists = simOperationIds.filter((id) => simOperations[id].pagination !== null);

describe("pagination ends on every list operation", () => {
  it("covers the paginated operations of the contract", () => {
    expect(lists.length).toBeGreaterThanOrEqual(10);
  });

  it.each(lists)("%s", (operationId) => {
    const world = buildWorld();
    const page = simOperations[operationId].pagination!;
    const base = validRequest(operationId, world);
    const inBody = simOperations[operationId].parameters.query.every((p) => p.name !== page.cursorParameter);
    let cursor: string | null = null;
    let pages = 0;
    do {
      const request =
        cursor === null
          ? base
          : inBody
            ? { ...base, body: { ...(base.body as object), [page.cursorParameter]: cursor } }
            : { ...base, query: { ...base.query, [page.cursorParameter]: cursor } };
      const outcome = world.sim.handle(operationId, { token: "pc-admin", ...request });
      if (isReset(outcome)) throw new Error("unexpected reset");
      expect(simOperations[operationId].successStatuses, JSON.stringify(outcome.body)).toContain(outcome.status);
      const next = (outcome.body as Record<string, unknown>)[page.nextCursorField] ?? null;
      expect(next === null || next !== cursor, "the page repeats its cursor").toBe(true);
      cursor = next as string | null;
      pages += 1;
    } while (cursor !== null && pages < 50);
    expect(cursor).toBeNull();
  });
});
