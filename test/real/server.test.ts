// The released PowerContext server (PyPI powercontext 1.4.1, loopback, SQLite, auth on)
// beside our contract. Every operation is called through both clients in
// test/parity/recipes-real.test.ts and the wire structure is compared with the installed
// package in test/contract/wire.test.ts; this file checks what those two take for granted:
// that the running server serves the very document the installed package holds, and that
// the release's answers to flush_memory and get_capabilities validate against our schemas.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContractValidators } from "../support/contract-validators.js";
import { BodyValidator } from "./openapi.js";
import { rawCall } from "./raw-call.js";
import { releaseContractPath } from "./release-contract.js";
import { startRealServer, type RealServer } from "./server.js";
import { pythonTools, repoRoot, requireTools, suiteName } from "./tools.js";

const enabled = requireTools(suiteName(import.meta.url), pythonTools());

describe.runIf(enabled)("released PowerContext server 1.4.1", () => {
  let server: RealServer;
  let ours: BodyValidator;

  beforeAll(async () => {
    server = await startRealServer({ auth: true });
    ours = new BodyValidator(await loadContractValidators(join(repoRoot, "openapi.yaml")));
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it("serves at /openapi.json, behind the bearer token, the document of the installed package", async () => {
    const served = await fetch(`${server.baseUrl}/openapi.json`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(served.status).toBe(200);
    const live = (await served.json()) as { openapi: string; info: { version: string } };
    expect(live.info.version).toBe("1.4.1");
    expect(live).toEqual(JSON.parse(readFileSync(releaseContractPath(), "utf8")));
    const anonymous = await fetch(`${server.baseUrl}/openapi.json`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({
      error: { code: "unauthorized", message: expect.any(String), details: null },
    });
  });

  it("answers flush_memory of an empty Scope and get_capabilities with bodies our schemas accept", async () => {
    const call = (id: string, request: Record<string, unknown>) =>
      rawCall(server.baseUrl, ours.operation(id)!, request, { token: server.token });
    const created = await call("create_scope", {
      title: "Empty",
      summary: "A Scope that never receives a Source.",
      idempotency_key: "real-empty-scope",
    });
    expect(created.status, created.text).toBe(201);
    const scopeId = (created.body as { scope_id: string }).scope_id;
    // nothing was captured in this Scope, so the release answers 200 without inference
    const flushed = await call("flush_memory", { scope_id: scopeId });
    expect(flushed.status, flushed.text).toBe(200);
    expect(flushed.body).toMatchObject({ status: "idle", remaining_work: false, held_count: 0, hold_codes: [] });
    expect(ours.validateResponse("flush_memory", 200, flushed.body)).toBeNull();

    const capabilities = await call("get_capabilities", {});
    expect(capabilities.status, capabilities.text).toBe(200);
    expect(capabilities.body).toMatchObject({
      prompts: expect.any(Object),
      artifact_dreaming: expect.any(Boolean),
      extraction: expect.anything(),
    });
    expect(ours.validateResponse("get_capabilities", 200, capabilities.body)).toBeNull();
  });
});
