import { isoTime, systemClock, type Clock } from "./clock.js";
import { createControls, type SimulatorControls } from "./controls.js";
import { SimError, invalidRequest } from "./errors.js";
import { FaultInjector } from "./faults.js";
import { FlushEngine, type FlushTiming } from "./flush.js";
import { createInspector, type SimulatorInspector } from "./inspect.js";
import { MemoryStore } from "./memory.js";
import { ScopeStore } from "./scopes.js";
import { operationHandlers } from "./operation-handlers.js";
import {
  authenticatesPrincipal,
  declaredStatuses,
  isSimOperationId,
  simOperations,
  type SimOperationId,
} from "./contract/operation-table.js";
import { checkJsonSyntax, checkParameters, checkPrecondition, flatRequest } from "./contract/request-check.js";
import { authorize } from "./access/layer.js";
import { AccessControl } from "./access/decide.js";
import { AfterAccess } from "./access/after.js";
import { BindingIndex } from "./access/bindings.js";
import { accessFacts } from "./access/facts.js";
import { OwnerLedger } from "./access/owners.js";
import { checkRefusals } from "./contract/refusals.js";
import {
  checkAccessRules,
  checkBodyBranch,
  checkFirstRules,
  checkRuntimeRules,
  keptRequest,
} from "./contract/model-rules.js";
import { refusalFacts, type InferenceMode } from "./refusal-facts.js";
import { OverrideTable, type OverrideHandler } from "./overrides.js";
import { Responder } from "./responder/responder.js";
import { AnswerFacts } from "./responder/answer-facts.js";
import { pinnedHeaders } from "./responder/declared-headers.js";
import { OperationStore } from "./operations.js";
import { PrincipalRegistry, defaultPrincipals, type PrincipalConfig } from "./access/principals.js";
import { SeededRandom } from "./random.js";
import { SourceStore } from "./sources.js";
import { SubjectSources } from "./subject-sources.js";
import { Handoffs } from "./handoffs.js";
import { Prompts } from "./prompts.js";
import { ResourceEngine } from "./resources/engine.js";
import { ResourceWriter } from "./resources/writer.js";
import { trackArtifactLineage } from "./artifacts.js";
import { trackHandoffWrites } from "./handoff-writes.js";
import { AccessLedger, BINDING } from "./access/ledger.js";
import { trackArtifactTags } from "./tags.js";
import { trackCandidateReview } from "./candidate-review.js";
import { trackProfilePolicy } from "./profile-policy.js";
import { createSkillDomain } from "./skills/index.js";
import { trackScopeHierarchy } from "./scope-hierarchy.js";
import { AtomicLifecycle } from "./atomic-lifecycle.js";
import { shaped } from "./resources/project.js";
import { checkAnchor, checkAnchorFirst } from "./resources/anchor.js";
import { ServerValues } from "./resources/records.js";
import { ResourceStore } from "./resources/store.js";
import { cursorKey } from "./resources/cursor.js";
import type { SimulatorState } from "./state.js";
import { TopicMemory, type TopicTiming } from "./topic-memory.js";
import { MAX_BODY_DEPTH, nestsDeeperThan } from "./nesting.js";
import { BODY_TOO_LARGE, type HandlerResult, type SimOutcome, type SimRequest } from "./types.js";

/** Options of {@link createPowerContextSimulator}; every field is optional. */
export interface SimulatorOptions {
  /** Time source. Default {@link systemClock}; pass a `ManualClock` for deterministic tests. */
  readonly clock?: Clock;
  /** Seed of every server-assigned id: an integer from 0 to 2^32 - 1 (`MAX_SEED`). Default 1. */
  readonly seed?: number;
  /** Bearer tokens, their principals and role bindings. Default {@link defaultPrincipals}. */
  readonly principals?: PrincipalConfig;
  /** How long (ms) a flush waits for its work before answering 202. Default 1000. */
  readonly waitBudgetMs?: number;
  /** Flush work timing in ms: `queuedMs` (default 100) and `runningMs` (default 400). */
  readonly flushTiming?: Partial<Pick<FlushTiming, "queuedMs" | "runningMs">>;
  /** Topic Memory processing tunables (attempt duration 100 ms, window 2, 3 requests and 20,000 tokens per attempt). */
  readonly topicTiming?: Partial<TopicTiming>;
  /**
   * Scope ids that exist from the start, beside the default Scope (whose id is
   * drawn from the seed). Every other scope id is `404 scope_not_found`, as on
   * the released server. Default none.
   */
  readonly scopes?: readonly string[];
  /**
   * Whether the simulated server has an inference model. `on` (default): flush,
   * Topic Memory processing and generation work. `off`: what a default 1.4.1
   * install without a model answers, from the contract's `x-powercontext-refusals`
   * (a flush with pending Sources `503 inference_unavailable`, Topic Memory
   * `503 topic_memory_processing_unavailable`, generation `503
   * generation_unavailable`, ...), and Topic Memory processing starts disabled.
   */
  readonly inference?: InferenceMode;
}

