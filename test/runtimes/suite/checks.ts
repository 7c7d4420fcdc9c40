/**
 * The runtime conformance suite (docs/runtimes.md): the SDK's promises,
 * checked the same way on Node, Deno, Bun and workerd against the fault front
 * (fault-server.ts) and the mock behind it. Each check names what it holds;
 * the server side counts what arrived, so "sent once" is a count, not a claim.
 */
import {
  AbortError,
  AuthenticationError,
  ConfigurationError,
  NotFoundError,
  PowerContextClient,
  ServerResponseError,
  TimeoutError,
  TransportError,
  ScopeVersionConflictError,
  openTelemetry,
  type ClientOptions,
} from "@powercontext/sdk";
import { arrivals, type Check, expect, NotApplicable, rejection, script, type SuiteContext } from "./harness.js";
import { recordingTracer } from "./tracer.js";

/** The mock's administrator token (every permission). */
const TOKEN = "pc-admin";
const FAST_RETRY = { baseDelayMs: 1, maxDelayMs: 5 };

const REMEMBER = "POST /v1/memory/remember";
const LIVENESS = "GET /health/live";
const SEARCH = "POST /v1/memory/search";
const CAPTURE = "POST /v1/sources/content";

function client(context: SuiteContext, options: Partial<ClientOptions> = {}): PowerContextClient {
  return new PowerContextClient({ baseUrl: context.url, token: TOKEN, retry: FAST_RETRY, ...options });
}

async function defaultScope(context: SuiteContext): Promise<string> {
  return (await client(context).getDefaultScope()).scope_id;
}

/** Optional parts a runtime lane may lack (the Node entry, on workerd). */
export interface SuiteExtras {
  /** Imports `@powercontext/sdk/node`, where the runtime can load it. */
  readonly loadNodeEntry?: () => Promise<{ createNodeTransport: () => Promise<{ close(): Promise<void> }> }>;
}

