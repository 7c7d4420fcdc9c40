// Our contract and SDK against the released PowerContext server (PyPI powercontext
// 1.4.1, started from the venv that scripts/ci/python-env.sh makes).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContractValidators } from "../support/contract-validators.js";
import {
  BodyValidator,
  compareOperations,
  formatDifferences,
  isAllowed,
  parseAllowList,
  type OpenApiDocument,
} from "./openapi.js";
import { UNKNOWN_ID, camelCase, rawCall, recipes } from "./recipes.js";
import { startRealServer, type RealServer } from "./server.js";
import { checkAll, checkFile, pythonTools, repoRoot, requireTools, tryImport } from "./tools.js";

const oursPath = join(repoRoot, "openapi.yaml");
const compatibilityPath = join(repoRoot, "docs", "compatibility.md");

const enabled = requireTools(
  "test/real/server.test.ts",
  checkAll(pythonTools(), checkFile(oursPath, "our contract, written in this repository")),
);

// The SDK surface these tests rely on (see docs/compatibility.md, "What the tests assume").
interface SdkError extends Error {
  readonly statusCode?: number;
  readonly code?: string | null;
  readonly requestId?: string | null;
}
interface SdkModule {
  PowerContextClient: new (options: {
    baseUrl: string;
    token?: string;
    fetch?: typeof fetch;
    maxRetries?: number;
  }) => Record<string, (request?: unknown) => Promise<unknown>>;
  ServerResponseError: new (...args: never[]) => SdkError;
  InvalidRequestError: new (...args: never[]) => SdkError;
  InvalidResponseError: new (...args: never[]) => SdkError;
}

function allowList() {
  return existsSync(compatibilityPath) ? parseAllowList(readFileSync(compatibilityPath, "utf8")) : [];
}

/** The release's request ids are 16 hex digits (docs/compatibility.md, "The release under test"). */
const RELEASE_REQUEST_ID = /^[0-9a-f]{16}$/;

type KeptOutcome =
  | { readonly error: "InvalidResponseError" }
  | { readonly error: "ServerResponseError"; readonly status: number; readonly code: string };

/**
 * The Memory operations whose 0.0.2 shapes our contract keeps while 1.4.1 moved them onto
 * Atomic Memory records (docs/compatibility.md, "Kept on purpose"). For each, the exact
 * outcome the SDK produces when it sends the recipe request to the release: a 200 the SDK
 * refuses as InvalidResponseError, or the release's own refusal of the 0.0.2 request.
 * Every other shared operation must end in a validated success or a declared error status.
 */
const KEPT_SHAPE_OUTCOMES: Readonly<Record<string, KeptOutcome>> = {
  list_memory_entries: { error: "InvalidResponseError" },
  remember_memory: { error: "InvalidResponseError" },
  search_memory: { error: "InvalidResponseError" },
  // 1.4.1 refuses a 0.0.2 citation read outright: 422 legacy_memory_operation_unsupported
  get_memory_entry: { error: "ServerResponseError", status: 422, code: "legacy_memory_operation_unsupported" },
};

/** The reason column of an accepted row starts with one of these (no row is left "open"). */
const ACCEPTED_KINDS = ["kept: seed", "kept: 0.0.2", "kept: retry policy"] as const;

/** docs/compatibility.md accepts that the release's live answer for (operation, status) breaks our schema. */
function liveMismatchAccepted(operationId: string, status: number): boolean {
  return isAllowed({ operationId, aspect: `live-${status}`, ours: "", release: "" }, allowList());
}