/** A running simulator of the PowerContext contract (packages/msw/README.md). */
export interface PowerContextSimulator {
  /**
   * Handles one request of `operationId` and returns its outcome: a response
   * (status, headers with `X-PowerContext-Request-ID`, JSON body, optional
   * delay or malformed bytes) or a dropped connection. Synchronous: calls are
   * serialized, so concurrent requests behave like the server's locked
   * transactions. Contract errors become envelopes; an unexpected failure
   * becomes `500 internal_error` without detail. A body nested deeper than
   * `MAX_BODY_DEPTH` (256) levels is `422 invalid_request`; the
   * `BODY_TOO_LARGE` marker is `413 request_too_large` (no state change, no
   * fault consumed).
   * @throws Error when `operationId` is not an operation of the contract
   */
  handle(operationId: string, request?: SimRequest): SimOutcome;
  /**
   * Answers every request of `operationId` with `handler` (after credentials,
   * access and request validation), until the returned function is called.
   * The handler must return a status the operation declares with a body its
   * schema allows for that status: anything else does not compile.
   * @throws Error when `operationId` is not an operation of the contract
   */
  override<K extends SimOperationId>(operationId: K, handler: OverrideHandler<K>): () => void;
  /** Removes every override. */
  clearOverrides(): void;
  /** Scenario levers (faults, failures, budgets, time). */
  readonly controls: SimulatorControls;
  /** Read-only views for tests. */
  readonly inspect: SimulatorInspector;
  /** The clock the simulator reads. */
  readonly clock: Clock;
  /**
   * True when `token` (without the `Bearer ` prefix) is one of the principals'
   * tokens: what every operation that needs a credential checks first. The HTTP
   * server asks it before answering a path or method no operation has.
   */
  authenticates(token: string | null | undefined): boolean;
}

/**
 * Builds a simulator: Sources, Memory, Operations with flush windows, Topic
 * Memory processing with blocks and receipts, principals and faults, all in
 * memory and free of any HTTP library.
 */
