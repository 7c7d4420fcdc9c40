// Playing scenarios against one server: steps in order, one request at a time, templates
// filled from what earlier steps of the same side captured, lists followed page by page.
// Each request becomes an Observation; the two sides' observations are compared later.
import { MissingValue, capture, pointerGet, substitute, type RecipeStep } from "../parity/recipes/recipe-format.js";
import type { OperationSummary } from "../real/openapi.js";
import { Placeholders, comparable } from "./normalise.js";
import type { Scenario, ScenarioStep } from "./scenario-format.js";
import { errorCode, send, type Answer, type ResolvedRequest, type Target } from "./send-step.js";

/** One request of one side, ready to compare. */
export interface Observation {
  readonly scenario: string;
  /** the step id, with `#n` for the n-th page of a followed list (from 2 on) */
  readonly step: string;
  readonly operation: string | null;
  /** null when a template had no value on this side ("needs name") */
  readonly answer: Answer | null;
  readonly code: string | null;
  /** the body with this side's assigned values replaced by placeholders */
  readonly normalised: unknown;
  readonly skipped?: string;
  readonly compareValues: boolean;
}

/** What playing needs besides the target: the operations of openapi.yaml by operationId. */
export interface PlayContext {
  readonly operations: ReadonlyMap<string, OperationSummary>;
  /** most requests one run may send (a runaway loop stops the run) */
  readonly maxRequests?: number;
}

function resolve(
  step: ScenarioStep,
  values: ReadonlyMap<string, unknown>,
  context: PlayContext,
  cursor: unknown,
): ResolvedRequest {
  const operation = step.operation === undefined ? undefined : context.operations.get(step.operation);
  if (step.operation !== undefined && operation === undefined)
    throw new Error(`step ${step.id}: no operation ${step.operation} in openapi.yaml`);
  const auth = ["admin", "none", "bad", "other"].includes(step.auth)
    ? step.auth
    : { bearer: String(substitute(step.auth, values)) };
  return {
    operation,
    method: step.method,
    path: step.path === undefined ? undefined : String(substitute(step.path, values)),
    auth: auth as ResolvedRequest["auth"],
    request: {
      ...((substitute(step.request ?? {}, values) ?? {}) as Record<string, unknown>),
      ...(step.follow && cursor !== undefined ? { [step.follow.member]: cursor } : {}),
    },
    headers: (substitute(step.headers ?? {}, values) ?? {}) as Record<string, unknown>,
    body: step.body === undefined ? undefined : String(substitute(step.body, values)),
  };
}

function observe(scenario: string, step: ScenarioStep, id: string, answer: Answer, names: Placeholders): Observation {
  return {
    scenario,
    step: id,
    operation: step.operation ?? null,
    answer,
    code: errorCode(answer),
    normalised: names.value(comparable(answer.body, answer.status)),
    compareValues: step.values,
  };
}

/**
 * Plays every scenario, in order, against one target. Captured values carry over from
 * one scenario to the next (a later file may use the Scope an earlier one made).
 *
 * @throws {Error} when a request gets no answer in time, or the run passes `maxRequests`
 */
export async function play(
  scenarios: readonly Scenario[],
  target: Target,
  context: PlayContext,
): Promise<Observation[]> {
  const values = new Map<string, unknown>();
  const observations: Observation[] = [];
  let sent = 0;
  const limit = context.maxRequests ?? 2_000;
  for (const scenario of scenarios) {
    const names = new Placeholders();
    for (const step of scenario.steps) {
      const pages = step.follow?.max ?? 1;
      let cursor: unknown;
      for (let page = 1; page <= pages; page++) {
        const id = page === 1 ? step.id : `${step.id}#${page}`;
        let resolved: ResolvedRequest;
        try {
          resolved = resolve(step, values, context, cursor);
        } catch (error) {
          if (!(error instanceof MissingValue)) throw error;
          observations.push({
            scenario: scenario.name,
            step: id,
            operation: step.operation ?? null,
            answer: null,
            code: null,
            normalised: null,
            skipped: error.message,
            compareValues: false,
          });
          break;
        }
        if (++sent > limit)
          throw new Error(`more than ${limit} requests to ${target.name}: a followed list does not end`);
        const answer = await send(resolved, target);
        observations.push(observe(scenario.name, step, id, answer, names));
        if (answer.status < 200 || answer.status >= 300) break;
        for (const [name, value] of capture(step as unknown as RecipeStep, answer.body, answer.headers))
          values.set(name, value);
        if (step.follow === undefined) break;
        cursor = pointerGet(answer.body, step.follow.next);
        if (cursor === undefined || cursor === null || cursor === "") break;
      }
    }
  }
  return observations;
}
