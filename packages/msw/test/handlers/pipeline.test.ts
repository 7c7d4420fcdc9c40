import { afterEach, describe, expect, it } from "vitest";
import { simOperationIds, simOperations } from "../../src/simulator/contract/operation-table.js";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator } from "../../src/simulator/simulator.js";
import { contractProblems, contractRefusal } from "../support/contract.js";
import { sampledRequest } from "../support/requests.js";
import { TEST_SCOPES } from "../support/scopes.js";
import { startTransport, type Answer, type Call, type Transport } from "../support/transports.js";
import { aimAt, captureMany, storeRecords } from "../support/world.js";

/**
 * The HTTP server and the msw handlers are one pipeline: the same request to
 * two simulators with the same seed gets the same status, the same body and
 * the same contract headers from both, for every operation of the contract.
 */
const open: Transport[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

/** Members naming the records both simulators hold (the same ids: same seed, same requests). */
let ids: Record<string, string | number> = {};

/** Two simulators with the same seed and the same stored records, one behind each transport. */
async function both(): Promise<[Transport, Transport]> {
  const sims = [0, 1].map(() =>
    createPowerContextSimulator({ seed: 5, clock: new ManualClock(), scopes: TEST_SCOPES }),
  );
  for (const sim of sims) {
    captureMany(sim, "s1", "src", 1);
    ids = storeRecords(sim);
  }
  const http = await startTransport("http server", sims[0]!);
  const msw = await startTransport("msw handlers", sims[1]!);
  open.push(http, msw);
  return [http, msw];
}

function comparable(answer: Answer) {
  const keep = ["content-type", "etag", "retry-after", "www-authenticate"];
  return {
    status: answer.status,
    body: answer.body,
    headers: Object.fromEntries(keep.map((k) => [k, answer.headers[k]?.split(";")[0]])),
  };
}

function callOf(operationId: (typeof simOperationIds)[number]): Call {
  let request;
  try {
    request = aimAt(sampledRequest(operationId), ids, operationId);
  } catch {
    // No request the generated validator accepts: still reach the route, for its 422.
    request = {
      params: Object.fromEntries(simOperations[operationId].parameters.path.map((p) => [p.name, "s1"])),
      body: {},
    };
  }
  return {
    params: request.params as Record<string, string> | undefined,
    query: request.query as Record<string, string> | undefined,
    headers: request.headers,
    body: request.body,
  };
}

describe("one request pipeline", () => {
  it("answers every operation the same over HTTP and through msw, each answer valid for its status", async () => {
    const [http, msw] = await both();
    const differences: string[] = [];
    const problems: string[] = [];
    let successes = 0;
    for (const operationId of simOperationIds) {
      const call = callOf(operationId);
      const [overHttp, overMsw] = [await http.call(operationId, call), await msw.call(operationId, call)];
      if (JSON.stringify(comparable(overHttp)) !== JSON.stringify(comparable(overMsw)))
        differences.push(`${operationId}: ${overHttp.status} vs ${overMsw.status}`);
      if (
        simOperations[operationId].successStatuses.includes(overHttp.status) ||
        contractRefusal(operationId, overHttp.status, overHttp.body)
      )
        successes += 1;
      if (overHttp.headers["content-type"]?.includes("json") || overHttp.body === null)
        problems.push(...contractProblems(operationId, overHttp.status, overHttp.headers, overHttp.body));
    }
    expect(differences).toEqual([]);
    expect(problems).toEqual([]);
    // The stateful operations answer 404 for the scope, Operation or block a fresh simulator does not hold,
    // and refuse what a sampled request cannot know: a tags ETag (412), one record merged with itself (409),
    // a bootstrap receipt the server never issued (422), a handoff boundary under a Source id already used,
    // a handoff prepared on another revision (409) and a draft citing evidence the Scope does not hold (404).
    expect(successes, "operations answered with a declared success").toBeGreaterThanOrEqual(
      simOperationIds.length - 26,
    );
  });

  it("gives an invalid JSON body the same 422 from both, in the release's form", async () => {
    const [http, msw] = await both();
    const withBody = simOperationIds.filter((id) => simOperations[id].body !== null);
    for (const operationId of withBody.slice(0, 20)) {
      const call: Call = { ...callOf(operationId), rawBody: "{not json" };
      const [a, b] = [await http.call(operationId, call), await msw.call(operationId, call)];
      expect(comparable(a), operationId).toEqual(comparable(b));
      expect(a.status, operationId).toBe(422);
      expect(a.body, operationId).toEqual({
        error: {
          code: "invalid_request",
          message: "The request violates the API contract.",
          details: { errors: [{ type: "json_invalid", loc: ["body", 0], msg: "JSON decode error" }] },
        },
      });
    }
  });

  it("reads a body sent as another media type as the release does: its access layer parses the text, its contract check refuses it", async () => {
    const [http, msw] = await both();
    const json = '{"title": "Plain", "summary": "Plain", "idempotency_key": "plain"}';
    const notJsonMedia = { "Content-Type": "text/plain" };
    const code = (answer: { body: unknown }) => (answer.body as { error: { code: string } }).error.code;
    // valid JSON as text/plain: the access check passes, the contract check reads no model
    const valid: Call = { ...callOf("create_scope"), rawBody: json, headers: notJsonMedia };
    const [a, b] = [await http.call("create_scope", valid), await msw.call("create_scope", valid)];
    expect(comparable(a)).toEqual(comparable(b));
    expect(a.status).toBe(422);
    expect(a.body).toMatchObject({
      error: {
        code: "invalid_request",
        details: {
          errors: [
            {
              type: "model_attributes_type",
              loc: ["body"],
              msg: "Input should be a valid dictionary or object to extract fields from",
            },
          ],
        },
      },
    });
    // text that is no JSON: the access layer cannot read the request
    const text: Call = { ...callOf("create_scope"), rawBody: "title=Plain", headers: notJsonMedia };
    const [c, d] = [await http.call("create_scope", text), await msw.call("create_scope", text)];
    expect(comparable(c)).toEqual(comparable(d));
    expect([c.status, code(c)]).toEqual([422, "invalid_access_request"]);
    // a JSON media type with a suffix is JSON
    const asJson = await http.call("create_scope", {
      ...valid,
      headers: { "Content-Type": "application/merge-patch+json; charset=utf-8" },
    });
    expect(asJson.status).toBe(201);
  });

  it("refuses a body of an operation without an access rule that is no JSON object, as the release's contract check does", async () => {
    const [http, msw] = await both();
    const target = simOperationIds.find((id) => simOperations[id].access === null && simOperations[id].body !== null);
    expect(target).toBeDefined();
    for (const rawBody of ['"text"', "[1]", "7"]) {
      const call: Call = { ...callOf(target!), rawBody };
      const [a, b] = [await http.call(target!, call), await msw.call(target!, call)];
      expect(comparable(a)).toEqual(comparable(b));
      expect([a.status, a.body]).toMatchObject([
        422,
        { error: { code: "invalid_request", details: { errors: [{ type: "model_attributes_type", loc: ["body"] }] } } },
      ]);
    }
  });

  it("answers 304 for an If-None-Match naming the ETag it sent", async () => {
    const [http] = await both();
    const conditional = simOperationIds.find((id) => simOperations[id].responses.some((r) => r.status === 304));
    expect(conditional).toBeDefined();
    const first = await http.call(conditional!, callOf(conditional!));
    expect(first.status).toBe(200);
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^".+"$/);
    const again = await http.call(conditional!, {
      ...callOf(conditional!),
      headers: { ...callOf(conditional!).headers, "If-None-Match": etag },
    });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
  });

  it("reads a 40 kB query string over HTTP and answers the contract's 422, not Node's 431", async () => {
    const [http, msw] = await both();
    const call: Call = { query: { scope_id: "s1", cursor: "x".repeat(40_000) } };
    const [a, b] = [await http.call("list_operations", call), await msw.call("list_operations", call)];
    expect(a.status).toBe(422);
    expect(comparable(a)).toEqual(comparable(b));
  });
});