export function createPowerContextSimulator(options: SimulatorOptions = {}): PowerContextSimulator {
  const clock = options.clock ?? systemClock;
  const random = new SeededRandom(options.seed ?? 1);
  const registry = new PrincipalRegistry(options.principals ?? defaultPrincipals);
  const faults = new FaultInjector();
  const timing: FlushTiming = {
    queuedMs: options.flushTiming?.queuedMs ?? 100,
    runningMs: options.flushTiming?.runningMs ?? 400,
    waitBudgetMs: options.waitBudgetMs ?? 1000,
  };
  const seed = options.seed ?? 1;
  const store = new ResourceStore();
  const values = new ServerValues(random, () => clock.now());
  const background = new ServerValues(SeededRandom.stream(seed, "background"), () => clock.now());
  const writer = new ResourceWriter({ store, values, background });
  const engine = new ResourceEngine({ store, writer, values, seed });
  // The owner relation hooks the owned resources before any domain module does.
  const owners = new OwnerLedger(writer);
  const bindings = new BindingIndex(writer, BINDING);
  const access = new AccessLedger(
    writer,
    registry.staticPrincipal()?.wire() ?? null,
    new ServerValues(SeededRandom.stream(seed, "access-ledger"), () => clock.now()),
  );
  access.bindServerRoles();
  const control = new AccessControl({ bindings, owners, ledger: access, now: () => clock.now() });
  const after = new AfterAccess({ control, store, now: () => clock.now() });
  const scopes = new ScopeStore(store, writer, random);
  for (const scopeId of options.scopes ?? []) scopes.add(scopeId, { title: scopeId, summary: `Scope ${scopeId}` });
  const sources = new SourceStore(store, writer);
  trackArtifactLineage(writer, values);
  trackHandoffWrites(writer, store);
  trackArtifactTags(writer);
  trackCandidateReview(writer);
  trackProfilePolicy(writer);
  trackScopeHierarchy(writer, scopes);
  const memory = new MemoryStore(writer, cursorKey(seed));
  const operations = new OperationStore(random, cursorKey(seed));
  const inference = options.inference ?? "on";
  if (inference !== "on" && inference !== "off")
    throw new RangeError(`inference must be "on" or "off", not ${JSON.stringify(inference)}`);
  const state: SimulatorState = {
    store,
    engine,
    access,
    control,
    cursorKey: cursorKey(seed),
    after,
    scopes,
    sources,
    subjects: new SubjectSources(scopes, writer, values),
    handoffs: new Handoffs(writer, sources),
    prompts: new Prompts(writer, inference === "on"),
    memory,
    lifecycle: new AtomicLifecycle(
      writer,
      () => clock.now(),
      (prefix) => values.id(prefix),
    ),
    operations,
    flush: new FlushEngine(operations, sources, memory, timing),
    topic: new TopicMemory(sources, SeededRandom.stream(seed, "topic-memory"), {
      attemptMs: 100,
      windowSize: 2,
      requestsPerAttempt: 3,
      tokensPerAttempt: 20_000,
      ...options.topicTiming,
    }),
    skills: createSkillDomain(store, writer, SeededRandom.stream(seed, "skills"), () => clock.now()),
    extraction: { since: isoTime(clock.now()), lastFailure: null },
    ready: true,
    requests: 0,
  };
  // Every new Source, captured or journaled, is work for Topic Memory processing.
  writer.onWrite("source", {
    after: (_record, context) => state.topic.noteSource(String(context.keys[0]), clock.now()),
  });

  // Without a model the release never processes Topic Memory: a Scope's status stays pending.
  if (inference === "off") state.topic.enabled = false;
  const facts = refusalFacts(state, inference, () => clock.now());
  const overrides = new OverrideTable();
  const responder = new Responder(options.seed ?? 1);
  const answered = new AnswerFacts(seed);

  /**
   * One request through the contract layer, in the released server's order
   * (docs/compatibility.md, "Validation"; docs/adr/0026-access-model.md):
   * credentials (401), nesting depth, the JSON syntax of a JSON body (422
   * `invalid_request`), the access layer (`x-powercontext-access`: the body read as
   * the request model, the resolver's targets, their ids and families, 422
   * `invalid_access_request`; the decisions, 403 `forbidden`), the parameters
   * (422/400 `invalid_request`), the contract's refusals (`x-powercontext-refusals`:
   * legacy operations, no inference model, an old Dream contract), a missing
   * precondition (428), then an override; else the anchor check (an unknown Scope
   * the request names is `404 scope_not_found`), the checks after access
   * (`x-powercontext-access-after`), then the domain handler, the resource engine
   * or the deterministic responder, with the answer's contract facts
   * (`x-powercontext-answer`) set over it. Every refusal keeps the release's status,
   * declared by the operation or not.
   */
  function run(operationId: SimOperationId, request: SimRequest, nowMs: number, requestId: string): HandlerResult {
    try {
      const op = simOperations[operationId];
      const principal = authenticatesPrincipal(op) ? registry.authenticate(request.token) : null;
      const cause = { operation: operationId, caller: principal?.wire() ?? null, requestId };
      owners.begin(principal?.key ?? null, accessFacts.owners[operationId]?.inherit ?? null);
      if (nestsDeeperThan(request.body, MAX_BODY_DEPTH))
        throw invalidRequest("body", `nests deeper than ${MAX_BODY_DEPTH} levels`);
      checkJsonSyntax(op, request);
      const payload =
        principal !== null && op.access !== null ? authorize(op, request, principal, control, cause) : null;
      checkParameters(op, request);
      const flat = flatRequest(op, request);
      checkAccessRules(op, flat, nowMs);
      // The release looks the Scope a request body names up before its handler runs
      // (the anchor's `first` member); other lookups are the handler's or its service's.
      checkAnchorFirst(op, flat, store);
      checkRefusals(op, flat, facts, request.headers, "handler");
      // The branches whose rules the handler checks as it maps the request to its models come next.
      checkFirstRules(op, flat, nowMs);
      checkPrecondition(op, request);
      // Where the handler finds its records and passes the checks after access
      // (x-powercontext-access-after) before it builds the domain models the runtime
      // rules stand for (x-powercontext-rule-answer `after: access`), they come first.
      const accessFirst = principal !== null && payload !== null && op.rulesAfterAccess;
      if (accessFirst) {
        checkAnchor(op, flat, store);
        after.begin(operationId, payload, principal, cause);
      }
      checkBodyBranch(op, request.body, flat);
      checkRuntimeRules(op, flat, nowMs);
      checkRefusals(op, flat, facts, request.headers, "service");
      request = keptRequest(op, request, flat);
      const override = overrides.get(operationId);
      if (override !== undefined) {
        const answer = override(request);
        if (!declaredStatuses(op).includes(answer.status))
          throw new Error(`${operationId} does not declare ${answer.status}`);
        const media = op.responses.find((r) => r.status === answer.status);
        const textual = typeof answer.body === "string" || answer.body instanceof Uint8Array;
        return {
          status: answer.status,
          body: answer.body ?? null,
          headers: answer.headers,
          ...(textual && media?.mediaType ? { contentType: media.mediaType } : {}),
        };
      }
      if (!accessFirst) {
        checkAnchor(op, flatRequest(op, request), store);
        if (principal !== null && payload !== null) after.begin(operationId, payload, principal, cause);
      }
      checkRefusals(op, flatRequest(op, request), facts, request.headers, "after-scope");
      const stateful = operationHandlers[operationId];
      if (stateful !== undefined)
        return answered.apply(op, request, shaped(op, stateful(state, principal, request, nowMs), seed));
      if (engine.serves(op)) return answered.apply(op, request, engine.handle(op, request, cause));
      return answered.apply(op, request, responder.answer(operationId, op, request));
    } catch (error) {
      if (error instanceof SimError) return { status: error.status, body: error.toEnvelope(), headers: error.headers };
      return { status: 500, body: new SimError(500, "internal_error", "The Server failed.").toEnvelope() };
    } finally {
      owners.begin(null);
      after.end();
    }
  }

  function handle(operationId: string, request: SimRequest = {}): SimOutcome {
    if (!isSimOperationId(operationId)) throw new Error(`unknown operation ${operationId}`);
    state.requests += 1;
    const requestId = `req_${(options.seed ?? 1).toString(36)}_${state.requests.toString(16).padStart(6, "0")}`;
    if (request.body === BODY_TOO_LARGE) {
      // Refused in front of everything else, as the released server's body limit is: no state, no fault.
      const error = new SimError(413, "request_too_large", "The request body exceeds the size limit.");
      return { status: 413, headers: { "X-PowerContext-Request-ID": requestId }, body: error.toEnvelope(), delayMs: 0 };
    }
    const nowMs = clock.now();
    state.flush.advance(nowMs);
    state.topic.advance(nowMs);
    const fault = faults.take(operationId);
    if (fault?.type === "reset" && fault.when === "before") return { fault: "reset", delayMs: 0 };
    let result: HandlerResult;
    if (fault?.type === "status") {
      const retryAfter = String(fault.retryAfterS ?? 1);
      const error =
        fault.status === 429
          ? new SimError(429, "rate_limited", "The rate limit was reached.", null, { "Retry-After": retryAfter })
          : new SimError(503, "unavailable", "The service is unavailable right now.", null, {
              "Retry-After": retryAfter,
            });
      result = { status: error.status, body: error.toEnvelope(), headers: error.headers };
    } else {
      result = run(operationId, request, nowMs, requestId);
    }
    if (fault?.type === "reset") return { fault: "reset", delayMs: 0 };
    // The headers the contract pins for the status (Cache-Control, digests) come with every answer; the handler's own win.
    const headers = {
      ...pinnedHeaders(operationId, simOperations[operationId], result.status, options.seed ?? 1),
      ...result.headers,
      "X-PowerContext-Request-ID": requestId,
    };
    const response = {
      status: result.status,
      headers,
      body: result.body,
      delayMs: fault?.type === "delay" ? fault.ms : 0,
      ...(result.contentType === undefined ? {} : { contentType: result.contentType }),
    };
    if (fault?.type === "malformed") {
      const text = typeof result.body === "string" ? result.body : JSON.stringify(result.body ?? {});
      return { ...response, rawBody: text.slice(0, Math.max(1, Math.floor(text.length / 2))) };
    }
    return response;
  }

  return {
    handle,
    override(operationId, handler) {
      if (!isSimOperationId(operationId)) throw new Error(`unknown operation ${String(operationId)}`);
      return overrides.set(operationId, handler);
    },
    clearOverrides: () => overrides.clear(),
    controls: createControls(state, { clock, faults, timing, random }),
    inspect: createInspector(state),
    clock,
    authenticates: (token) => registry.find(token) !== undefined,
  };
}
