// The TypeScript side of the whole-contract parity run: our SDK calls every recipe step
// against a real server through `client.request(operationId, request)`, with the same
// template, capture and expectation rules as run_recipes.py (README.md in this folder).
//
//   npm run build && npx tsx test/parity/recipes/run-recipes.ts --start          # own 1.4.1 server, prints the table
//   npx tsx test/parity/recipes/run-recipes.ts --base-url URL --token TOKEN --json
//
// Under vitest `@powercontext/sdk` resolves to the package sources; under tsx it is the
// built package, hence the build first.
//
// Captures read the parsed result of `withResponse()`. That is the JSON body as received,
// under its wire names: the SDK renames nothing, and its validators only check (no
// defaults filled in, no member removed, no type coerced), so both runners capture the
// same values from the same answer.
import { pathToFileURL } from "node:url";
import {
  InvalidRequestError,
  InvalidResponseError,
  operations,
  PowerContextClient,
  ServerResponseError,
  TransportError,
  type OperationId,
} from "@powercontext/sdk";
import { capture, loadRecipes, MissingValue, serverSettings, substitute, type RecipeStep } from "./recipe-format.js";

/** One step's outcome; the same members, with the same meaning, as run_recipes.py writes. */
export interface StepOutcome {
  step: string;
  operation: string;
  /** `success`, `server_error`, `invalid_response`, `invalid_input`, `transport`, `skipped`, or another error's class name */
  outcome: string;
  /** HTTP status of the answer; null when nothing was answered (skipped, refused before sending) */
  status: number | null;
  /** `error.code` of an error envelope, else null */
  code: string | null;
  /** true: the client accepted the success body; false: it refused it (`InvalidResponseError`); null: nothing to judge */
  accepted: boolean | null;
  /** the step got what the recipe says (success, or the `expect` status and code) */
  as_expected: boolean;
  /** the server's message, the validation issue or the missing value, for people */
  note?: string;
  /** time the step took, in ms */
  ms?: number;
}

/** Options of {@link runRecipes}. */
export interface RunOptions {
  readonly baseUrl: string;
  /** the server's bearer token: the credential of steps with `auth: admin` */
  readonly token: string;
  /** run only the steps of these operations (and every `setup` step); default all */
  readonly only?: readonly string[];
  /** per-attempt timeout in ms (default 30 000, the Python runner's httpx timeout) */
  readonly timeoutMs?: number;
}

/** One client per bearer token (`""` for none), made on first use and reused. */
class Clients {
  readonly #open = new Map<string, PowerContextClient>();

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  get(token: string): PowerContextClient {
    let client = this.#open.get(token);
    if (client === undefined) {
      client = new PowerContextClient({ baseUrl: this.baseUrl, token, maxRetries: 0, timeoutMs: this.timeoutMs });
      this.#open.set(token, client);
    }
    return client;
  }
}

/**
 * Splits a step's request headers: one the operation declares as a header parameter
 * (`If-Match`, ...) is a member of the request object, which is how our SDK takes it
 * (run_recipes.py likewise passes it as the Python method's keyword); any other goes
 * with the call's `headers` option.
 */
function placeHeaders(
  operationId: string,
  request: unknown,
  headers: unknown,
): { request: unknown; headers: Record<string, string> } {
  const declared =
    (operations as Record<string, { headerParameters?: readonly string[] } | undefined>)[operationId]
      ?.headerParameters ?? [];
  const members: Record<string, unknown> = { ...(request as Record<string, unknown>) };
  const extra: Record<string, string> = {};
  for (const [name, value] of Object.entries((headers ?? {}) as Record<string, unknown>)) {
    const parameter = declared.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
    if (parameter === undefined) extra[name] = String(value);
    else members[parameter] = String(value);
  }
  return { request: members, headers: extra };
}

function firstLine(text: string, limit: number): string {
  return (text.split("\n")[0] ?? "").slice(0, limit);
}

/** The outcome of a call that threw, without `as_expected`. */
function failure(error: unknown): Pick<StepOutcome, "outcome" | "status" | "code" | "accepted" | "note"> {
  if (error instanceof ServerResponseError) {
    const details = error.details ? ` ${JSON.stringify(error.details).slice(0, 300)}` : "";
    return {
      outcome: "server_error",
      status: error.statusCode,
      code: error.code,
      accepted: null,
      note: `${error.serverMessage ?? error.body ?? ""}${details}`,
    };
  }
  if (error instanceof InvalidResponseError) {
    return {
      outcome: "invalid_response",
      status: error.statusCode,
      code: null,
      accepted: false,
      note: firstLine(`${error.message} ${error.issues.join("; ")}`, 200),
    };
  }
  if (error instanceof InvalidRequestError) {
    return { outcome: "invalid_input", status: null, code: null, accepted: null, note: firstLine(error.message, 200) };
  }
  if (error instanceof TransportError)
    return { outcome: "transport", status: null, code: null, accepted: null, note: error.name };
  if (error instanceof Error)
    return { outcome: error.name, status: null, code: null, accepted: null, note: firstLine(error.message, 200) };
  throw error;
}

