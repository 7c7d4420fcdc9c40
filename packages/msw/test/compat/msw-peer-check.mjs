// Runs the built @powercontext/msw against whichever msw the folder it is copied into
// resolves (scripts/ci/msw-peer.sh installs msw 3 there and runs this with Node 22).
// Exits non-zero, naming the check, when one fails.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { setupServer } from "msw/node";
import { createPowerContextHandlers, createPowerContextSimulator } from "@powercontext/msw";
import { startMockServer } from "@powercontext/msw/server";

const mswVersion = createRequire(import.meta.url)("msw/package.json").version;
const expected = process.env.EXPECT_MSW_MAJOR;
if (expected) assert.equal(mswVersion.split(".")[0], expected, `msw ${mswVersion} is not major ${expected}`);

const admin = { authorization: "Bearer pc-admin", "content-type": "application/json" };
const base = "http://pc.peer.test";
const sim = createPowerContextSimulator({ seed: 3, scopes: ["team"] });
const server = setupServer(...createPowerContextHandlers(sim, { baseUrl: base }));
server.listen({ onUnhandledRequest: "error" });
try {
  assert.equal((await fetch(`${base}/health/live`)).status, 200, "liveness through setupServer");
  const scope = await fetch(`${base}/v1/scopes/team`, { headers: admin });
  assert.equal(scope.status, 200, "a responder operation through setupServer");
  assert.ok((await scope.json()).scope_id, "the responder body");
  assert.equal((await fetch(`${base}/v1/scopes/team`)).status, 401, "no token");
  const bad = await fetch(`${base}/v1/memory/flush`, { method: "POST", headers: admin, body: "{" });
  assert.equal(bad.status, 422, "invalid JSON through setupServer");
  sim.controls.injectFault({ operationId: "get_liveness", action: { type: "reset", when: "before" } });
  await assert.rejects(fetch(`${base}/health/live`), "a reset is a network error");
} finally {
  server.close();
}

const http = await startMockServer({ seed: 3 });
try {
  const bad = await fetch(`${http.url}/v1/memory/flush`, { method: "POST", headers: admin, body: "{" });
  assert.equal(bad.status, 422, "invalid JSON over HTTP (getResponse)");
  http.simulator.controls.injectFault({ operationId: "get_liveness", action: { type: "reset", when: "before" } });
  await assert.rejects(fetch(`${http.url}/health/live`), "a reset drops the socket");
  assert.equal((await fetch(`${http.url}/health/live`)).status, 200, "the server still answers");
} finally {
  await http.close();
}
console.log(`msw-peer: msw ${mswVersion} on Node ${process.versions.node}: handlers and HTTP server ok`);
