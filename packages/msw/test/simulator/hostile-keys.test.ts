import { TEST_SCOPES } from "../support/scopes.js";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import { startTransport, transportNames, type Transport } from "../support/transports.js";

/**
 * Ids that name members of `Object.prototype`. Every collection the simulator
 * keys by a client-chosen string must treat them as ordinary keys: scopes
 * (Sources, Memory, flush cursors, Operations by scope and window, Topic
 * Memory state, blocks, principals' grants), Source ids, Operation and block
 * ids, and query parameter names.
 */
const HOSTILE = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "__defineGetter__"];

const principals = {
  tokens: {
    "pc-admin": { name: "admin", scopes: { "*": ["scope.read", "scope.contribute", "scope.admin"] as const } },
    "pc-none": { name: "none", scopes: {} },
    ...Object.fromEntries(
      HOSTILE.map((id) => [`pc-read-${id}`, { name: `reader of ${id}`, scopes: { [id]: ["scope.read"] as const } }]),
    ),
  },
};

let transport: Transport | undefined;
afterEach(async () => {
  await transport?.close();
  transport = undefined;
});

async function world(name: (typeof transportNames)[number]): Promise<{ sim: PowerContextSimulator; t: Transport }> {
  const sim = createPowerContextSimulator({
    scopes: [...TEST_SCOPES, ...HOSTILE],
    clock: new ManualClock(),
    seed: 3,
    principals,
  });
  transport = await startTransport(name, sim);
  return { sim, t: transport };
}

describe.each(transportNames)("ids named like Object.prototype members (%s)", (name) => {
  it.each(HOSTILE)("scope, Source, Operation and block id %s behave like any other id", async (id) => {
    const { sim, t } = await world(name);
    const scope = { scope_id: id };

    expect(
      (await t.call("capture_content_source", { body: { ...scope, source_id: id, content: "first note" } })).status,
    ).toBe(202);
    const again = await t.call("capture_content_source", { body: { ...scope, source_id: id, content: "first note" } });
    expect(again).toMatchObject({ status: 202, body: { position: 1, source: { source_id: id } } });
    const conflict = await t.call("capture_content_source", {
      body: { ...scope, source_id: id, content: "other text" },
    });
    expect(conflict).toMatchObject({ status: 409, body: { error: { code: "source_conflict" } } });

    const flushed = await t.call("flush_memory", { body: scope });
    expect(flushed).toMatchObject({ status: 200, body: { status: "processed", processed_source_count: 1 } });
    const remembered = await t.call("remember_memory", { body: { ...scope, kind: "note", text: "fencing tokens" } });
    expect(remembered.status).toBe(200);
    expect(await t.call("list_memory_entries", { body: scope })).toMatchObject({
      status: 200,
      body: { entries: [{}, {}] },
    });
    expect(await t.call("search_memory", { body: { ...scope, query: "fencing" } })).toMatchObject({
      status: 200,
      body: { hits: [{}] },
    });

    // A query parameter the operation does not declare is refused by name, whatever the name.
    const stray = await t.call("list_operations", { query: { scope_id: id, [id]: "x" } });
    expect(stray).toMatchObject({
      status: 422,
      body: { error: { code: "invalid_request", details: { field: "query", reason: "contains unknown parameters" } } },
    });
    const page = await t.call("list_operations", { query: { scope_id: id } });
    expect(page).toMatchObject({ status: 200, body: { operations: [{ scope_id: id }] } });
    for (const op of ["get_operation", "cancel_operation", "retry_operation"] as const) {
      const answer = await t.call(op, { params: { operation_id: id }, body: { expected_version: 1 } });
      expect(answer, op).toMatchObject({ status: 404, body: { error: { code: "operation_not_found" } } });
    }

    for (const op of ["get_topic_memory_processing_block", "retry_topic_memory_processing"] as const) {
      const answer = await t.call(op, { body: { ...scope, block_id: id } });
      expect(answer, op).toMatchObject({ status: 404, body: { error: { code: "topic_memory_block_not_found" } } });
    }
    sim.controls.setProcessingEnabled(false);
    expect(
      (await t.call("capture_content_source", { body: { ...scope, source_id: "second", content: "second note" } }))
        .status,
    ).toBe(202);
    sim.controls.exhaustTopicBudget(id);
    sim.controls.setProcessingEnabled(true);
    const status = await t.call("get_topic_memory_processing_status", { body: scope });
    expect(status).toMatchObject({ status: 200, body: { state: "blocked" } });
    const blockId = (status.body as { block: { block_id: string } }).block.block_id;
    const receipts = [await t.call("retry_topic_memory_processing", { body: { ...scope, block_id: blockId } })];
    receipts.push(await t.call("retry_topic_memory_processing", { body: { ...scope, block_id: blockId } }));
    expect(receipts.map((r) => r.status)).toEqual([200, 200]);
    expect(receipts[1]!.body).toEqual(receipts[0]!.body);
    expect(sim.inspect.acceptances(blockId)).toBe(1);
    expect(sim.inspect.budgetsGranted(id)).toBe(1);
  });

  it.each(HOSTILE)("a grant on scope %s is honoured exactly, and no grant is a 403", async (id) => {
    const { t } = await world(name);
    const body = { scope_id: id };
    expect((await t.call("get_topic_memory_processing_status", { token: `pc-read-${id}`, body })).status).toBe(200);
    const cannotWrite = await t.call("flush_memory", { token: `pc-read-${id}`, body });
    expect(cannotWrite).toMatchObject({ status: 403, body: { error: { code: "forbidden" } } });
    const other = await t.call("get_topic_memory_processing_status", {
      token: `pc-read-${id}`,
      body: { scope_id: "elsewhere" },
    });
    expect(other.status).toBe(403);
    const none = await t.call("get_topic_memory_processing_status", { token: "pc-none", body });
    expect(none).toMatchObject({ status: 403, body: { error: { code: "forbidden" } } });
    expect((await t.call("list_operations", { token: "pc-none", query: { scope_id: id } })).status).toBe(403);
  });
});