/** Runs one step: substitutes its templates, calls the operation, judges and captures. */
async function runStep(
  clients: Clients,
  adminToken: string,
  step: RecipeStep,
  values: Map<string, unknown>,
): Promise<StepOutcome> {
  const base = { step: step.id, operation: step.operation };
  let request: unknown;
  let headers: Record<string, string>;
  let auth: unknown;
  try {
    ({ request, headers } = placeHeaders(
      step.operation,
      substitute(step.request ?? {}, values),
      substitute(step.headers ?? {}, values),
    ));
    auth = substitute(step.auth ?? "admin", values);
  } catch (error) {
    if (!(error instanceof MissingValue)) throw error;
    return {
      ...base,
      outcome: "skipped",
      status: null,
      code: null,
      accepted: null,
      note: error.message,
      as_expected: false,
    };
  }
  const token = auth === "admin" ? adminToken : auth === "none" ? "" : String(auth);
  const client = clients.get(token);
  let result: Omit<StepOutcome, "step" | "operation" | "as_expected">;
  try {
    const { data, response } = await client
      .request(step.operation as OperationId, request as never, { headers })
      .withResponse();
    result = { outcome: "success", status: response.status, code: null, accepted: true };
    for (const [name, value] of capture(step, data, response.headers)) values.set(name, value);
  } catch (error) {
    result = failure(error);
  }
  const as_expected =
    step.expect === undefined
      ? result.outcome === "success"
      : result.status === step.expect.status && result.code === step.expect.code;
  return { ...base, ...result, as_expected };
}

/**
 * Runs the recipes' steps in order, one session, through our SDK (`maxRetries: 0`, so
 * every step is one HTTP exchange as in the Python client).
 *
 * @returns one outcome per step that ran, in recipe order
 */
export async function runRecipes(options: RunOptions): Promise<StepOutcome[]> {
  const clients = new Clients(options.baseUrl, options.timeoutMs ?? 30_000);
  const values = new Map<string, unknown>();
  const outcomes: StepOutcome[] = [];
  const only = options.only ?? [];
  for (const step of loadRecipes()) {
    if (only.length > 0 && !only.includes(step.operation) && !step.setup) continue;
    const started = performance.now();
    const outcome = await runStep(clients, options.token, step, values);
    outcomes.push({ ...outcome, ms: Math.round(performance.now() - started) });
  }
  return outcomes;
}

/** The table run_recipes.py prints, for one runner's outcomes. */
export function formatOutcomes(outcomes: readonly StepOutcome[], verbose = false): string {
  const lines = [
    `${"step".padEnd(40)} ${"operation".padEnd(36)} ${"status".padStart(6)}  ${"code".padEnd(36)} accepted`,
  ];
  for (const o of outcomes) {
    const accepted = o.accepted === null ? "" : String(o.accepted);
    lines.push(
      `${o.step.slice(0, 40).padEnd(40)} ${o.operation.slice(0, 36).padEnd(36)} ${String(o.status ?? "-").padStart(6)}  ${(o.code ?? o.outcome).slice(0, 36).padEnd(36)} ${accepted}`,
    );
    if (verbose && o.note) lines.push(`${"".padEnd(40)}   ${o.note.slice(0, 160)}`);
  }
  const called = new Set(outcomes.filter((o) => o.outcome !== "skipped").map((o) => o.operation));
  const succeeded = new Set(outcomes.filter((o) => o.outcome === "success").map((o) => o.operation));
  const unexpected = outcomes.filter((o) => !o.as_expected).map((o) => o.step);
  lines.push(
    `operations called: ${called.size}, reaching a success status: ${succeeded.size}, steps: ${outcomes.length}`,
  );
  lines.push(
    `steps not answered as the recipe expects: ${unexpected.length}${unexpected.length > 0 ? ` (${unexpected.join(", ")})` : ""}`,
  );
  return lines.join("\n");
}

async function main(argv: readonly string[]): Promise<void> {
  const value = (flag: string) => argv[argv.indexOf(flag) + 1];
  const only = argv.flatMap((arg, index) => (arg === "--only" && argv[index + 1] ? [argv[index + 1]!] : []));
  let outcomes: StepOutcome[];
  if (argv.includes("--start")) {
    const { startRealServer } = await import("../../real/server.js");
    const server = await startRealServer({ env: serverSettings() });
    try {
      outcomes = await runRecipes({ baseUrl: server.baseUrl, token: server.token, only });
    } finally {
      await server.stop();
    }
  } else {
    if (!argv.includes("--base-url") || !argv.includes("--token"))
      throw new Error("give --base-url and --token, or --start");
    outcomes = await runRecipes({ baseUrl: value("--base-url")!, token: value("--token")!, only });
  }
  console.log(
    argv.includes("--json") ? JSON.stringify(outcomes, null, 2) : formatOutcomes(outcomes, argv.includes("--verbose")),
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
