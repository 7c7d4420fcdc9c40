// Reading the conformance scenarios (scenarios/*.yaml; README.md is the reference).
// Templates and JSON pointers follow the contract recipes' rules and use their code
// (test/parity/recipes/recipe-format.ts); the recipe files themselves are one scenario.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import yaml from "js-yaml";
import { loadRecipes, serverSettings } from "../parity/recipes/recipe-format.js";

export const scenariosDir = fileURLToPath(new URL("./scenarios/", import.meta.url));

/** Which credential a step sends: the server's admin token, none, garbage, or a well-formed unknown token. */
export type Auth = "admin" | "none" | "bad" | "other";

/** Follow a list: repeat the step with request member `member` set to the value at `next` until that is empty. */
export interface Follow {
  /** JSON pointer of the next cursor in the success body (default /next_cursor) */
  readonly next: string;
  /** the request member that carries the cursor (default cursor) */
  readonly member: string;
  /** most pages requested (default 20): a list that never ends is a finding, not a hang */
  readonly max: number;
}

/** One request of a scenario, with its id filled in. */
export interface ScenarioStep {
  readonly id: string;
  /** an operationId of openapi.yaml; absent for a raw routing request */
  readonly operation?: string;
  /** raw request line for routing cases (with `path`) */
  readonly method?: string;
  readonly path?: string;
  readonly auth: Auth;
  /** one flat object of wire names: path, query, header and body members together */
  readonly request?: Record<string, unknown>;
  readonly headers?: Record<string, unknown>;
  /** a raw request body sent as it is (malformed JSON, a wrong content type) */
  readonly body?: string;
  readonly capture?: Record<string, string>;
  readonly capture_headers?: Record<string, string>;
  readonly follow?: Follow;
  /** false: compare status, code and shape but not values (inherently different answers) */
  readonly values: boolean;
}

/** A named sequence of steps, played against a fresh state shared with the scenarios before it. */
export interface Scenario {
  readonly name: string;
  /** the OpenAPI tag a step without an operation is counted under */
  readonly tag: string;
  readonly steps: readonly ScenarioStep[];
}

const STEP_KEYS = new Set([
  "id",
  "operation",
  "method",
  "path",
  "auth",
  "request",
  "headers",
  "body",
  "capture",
  "capture_headers",
  "follow",
  "values",
  "setup",
  "expect",
  "why",
]);
const AUTH = new Set<Auth>(["admin", "none", "bad", "other"]);

function readStep(raw: Record<string, unknown>, where: string, seen: Set<string>): ScenarioStep {
  const unknown = Object.keys(raw).filter((key) => !STEP_KEYS.has(key));
  if (unknown.length > 0) throw new Error(`${where}: unknown members ${JSON.stringify(unknown)}`);
  const raw_ = typeof raw.method === "string" && typeof raw.path === "string";
  if ((typeof raw.operation === "string") === raw_)
    throw new Error(`${where}: needs either operation or method and path`);
  const auth = (raw.auth ?? "admin") as Auth;
  // the recipes' auth may be a template for a credential a step captured: sent as a bearer token
  if (!AUTH.has(auth) && !(typeof auth === "string" && auth.startsWith("${")))
    throw new Error(`${where}: auth must be admin, none, bad or other`);
  const id = typeof raw.id === "string" ? raw.id : String(raw.operation ?? `${String(raw.method)} ${String(raw.path)}`);
  if (seen.has(id)) throw new Error(`${where}: id ${id} is used twice in its scenario; give the step an id`);
  seen.add(id);
  const follow = raw.follow as Partial<Follow> | undefined;
  if (raw.follow !== undefined && (typeof raw.follow !== "object" || raw.follow === null))
    throw new Error(`${where}: follow is { next?, member?, max? }`);
  return {
    ...(raw as object),
    id,
    auth,
    values: raw.values !== false,
    ...(follow
      ? { follow: { next: follow.next ?? "/next_cursor", member: follow.member ?? "cursor", max: follow.max ?? 20 } }
      : {}),
  } as ScenarioStep;
}

/**
 * The recipes of the whole-contract parity run as one scenario: every release operation
 * called with inputs the release accepts, chained by captures.
 */
export function recipesScenario(): Scenario {
  const seen = new Set<string>();
  const steps = loadRecipes().map((step) => {
    const { file: _file, ...rest } = step;
    return readStep(rest as Record<string, unknown>, `recipes ${step.file} ${step.id}`, seen);
  });
  return { name: "recipes", tag: "recipes", steps };
}

/**
 * `recipes` followed by every `scenarios/NN-*.yaml` in file-name order; later files may
 * use what earlier ones captured. Each file is `{ tag?, scenarios: { name: { steps } } }`.
 *
 * @throws {Error} naming the file, scenario and step for a malformed step or a name used twice
 */
export function loadScenarios(dir: string = scenariosDir): Scenario[] {
  const scenarios: Scenario[] = [recipesScenario()];
  const names = new Set(["recipes"]);
  for (const file of readdirSync(dir)
    .filter((f) => /^\d\d-.*\.yaml$/.test(f))
    .sort()) {
    const document = (yaml.load(readFileSync(join(dir, file), "utf8")) ?? {}) as {
      tag?: string;
      scenarios?: Record<string, { tag?: string; steps?: Record<string, unknown>[] }>;
    };
    for (const [name, body] of Object.entries(document.scenarios ?? {})) {
      if (names.has(name)) throw new Error(`${file}: scenario ${name} is defined twice`);
      names.add(name);
      const seen = new Set<string>();
      const steps = (body.steps ?? []).map((raw, index) => readStep(raw, `${file} ${name} step ${index + 1}`, seen));
      scenarios.push({ name, tag: body.tag ?? document.tag ?? "routing", steps });
    }
  }
  return scenarios;
}

/** Settings the real server needs for the scenarios (the recipes' server.yaml). */
export const realServerSettings = serverSettings;
