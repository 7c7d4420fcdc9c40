// The msw handlers and the mock's HTTP server are one pipeline: a slice of the scenarios
// played through msw's setupServer (createPowerContextHandlers, no HTTP server) gets the
// same answers as through startMockServer, given simulators made with the same seed.
import { setupServer } from "msw/node";
import { describe, expect, it } from "vitest";
import { createPowerContextHandlers } from "../../packages/msw/src/handlers/create-handlers.js";
import { startMockServer } from "../../packages/msw/src/server/index.js";
import { createPowerContextSimulator } from "../../packages/msw/src/simulator/simulator.js";
import { loadOurs } from "../contract/documents.js";
import { operationsOf, type OpenApiDocument } from "../real/openapi.js";
import { play, type Observation } from "./play.js";
import { MOCK_ADMIN_TOKEN } from "./run.js";
import { loadScenarios } from "./scenario-format.js";

/** Scopes, Sources and memory through operations (routing cases differ by design: msw only sees declared routes). */
const SLICE = ["credentials", "scope-lifecycle", "scope-validation", "sources", "memory"];
const SEED = 3;
const MSW_BASE = "http://powercontext.msw.test";

const scenarios = () => loadScenarios().filter((s) => SLICE.includes(s.name));
const context = () => ({ operations: operationsOf(loadOurs() as OpenApiDocument) });

async function overHttp(): Promise<Observation[]> {
  const mock = await startMockServer({ simulator: createPowerContextSimulator({ seed: SEED }) });
  try {
    return await play(scenarios(), { name: "mock", baseUrl: mock.url, token: MOCK_ADMIN_TOKEN }, context());
  } finally {
    await mock.close();
  }
}

async function throughMsw(): Promise<Observation[]> {
  const server = setupServer(
    ...createPowerContextHandlers(createPowerContextSimulator({ seed: SEED }), { baseUrl: MSW_BASE }),
  );
  server.listen({ onUnhandledRequest: "error" });
  try {
    return await play(scenarios(), { name: "mock", baseUrl: MSW_BASE, token: MOCK_ADMIN_TOKEN }, context());
  } finally {
    server.close();
  }
}

/**
 * Status, code, media type and the normalised body (assigned ids as placeholders: the
 * seeded ids are not yet stable from run to run, see determinism.test.ts), with the two
 * base URLs made alike.
 */
function view(observation: Observation): unknown {
  const body = JSON.stringify(observation.normalised ?? null)
    .replaceAll(MSW_BASE, "<base>")
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, "<base>");
  return [
    observation.scenario,
    observation.step,
    observation.answer?.status,
    observation.code,
    observation.answer?.contentType,
    JSON.parse(body),
  ];
}

describe("the mock's two faces", () => {
  it("answer a slice of the scenarios alike through setupServer and over HTTP", async () => {
    const http = await overHttp();
    const msw = await throughMsw();
    expect(http.filter((o) => o.answer !== null).length).toBeGreaterThan(40);
    expect(msw.map(view)).toEqual(http.map(view));
  }, 120_000);
});
