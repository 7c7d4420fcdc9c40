// A vitest test of the application: the client talks to the msw handlers of the
// installed @powercontext/msw, with the single msw copy the application installed.
import { createPowerContextHandlers, createPowerContextSimulator } from "@powercontext/msw";
import { PowerContextClient } from "@powercontext/sdk";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, expect, it } from "vitest";

const baseUrl = "http://127.0.0.1:8787";
const simulator = createPowerContextSimulator({ seed: 1 });
const server = setupServer(...createPowerContextHandlers(simulator, { baseUrl }));

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

it("captures a Source through the msw handlers", async () => {
  // msw intercepts the global fetch, not undici's dispatcher (the SDK's default on Node):
  // the client goes through the fetch adapter, reading the global at call time.
  const client = new PowerContextClient({ baseUrl, token: "pc-writer", fetch: (url, init) => fetch(url, init) });
  const { scope_id } = await client.getDefaultScope();
  const captured = await client.captureContentSource({ scope_id, source_id: "s-1", content: "intercepted" });
  expect(captured.source.source_id).toBe("s-1");
  expect(simulator.inspect.requestCount()).toBe(2);
});
