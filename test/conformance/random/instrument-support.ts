// What the instrument's own tests share: synthetic answers that hold an id of every kind
// a contract's requests name (so requests draw references), and a diff of two requests.
import { type Contract, isObject } from "../../../packages/msw/src/verify/random/contract.js";
import { Catalogue, type RecordedAnswer, valueKind } from "../../../packages/msw/src/verify/random/identity.js";
import { drawRequest, type Drawn } from "../../../packages/msw/src/verify/random/requests.js";

/** Every member name of the contract's schemas whose values come from answers. */
export function referableNames(contract: Contract): string[] {
  const names = new Set<string>();
  const walk = (node: unknown, depth: number) => {
    if (depth > 64) return;
    if (Array.isArray(node)) for (const item of node) walk(item, depth + 1);
    else if (isObject(node)) {
      if (isObject(node.properties))
        for (const name of Object.keys(node.properties)) if (valueKind(name) !== null) names.add(name);
      for (const value of Object.values(node)) walk(value, depth + 1);
    }
  };
  walk(contract.document, 0);
  for (const operation of contract.operations)
    for (const parameter of operation.parameters) if (valueKind(parameter.name) !== null) names.add(parameter.name);
  return [...names].sort();
}

/**
 * One side's answers: a 2xx answer with an ETag holding a value for every referable
 * member, `prefix` telling the sides apart (`a-scope_id` on one, `b-scope_id` on the other).
 */
export function syntheticAnswers(contract: Contract, prefix: string): RecordedAnswer[] {
  const body: Record<string, unknown> = {};
  for (const name of referableNames(contract)) {
    if (name === "revision") body[name] = 1;
    else if (name === "family") body[name] = "atomic-memory";
    else body[name] = `${prefix}-${name}`;
  }
  return [{ status: 200, body, etag: `"${prefix}-etag"` }];
}

/** A catalogue fed with `answers`. */
export function catalogueOf(answers: readonly RecordedAnswer[]): Catalogue {
  const catalogue = new Catalogue();
  for (const [index, answer] of answers.entries()) catalogue.add(index, answer);
  return catalogue;
}

/** K requests for every operation, drawn after `answers` (indexes follow them). */
export function drawAll(
  contract: Contract,
  seed: number,
  k: number,
  answers: readonly RecordedAnswer[],
  fault?: boolean,
): Drawn[] {
  const catalogue = catalogueOf(answers);
  return contract.operations.flatMap((operation) =>
    Array.from({ length: k }, (_, index) =>
      drawRequest(contract, operation, { seed, index: answers.length + index, k: index, catalogue, fault }),
    ),
  );
}

/** Pointers where two JSON values differ (an array of another length differs as a whole). */
export function changedPointers(a: unknown, b: unknown, pointer = ""): string[] {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return [pointer];
    return a.flatMap((item, i) => changedPointers(item, b[i], `${pointer}/${i}`));
  }
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    return keys.flatMap((key) => changedPointers(a[key], b[key], `${pointer}/${key}`));
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [pointer];
}
