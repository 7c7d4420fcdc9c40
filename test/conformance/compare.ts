// Comparing the two sides' observations step by step: status, the envelope's code, the
// answer's shape and (where the step allows) the normalised values, including list
// counts and order. A step one side played and the other did not is a difference too.
import { answerShapeDifferences } from "./shape.js";
import { firstDifference } from "./normalise.js";
import type { Observation } from "./play.js";

/** The verdict on one step. */
export interface StepComparison {
  readonly scenario: string;
  readonly step: string;
  readonly operation: string | null;
  readonly tag: string;
  readonly real: { readonly status: number | null; readonly code: string | null };
  readonly mock: { readonly status: number | null; readonly code: string | null };
  readonly status: boolean;
  /** status and code both agree */
  readonly code: boolean;
  /** status, code and shape all agree */
  readonly shape: boolean;
  /** null when values were not compared (a step marked values: false, or another status) */
  readonly values: boolean | null;
  /** what differs, in words (empty when everything compared agrees) */
  readonly details: readonly string[];
}

/** The OpenAPI tag of each operation, and the tag of steps without one (routing). */
export type TagOf = (operation: string | null, scenarioTag: string) => string;

function key(observation: Observation): string {
  return `${observation.scenario}\u0000${observation.step}`;
}

/**
 * Pairs the sides' observations (by scenario and step, in the real side's order, then
 * steps only the mock played) and compares each pair. Steps skipped on both sides
 * ("needs name") are left out: neither server was asked.
 */
export function compareObservations(
  real: readonly Observation[],
  mock: readonly Observation[],
  tagOf: TagOf,
  scenarioTags: ReadonlyMap<string, string>,
): StepComparison[] {
  const mockByKey = new Map(mock.map((o) => [key(o), o]));
  const realKeys = new Set(real.map(key));
  const pairs: [Observation | undefined, Observation | undefined][] = [
    ...real.map((o): [Observation, Observation | undefined] => [o, mockByKey.get(key(o))]),
    ...mock.filter((o) => !realKeys.has(key(o))).map((o): [undefined, Observation] => [undefined, o]),
  ];
  const out: StepComparison[] = [];
  for (const [left, right] of pairs) {
    const any = (left ?? right)!;
    if ((left?.answer ?? null) === null && (right?.answer ?? null) === null) continue;
    out.push(compareOne(left, right, tagOf(any.operation, scenarioTags.get(any.scenario) ?? "routing")));
  }
  return out;
}

function side(observation: Observation | undefined): { status: number | null; code: string | null } {
  return { status: observation?.answer?.status ?? null, code: observation?.code ?? null };
}

function compareOne(left: Observation | undefined, right: Observation | undefined, tag: string): StepComparison {
  const any = (left ?? right)!;
  const base = {
    scenario: any.scenario,
    step: any.step,
    operation: any.operation,
    tag,
    real: side(left),
    mock: side(right),
  };
  if (!left?.answer || !right?.answer) {
    const missing = !left?.answer
      ? `real ${left?.skipped ?? "did not get this far"}`
      : `mock ${right?.skipped ?? "did not get this far"}`;
    return { ...base, status: false, code: false, shape: false, values: null, details: [missing] };
  }
  const details: string[] = [];
  const status = left.answer.status === right.answer.status;
  const code = status && left.code === right.code;
  if (!status) details.push(`status: real ${left.answer.status}, mock ${right.answer.status}`);
  if (status && !code) details.push(`code: real ${left.code ?? "none"}, mock ${right.code ?? "none"}`);
  const shapes = answerShapeDifferences(left.answer, right.answer);
  // an error answer's shape is only compared when both sides agree on the error
  const shape = code && shapes.length === 0;
  if (code) details.push(...shapes.map((line) => `shape ${line}`));
  let values: boolean | null = null;
  if (shape && left.compareValues && right.compareValues) {
    const difference = firstDifference(left.normalised, right.normalised);
    values = difference === null;
    if (difference !== null) details.push(`value ${difference}`);
  }
  return { ...base, status, code, shape, values, details };
}