/** Every check, in the order they run. */
export function conformanceChecks(extras: SuiteExtras = {}): Check[] {
  return [
    {
      name: "call: a GET answers its body",
      async run(context) {
        const body = await client(context).getLiveness();
        expect(body.status === "ok", `unexpected body ${JSON.stringify(body)}`);
      },
    },
    {
      name: "call: a never-resend write is sent once",
      async run(context) {
        const scope = await defaultScope(context);
        await script(context, REMEMBER, []);
        const { data, response } = await client(context)
          .rememberMemory({ scope_id: scope, kind: "decision", text: "sent once" })
          .withResponse();
        const seen = await arrivals(context, REMEMBER);
        expect(data.records[0]?.text === "sent once", "the answer is not the remembered entry");
        expect(
          response.attempts === 1 && seen.arrivals === 1,
          `attempts ${response.attempts}, arrivals ${seen.arrivals}`,
        );
      },
    },
    {
      name: "typed errors: 401 is an AuthenticationError",
      async run(context) {
        const error = await rejection("a call with a wrong token", () =>
          client(context, { token: "not-a-known-token" }).getDefaultScope(),
        );
        expect(error instanceof AuthenticationError && error.statusCode === 401, `got ${String(error)}`);
      },
    },
    {
      name: "typed errors: 404 is a NotFoundError with its code",
      async run(context) {
        const error = await rejection("a missing operation", () =>
          client(context).getOperation({ operation_id: "op_missing" }),
        );
        expect(error instanceof NotFoundError && typeof error.code === "string", `got ${String(error)}`);
      },
    },
    {
      name: "typed errors: a stale update_scope is a ScopeVersionConflictError",
      async run(context) {
        const scope = await defaultScope(context);
        const current = await client(context).getScope({ scope_id: scope });
        const error = await rejection("an update with a stale version", () =>
          client(context).updateScope({
            scope_id: scope,
            expected_version: current.version + 100,
            title: current.title,
            summary: current.summary,
          }),
        );
        expect(
          error instanceof ScopeVersionConflictError && error.details?.current_version === current.version,
          `got ${String(error)}`,
        );
      },
    },
    ...(
      [
        [503, "503"],
        [429, "429"],
      ] as const
    ).map(
      ([status, label]): Check => ({
        name: `retries: a ${label} with Retry-After is retried`,
        async run(context) {
          await script(context, SEARCH, [
            {
              kind: "answer",
              status,
              headers: { "retry-after": "0" },
              body: { error: { code: "busy", message: "busy" } },
            },
          ]);
          const scope = await defaultScope(context);
          const { response } = await client(context).searchMemory({ scope_id: scope, query: "q" }).withResponse();
          const seen = await arrivals(context, SEARCH);
          expect(
            response.attempts === 2 && seen.arrivals === 2,
            `attempts ${response.attempts}, arrivals ${seen.arrivals}`,
          );
        },
      }),
    ),
    {
      name: "retries: a dropped connection of a safe call is retried",
      async run(context) {
        const scope = await defaultScope(context);
        await script(context, SEARCH, [{ kind: "drop" }]);
        const { response } = await client(context).searchMemory({ scope_id: scope, query: "q" }).withResponse();
        const seen = await arrivals(context, SEARCH);
        // Deno's fetch re-sends a safe request on a dropped reused connection by itself (docs/runtimes.md).
        const attempts = context.runtime === "deno" ? [1, 2] : [2];
        expect(attempts.includes(response.attempts), `attempts ${response.attempts}`);
        expect(seen.arrivals === 2, `arrivals ${seen.arrivals}`);
      },
    },
    {
      name: "never-resend: a lost response on a reused connection is not sent again",
      async run(context) {
        const scope = await defaultScope(context);
        const sdk = client(context);
        // Warm the connection: the lost answer comes on a connection the client reuses.
        await sdk.getLiveness();
        await sdk.getLiveness();
        await script(context, REMEMBER, [{ kind: "drop" }]);
        const error = await rejection("remember_memory whose answer is lost", () =>
          sdk.rememberMemory({ scope_id: scope, kind: "decision", text: "lost answer" }),
        );
        const seen = await arrivals(context, REMEMBER);
        expect(seen.arrivals === 1, `the server read the request ${seen.arrivals} times`);
        expect(error instanceof TransportError && error.phase === "exchange", `got ${String(error)}`);
      },
    },
    {
      name: "connect: a refused connection of a never-resend call is a connect-phase TransportError",
      async run(context) {
        const retries: string[] = [];
        const error = await rejection("a call to a closed port", () =>
          new PowerContextClient({
            baseUrl: context.refusedUrl,
            maxRetries: 1,
            retry: FAST_RETRY,
            onRetry: (event) => retries.push(event.reason),
          }).rememberMemory({ scope_id: "s", kind: "decision", text: "never sent" }),
        );
        // workerd says "Network connection lost." of a refused connect and of a lost answer alike: it stays
        // an exchange failure there, which a never-resend call does not retry (docs/runtimes.md).
        const phase = context.runtime === "workerd" ? "exchange" : "connect";
        expect(error instanceof TransportError && error.phase === phase, `got ${String(error)}`);
        expect(retries.length === (phase === "connect" ? 1 : 0), `retries ${JSON.stringify(retries)}`);
      },
    },
    {
      name: "timeout: an attempt past timeoutMs is a TimeoutError",
      async run(context) {
        await script(context, LIVENESS, [
          { kind: "stall", ms: 3000 },
          { kind: "stall", ms: 3000 },
        ]);
        const error = await rejection("a stalled call", () =>
          client(context, { timeoutMs: 200, maxRetries: 1 }).getLiveness(),
        );
        expect(error instanceof TimeoutError, `got ${String(error)}`);
        await script(context, LIVENESS, []);
      },
    },
    {
      name: "abort: the caller's signal ends a call in flight with an AbortError",
      async run(context) {
        await script(context, LIVENESS, [{ kind: "stall", ms: 3000 }]);
        const controller = new AbortController();
        const pending = rejection("an aborted call", () => client(context).getLiveness({ signal: controller.signal }));
        setTimeout(() => controller.abort(), 50);
        const error = await pending;
        expect(error instanceof AbortError, `got ${String(error)}`);
        await script(context, LIVENESS, []);
      },
    },
    {
      name: "abort: an aborted signal sends nothing",
      async run(context) {
        await script(context, LIVENESS, []);
        const controller = new AbortController();
        controller.abort();
        const error = await rejection("a call with an aborted signal", () =>
          client(context).getLiveness({ signal: controller.signal }),
        );
        expect(error instanceof AbortError, `got ${String(error)}`);
        expect((await arrivals(context, LIVENESS)).arrivals === 0, "a request arrived");
      },
    },
    {
      name: "replay: a lost answer of a replay-class call is re-sent and answered once",
      async run(context) {
        const scope = await defaultScope(context);
        const source = `conformance-${context.runtime}-${Date.now()}`;
        await script(context, CAPTURE, [{ kind: "forward-drop" }]);
        const { data, response } = await client(context)
          .captureContentSource({ scope_id: scope, source_id: source, content: "replayed once" })
          .withResponse();
        const seen = await arrivals(context, CAPTURE);
        // On Deno the second sending may be fetch's own (docs/runtimes.md): the server's count is what holds.
        const attempts = context.runtime === "deno" ? [1, 2] : [2];
        expect(
          attempts.includes(response.attempts) && seen.forwarded === 2,
          `attempts ${response.attempts}, forwarded ${seen.forwarded}`,
        );
        expect(data.source.source_id === source, "the answer names another source");
      },
    },
    {
      name: "polling: an asynchronous call is polled to its result",
      async run(context) {
        const scope = await defaultScope(context);
        const sdk = client(context);
        await sdk.captureContentSource({ scope_id: scope, source_id: `poll-${Date.now()}`, content: "polled" });
        const flushed = await sdk.flushMemory({ scope_id: scope }, { deadlineMs: 15_000 });
        expect(flushed.status === "processed", `flush ended ${flushed.status}`);
      },
    },
    {
      name: "paginate: every page is fetched lazily",
      async run(context) {
        const scope = await defaultScope(context);
        const sdk = client(context);
        for (const text of ["page one", "page two", "page three"])
          await sdk.rememberMemory({ scope_id: scope, kind: "decision", text });
        const seen: string[] = [];
        for await (const entry of sdk.listMemoryEntriesAll({ scope_id: scope, limit: 1 }))
          seen.push(entry.artifact.artifact_id);
        expect(seen.length >= 3 && new Set(seen).size === seen.length, `entries ${JSON.stringify(seen)}`);
      },
    },
    {
      name: "redaction: the token is in no error",
      async run(context) {
        await script(context, SEARCH, [
          { kind: "answer", status: 500, body: { error: { code: "internal", message: `boom ${TOKEN}` } } },
        ]);
        const scope = await defaultScope(context);
        const errors = [
          await rejection("a 500", () => client(context).searchMemory({ scope_id: scope, query: "q" })),
          await rejection("a refused call", () =>
            new PowerContextClient({ baseUrl: context.refusedUrl, token: TOKEN, maxRetries: 0 }).getLiveness(),
          ),
        ];
        for (const error of errors) {
          const seen = [
            String(error),
            (error as Error).stack ?? "",
            JSON.stringify(error),
            String((error as Error).cause),
          ];
          expect(!seen.some((text) => text.includes(TOKEN)), `the token is in ${(error as Error).name}`);
        }
      },
    },
    {
      name: "text answers: a text/markdown answer is the text",
      async run(context) {
        await script(context, "POST /v1/handoff-reports/get", [
          {
            kind: "answer",
            status: 200,
            headers: { "content-type": "text/markdown; charset=utf-8" },
            body: "# Report ✓",
          },
        ]);
        const body = await client(context).getHandoffReport({ selection: { mode: "all" }, format: "markdown" });
        expect(body === "# Report ✓", `got ${JSON.stringify(body)}`);
      },
    },
    {
      name: "budgets: an empty retry budget stops retrying",
      async run(context) {
        const busy = { kind: "answer", status: 503, body: { error: { code: "busy", message: "busy" } } } as const;
        await script(context, LIVENESS, [busy, busy, busy, busy]);
        const error = await rejection("a call whose budget is spent", () =>
          client(context, { retryBudget: { capacity: 5, retryCost: 5 } }).getLiveness(),
        );
        const seen = await arrivals(context, LIVENESS);
        expect(
          error instanceof ServerResponseError && (error as { retryBudgetExhausted?: boolean }).retryBudgetExhausted,
          `got ${String(error)}`,
        );
        expect(seen.arrivals === 2, `arrivals ${seen.arrivals}`);
        await script(context, LIVENESS, []);
      },
    },
    {
      name: "telemetry: each attempt carries its own traceparent",
      async run(context) {
        const tracer = recordingTracer();
        await script(context, LIVENESS, [{ kind: "answer", status: 503, headers: { "retry-after": "0" } }]);
        await client(context, { telemetry: openTelemetry({ tracer }) }).getLiveness();
        const seen = await arrivals(context, LIVENESS);
        const sent = seen.headers.map((headers) => headers.traceparent);
        const attempts = tracer.spans.filter((span) => span.kind === 2);
        expect(attempts.length === 2, `${attempts.length} attempt spans`);
        expect(
          sent.length === 2 && sent.every((value, index) => value?.split("-")[2] === attempts[index]?.spanId),
          `traceparents ${JSON.stringify(sent)}`,
        );
        expect(attempts[1]?.attributes["http.request.resend_count"] === 1, "no resend count on the second attempt");
      },
    },
    {
      name: "config: fromEnv answers a client or a ConfigurationError",
      async run(context) {
        try {
          PowerContextClient.fromEnv();
        } catch (error) {
          expect(error instanceof ConfigurationError, `fromEnv threw ${String(error)}`);
        }
        const explicit = PowerContextClient.fromEnv({}, { POWERCONTEXT_CLIENT_SERVER_URL: context.url });
        expect(explicit.baseUrl === context.url, `baseUrl ${explicit.baseUrl}`);
      },
    },
    {
      name: "close: a Node transport closes",
      async run() {
        if (extras.loadNodeEntry === undefined) throw new NotApplicable("no Node entry on this runtime");
        const { createNodeTransport } = await extras.loadNodeEntry();
        const transport = await createNodeTransport();
        await transport.close();
      },
    },
  ];
}
