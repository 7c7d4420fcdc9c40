import { TEST_SCOPES } from "../support/scopes.js";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { MAX_BODY_DEPTH } from "../../src/simulator/nesting.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import type { SimOperationId } from "../../src/simulator/contract/operation-table.js";
import { startTransport, transportNames, type Answer, type Transport } from "../support/transports.js";

/** JSON text of `depth` nested arrays: `[[[...]]]`. */
const arrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

/** A capture body whose metadata makes the whole body exactly `depth` levels deep. */
function captureText(depth: number): string {
  const metadata = `{"a":${arrays(depth - 2)}}`;
  return `{"scope_id":"s1","source_id":"deep","content":"x","metadata":${metadata}}`;
}

const DEEP = 100_000;
const cases: readonly (readonly [SimOperationId, string])[] = [
  ["capture_content_source", captureText(DEEP)],
  ["flush_memory", arrays(DEEP)],
  ["remember_memory", `{"scope_id":"s1","kind":"k","text":"t","reason":${arrays(DEEP)}}`],
  ["retry_operation", `{"expected_version":${arrays(DEEP)}}`],
];

let transport: Transport | undefined;
afterEach(async () => {
  await transport?.close();
  transport = undefined;
});

async function answers(rawBodies: readonly (readonly [SimOperationId, string])[]): Promise<Record<string, Answer[]>> {
  const result: Record<string, Answer[]> = {};
  for (const name of transportNames) {
    const sim = createPowerContextSimulator({ scopes: TEST_SCOPES, clock: new ManualClock(), seed: 2 });
    transport = await startTransport(name, sim);
    result[name] = [];
    for (const [operationId, rawBody] of rawBodies) {
      result[name].push(await transport.call(operationId, { rawBody, params: { operation_id: "op_1" } }));
    }
    await transport.close();
    transport = undefined;
  }
  return result;
}

describe("deeply nested request bodies", () => {
  it(`answer 422 invalid_request, not 500, and the same from the HTTP server and the msw handlers (${DEEP} levels)`, async () => {
    const byTransport = await answers(cases);
    for (const name of transportNames) {
      for (const [index, answer] of (byTransport[name] ?? []).entries()) {
        expect(answer.status, `${name} ${cases[index]![0]}`).toBe(422);
        expect(answer.headers["x-powercontext-request-id"]).toBeTruthy();
        expect(answer.body).toEqual({
          error: {
            code: "invalid_request",
            message: expect.any(String),
            details: { field: "body", reason: `nests deeper than ${MAX_BODY_DEPTH} levels` },
          },
        });
      }
    }
    const strip = (list: Answer[] = []) => list.map((a) => [a.status, a.body]);
    expect(strip(byTransport["msw handlers"])).toEqual(strip(byTransport["http server"]));
  });

  it(`accept a body exactly ${MAX_BODY_DEPTH} levels deep and refuse one level more`, async () => {
    const byTransport = await answers([
      ["capture_content_source", captureText(MAX_BODY_DEPTH)],
      ["capture_content_source", captureText(MAX_BODY_DEPTH + 1).replace('"deep"', '"deeper"')],
    ]);
    for (const name of transportNames)
      expect(
        (byTransport[name] ?? []).map((a) => a.status),
        name,
      ).toEqual([202, 422]);
  });
});