describe.skipIf(!enabled)("released PowerContext server 1.4.1", () => {
  let server: RealServer;
  let release: OpenApiDocument;
  let ours: OpenApiDocument;
  let oursValidator: BodyValidator;
  let scopeId: string;
  /** a Scope created for the test that never receives a Source */
  let emptyScopeId: string;

  beforeAll(async () => {
    server = await startRealServer({ auth: true });
    const document = await fetch(`${server.baseUrl}/openapi.json`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(document.status).toBe(200);
    release = (await document.json()) as OpenApiDocument;
    const contract = await loadContractValidators(oursPath);
    ours = contract.document as OpenApiDocument;
    oursValidator = new BodyValidator(contract);
    const scope = await fetch(`${server.baseUrl}/v1/scopes/default`, {
      headers: { authorization: `Bearer ${server.token}` },
    });
    expect(scope.status).toBe(200);
    scopeId = ((await scope.json()) as { scope_id: string }).scope_id;
    const created = await fetch(`${server.baseUrl}/v1/scopes`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "Empty", summary: "A Scope that never receives a Source.", idempotency_key: "real-empty-scope" }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    emptyScopeId = ((await created.json()) as { scope_id: string }).scope_id;
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it("serves its OpenAPI 3.0 document at /openapi.json, behind the bearer token", async () => {
    expect(release.openapi).toMatch(/^3\.0\./);
    expect((release.info as { version: string }).version).toBe("1.4.1");
    const anonymous = await fetch(`${server.baseUrl}/openapi.json`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({
      error: { code: "unauthorized", message: expect.any(String), details: null },
    });
  });

  it("differs from our contract only where docs/compatibility.md says so", () => {
    const { shared, onlyOurs, onlyRelease, differences } = compareOperations(ours, release);
    const allow = allowList();
    const unexplained = differences.filter((d) => !isAllowed(d, allow));
    const stale = allow.filter(
      (a) => a.operationId !== "*" && !a.aspect.startsWith("live") &&
        !differences.some((d) => isAllowed(d, [a])),
    );
    console.log(
      [
        `contract comparison: ${shared.length} shared operations, ${onlyOurs.length} only ours, ${onlyRelease.length} only in the release`,
        `only ours: ${onlyOurs.join(", ") || "(none)"}`,
        `differences (${differences.length}, ${unexplained.length} not accepted):`,
        formatDifferences(differences),
        stale.length ? `accepted rows that no longer match anything: ${stale.map((s) => `${s.operationId} [${s.aspect}]`).join(", ")}` : "",
      ].join("\n"),
    );
    expect(shared.length).toBeGreaterThan(0);
    expect(unexplained, `not accepted in docs/compatibility.md:\n${formatDifferences(unexplained)}`).toEqual([]);
    expect(stale.map((s) => `${s.operationId} [${s.aspect}]`), "accepted rows that match no difference (remove them)").toEqual([]);
    const undecided = allow.filter((a) => !ACCEPTED_KINDS.some((k) => a.reason.startsWith(k)));
    expect(undecided.map((a) => `${a.operationId} [${a.aspect}]: ${a.reason}`), `every accepted row is one of ${ACCEPTED_KINDS.join(", ")}`).toEqual([]);
    // the operations kept in their 0.0.2 shape are exactly those with a kept 0.0.2 row
    const keptOps = new Set(allow.filter((a) => a.reason.startsWith("kept: 0.0.2")).map((a) => a.operationId));
    expect([...keptOps].sort()).toEqual(Object.keys(KEPT_SHAPE_OUTCOMES).sort());
  });

  it("accepts the release's additions to flush_memory and get_capabilities (optional members in our contract)", async () => {
    const call = (id: string, request: Record<string, unknown>) =>
      rawCall(server.baseUrl, oursValidator.operation(id)!, request, { token: server.token });
    // nothing was captured in this Scope, so the release answers 200 without inference
    const flushed = await call("flush_memory", { scope_id: emptyScopeId });
    expect(flushed.status, flushed.text).toBe(200);
    expect(flushed.body).toMatchObject({ status: "idle", remaining_work: false, held_count: 0, hold_codes: [] });
    expect(oursValidator.validateResponse("flush_memory", 200, flushed.body)).toBeNull();
    expect(liveMismatchAccepted("flush_memory", 200)).toBe(false);

    const capabilities = await call("get_capabilities", {});
    expect(capabilities.status, capabilities.text).toBe(200);
    expect(capabilities.body).toMatchObject({ prompts: expect.any(Object), artifact_dreaming: expect.any(Boolean), extraction: expect.anything() });
    expect(oursValidator.validateResponse("get_capabilities", 200, capabilities.body)).toBeNull();
    expect(liveMismatchAccepted("get_capabilities", 200)).toBe(false);
  });

  it("answers every shared operation (raw HTTP) with a declared status and a body valid against our contract", async () => {
    const { shared } = compareOperations(ours, release);
    const problems: string[] = [];
    const seen: string[] = [];
    const liveRowsUsed = new Set<string>();
    for (const id of shared) {
      const recipe = recipes[id];
      const op = oursValidator.operation(id)!;
      if (!recipe) {
        problems.push(`${id}: no request recipe in test/real/recipes.ts`);
        continue;
      }
      const result = await rawCall(server.baseUrl, op, recipe({ scopeId }), { token: server.token });
      seen.push(`${id} -> ${result.status}${result.status >= 400 ? ` ${(result.body as { error?: { code?: string } })?.error?.code}` : ""}`);
      const declared = [...op.successStatuses, ...op.errorStatuses];
      const problem = !declared.includes(result.status)
        ? `undeclared status ${result.status}: ${result.text.slice(0, 200)}`
        : oursValidator.validateResponse(id, result.status, result.body);
      if (problem && !liveMismatchAccepted(id, result.status)) {
        problems.push(`${id}: ${problem}`);
      } else if (problem) {
        liveRowsUsed.add(`${id} live-${result.status}`);
      }
      if (!result.requestId && id !== "get_liveness" && id !== "get_readiness") {
        problems.push(`${id}: no X-PowerContext-Request-ID header`);
      }
    }
    console.log(`live answers:\n  ${seen.join("\n  ")}`);
    for (const row of allowList().filter((a) => a.aspect.startsWith("live-"))) {
      if (!liveRowsUsed.has(`${row.operationId} ${row.aspect}`)) {
        problems.push(`${row.operationId} [${row.aspect}]: accepted in docs/compatibility.md but the live answer is valid (remove the row)`);
      }
    }
    expect(problems, problems.join("\n")).toEqual([]);
  }, 120_000);

  it("raw HTTP flow: capture, remember, search, flush, capabilities, 401, 404, 422", async () => {
    const call = (id: string, request: Record<string, unknown>, token: string | undefined = server.token, body?: string) =>
      rawCall(server.baseUrl, oursValidator.operation(id)!, request, { token, body });

    const captured = await call("capture_content_source", {
      scope_id: scopeId,
      source_id: "flow-source-1",
      content: "The staging database is rebuilt every night at 02:00.",
    });
    expect(captured.status, captured.text).toBe(202);
    expect(captured.body).toMatchObject({ status: "accepted", source: { source_id: "flow-source-1" } });

    const valid = (id: string, status: number, body: unknown) =>
      liveMismatchAccepted(id, status) ? null : oursValidator.validateResponse(id, status, body);

    const remembered = await call("remember_memory", { scope_id: scopeId, kind: "fact", text: "Staging is rebuilt nightly." });
    expect(remembered.status, remembered.text).toBe(200);
    expect(valid("remember_memory", 200, remembered.body)).toBeNull();

    const searched = await call("search_memory", { scope_id: scopeId, query: "staging" });
    expect(searched.status, searched.text).toBe(200);
    expect(valid("search_memory", 200, searched.body)).toBeNull();

    // Without a configured inference model the release answers 503 inference_unavailable
    // once Sources are pending; with one it answers 200.
    const flushed = await call("flush_memory", { scope_id: scopeId });
    expect([200, 503], flushed.text).toContain(flushed.status);
    if (flushed.status === 503) expect(flushed.body).toMatchObject({ error: { code: "inference_unavailable" } });
    else expect(valid("flush_memory", 200, flushed.body)).toBeNull();

    const capabilities = await call("get_capabilities", {});
    expect(capabilities.status).toBe(200);

    const anonymous = await call("get_capabilities", {}, "");
    expect(anonymous.status).toBe(401);
    expect(anonymous.requestId).toBeTruthy();
    expect(anonymous.body).toEqual({ error: { code: "unauthorized", message: expect.any(String), details: null } });

    const unknown = await call("get_topic_memory_processing_block", { scope_id: scopeId, block_id: UNKNOWN_ID });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: { code: "topic_memory_block_not_found" } });

    const invalid = await call("flush_memory", {}, server.token, JSON.stringify({ scope_id: scopeId, unexpected: 1 }));
    expect(invalid.status).toBe(422);
    expect(oursValidator.validateResponse("flush_memory", 422, invalid.body)).toBeNull();
  }, 60_000);

  describe("through @powercontext/sdk", () => {
    let sdk: SdkModule | null = null;
    let sdkMissing = "";

    beforeAll(async () => {
      const loaded = await tryImport<SdkModule>("@powercontext/sdk");
      sdk = loaded.module;
      sdkMissing = loaded.error;
    });

    // locally: a loud skip; under CI=true: a failure
    const needSdk = (): SdkModule | null => {
      if (!sdk) requireTools("real server through the SDK", { ok: false, missing: `${sdkMissing} (run: npm start)` });
      return sdk;
    };

    it("every shared operation returns a validated success or a declared ServerResponseError; kept 0.0.2 Memory shapes end as documented", async (ctx) => {
      const m = needSdk();
      if (!m) return ctx.skip();
      const client = new m.PowerContextClient({ baseUrl: server.baseUrl, token: server.token, maxRetries: 0 });
      const { shared } = compareOperations(ours, release);
      const problems: string[] = [];
      const outcomes: string[] = [];
      for (const id of shared) {
        const recipe = recipes[id];
        const op = oursValidator.operation(id)!;
        const method = client[camelCase(id)];
        if (!recipe || typeof method !== "function") {
          problems.push(`${id}: ${recipe ? `client has no method ${camelCase(id)}` : "no recipe"}`);
          continue;
        }
        const kept = KEPT_SHAPE_OUTCOMES[id];
        let error: unknown = null;
        try {
          await method.call(client, recipe({ scopeId }));
        } catch (caught) {
          error = caught;
        }
        const e = error as SdkError | null;
        outcomes.push(`${id} -> ${e ? `${e.name}${e.statusCode ? ` ${e.statusCode}` : ""}${e instanceof m.ServerResponseError ? ` ${e.code}` : ""}` : "success"}`);
        if (kept?.error === "InvalidResponseError") {
          if (!(error instanceof m.InvalidResponseError)) problems.push(`${id}: expected InvalidResponseError (0.0.2 shape kept), got ${e ? `${e.name}: ${e.message}` : "a success"}`);
          else if (!RELEASE_REQUEST_ID.test(e!.requestId ?? "")) problems.push(`${id}: InvalidResponseError without the release's request id (${String(e!.requestId)})`);
          else if (e!.statusCode !== 200) problems.push(`${id}: InvalidResponseError for status ${String(e!.statusCode)}, expected 200`);
          continue;
        }
        if (kept?.error === "ServerResponseError") {
          if (!(error instanceof m.ServerResponseError) || e!.statusCode !== kept.status || e!.code !== kept.code) {
            problems.push(`${id}: expected ServerResponseError ${kept.status} ${kept.code}, got ${e ? `${e.name} ${String(e.statusCode)} ${String(e.code)}: ${e.message}` : "a success"}`);
          } else if (!RELEASE_REQUEST_ID.test(e!.requestId ?? "")) problems.push(`${id}: ServerResponseError without the release's request id`);
          continue;
        }
        if (error === null) continue;
        if (error instanceof m.ServerResponseError && op.errorStatuses.includes(e!.statusCode ?? -1)) {
          if (!RELEASE_REQUEST_ID.test(e!.requestId ?? "")) problems.push(`${id}: ServerResponseError ${String(e!.statusCode)} without the release's request id`);
          continue;
        }
        problems.push(`${id}: ${e!.name}: ${e!.message}`);
      }
      console.log(`SDK outcomes:\n  ${outcomes.join("\n  ")}`);
      expect(problems, problems.join("\n")).toEqual([]);
    }, 180_000);

    it("scripted flow: capture, remember, search, flush, capabilities, 401, 404, invalid request", async (ctx) => {
      const m = needSdk();
      if (!m) return ctx.skip();
      let sent = 0;
      const counting: typeof fetch = (input, init) => {
        sent += 1;
        return fetch(input, init);
      };
      const client = new m.PowerContextClient({ baseUrl: server.baseUrl, token: server.token, fetch: counting });

      const captured = (await client.captureContentSource!({
        scope_id: scopeId,
        source_id: "sdk-flow-source-1",
        content: "Feature flags are read from the flags service at startup.",
      })) as { status: string };
      expect(captured.status).toBe("accepted");

      // 1.4.1 answers these with Atomic Memory records; our contract keeps the 0.0.2
      // shapes, so the SDK refuses the bodies with InvalidResponseError (never passes them on).
      const refused = async (id: string, request: unknown) => {
        const error = await client[camelCase(id)]!(request).then(
          (value) => new Error(`${id}: expected InvalidResponseError, got a success: ${JSON.stringify(value).slice(0, 200)}`),
          (e: unknown) => e,
        );
        expect(error, id).toBeInstanceOf(m.InvalidResponseError);
        expect((error as SdkError).statusCode, id).toBe(200);
        expect((error as SdkError).requestId, id).toMatch(RELEASE_REQUEST_ID);
      };
      await refused("remember_memory", { scope_id: scopeId, kind: "fact", text: "Flags load at startup." });
      await refused("search_memory", { scope_id: scopeId, query: "flags" });
      await refused("list_memory_entries", { scope_id: scopeId });

      // The test server runs without an inference model, so a window with pending Sources is refused.
      const flushError = await client.flushMemory!({ scope_id: scopeId }).catch((error: unknown) => error);
      expect(flushError).toBeInstanceOf(m.ServerResponseError);
      expect((flushError as SdkError).statusCode).toBe(503);
      expect((flushError as SdkError).code).toBe("inference_unavailable");

      const empty = (await client.flushMemory!({ scope_id: emptyScopeId })) as Record<string, unknown>;
      expect(empty).toMatchObject({ status: "idle", processed_source_count: 0, remaining_work: false, held_count: 0, hold_codes: [] });

      const capabilities = (await client.getCapabilities!()) as Record<string, unknown>;
      expect(capabilities).toMatchObject({ source_types: expect.any(Array), prompts: expect.any(Object), extraction: expect.anything() });

      const anonymous = new m.PowerContextClient({ baseUrl: server.baseUrl });
      const unauthorized = await anonymous.getCapabilities!().catch((e: unknown) => e);
      expect(unauthorized).toBeInstanceOf(m.ServerResponseError);
      expect((unauthorized as SdkError).statusCode).toBe(401);
      expect((unauthorized as SdkError).code).toBe("unauthorized");
      expect((unauthorized as SdkError).requestId).toMatch(/\S/);

      const missing = await client
        .getTopicMemoryProcessingBlock!({ scope_id: scopeId, block_id: UNKNOWN_ID })
        .catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(m.ServerResponseError);
      expect((missing as SdkError).statusCode).toBe(404);
      expect((missing as SdkError).code).toBe("topic_memory_block_not_found");

      const before = sent;
      const invalid = await client.flushMemory!({ scope_id: scopeId, unexpected: 1 }).catch((e: unknown) => e);
      expect(invalid).toBeInstanceOf(m.InvalidRequestError);
      expect(sent, "an invalid request must not be sent").toBe(before);
    }, 120_000);
  });
});
