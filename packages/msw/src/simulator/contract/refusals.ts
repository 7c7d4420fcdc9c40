import type { ContractRefusalRule } from "../../contract/types.js";
import { SimError } from "../errors.js";
import { strip } from "@powercontext/runtime/rules";
import { distinctWords } from "../lexical-admission.js";
import { stableJson, valuesAt } from "../members.js";
import type { SimOperation } from "./operation-table.js";
import { headerValue } from "./request-check.js";
import type { SimRequest } from "../types.js";

/**
 * The operation's `x-powercontext-refusals`, answered in one place for every
 * operation: the first rule whose conditions hold is thrown as its envelope.
 * The simulator asks twice. `before-lookup`: the rules without `scope`, after the
 * request is validated and access decided, before any lookup and before a missing
 * precondition (`428`), which is where the release refuses a legacy Memory
 * operation. `after-scope`: the rules that name their Scope member (`scope`), once
 * that Scope is found (an unknown one is `404 scope_not_found` first) and the
 * checks after access (`x-powercontext-access-after`) have passed, as the release's
 * handlers refuse them.
 */

/**
 * When the simulator asks. `handler`: refusals without a Scope or a capability
 * condition (the legacy Memory operations, family guards), which the release's
 * handlers raise before building their domain models; `service`: a capability the
 * server lacks (`inference`), raised by the service after those models (so after the
 * runtime model rules); `after-scope`: refusals that come once their Scope is found.
 */
export type RefusalPhase = "handler" | "service" | "after-scope";

function phaseOf(rule: ContractRefusalRule): RefusalPhase {
  if (rule.scope !== null) return "after-scope";
  return rule.when.inference !== null ? "service" : "handler";
}

/** What the conditions of a rule read from the simulator. */
export interface RefusalFacts {
  /** Whether the simulated server has an inference model (`SimulatorOptions.inference`). */
  readonly inference: "on" | "off";
  /** @throws SimError 404 `scope_not_found` for a Scope the simulator does not hold */
  requireScope(scopeId: string): void;
  /** True when the Scope has work of this kind pending (`sources`: Sources past its Memory cursor; `evidence`: Sources with content to extract). */
  pending(kind: "sources" | "evidence", scopeId: string): boolean;
  /** The current record `id` of `resource` in the collection `keys`, or undefined. */
  find(resource: string, keys: readonly unknown[], id: unknown): Readonly<Record<string, unknown>> | undefined;
  /** Keeps what a refusal says the server records (`records`) as it refuses. */
  record(records: NonNullable<ContractRefusalRule["records"]>): void;
}

function holds(
  rule: ContractRefusalRule,
  flat: Readonly<Record<string, unknown>>,
  facts: RefusalFacts,
  headers: SimRequest["headers"],
): boolean {
  const {
    inference,
    present,
    empty,
    pending,
    equals,
    includes,
    outside,
    above,
    wordsAbove,
    untrimmed,
    unknown,
    record,
    withoutHeader,
  } = rule.when;
  if (inference !== null && inference !== facts.inference) return false;
  // A request that sends every header with its value (a client of the newer contract) is not refused.
  const headerPairs = Object.entries(withoutHeader);
  if (headerPairs.length > 0 && headerPairs.every(([name, value]) => headerValue(headers, name)?.trim() === value))
    return false;
  if (present !== null && (valuesAt(flat, present)[0] ?? null) === null) return false;
  if (empty !== null && !(typeof empty === "string" ? [empty] : empty).every((name) => isEmpty(flat[name])))
    return false;
  // An absent member equals null; a dotted path reads into objects (through a list step `[]`: some item's value).
  if (Object.entries(equals).some(([path, value]) => !reachesValue(valuesAt(flat, path), value))) return false;
  if (
    Object.entries(includes).some(
      ([member, value]) => !(Array.isArray(flat[member]) && (flat[member] as unknown[]).includes(value)),
    )
  )
    return false;
  // Each path must reach a value outside its list (through a list step `[]`: some item's value).
  if (
    Object.entries(outside).some(
      ([path, values]) => !valuesAt(flat, path).some((value) => !values.includes(value as never)),
    )
  )
    return false;
  if (Object.entries(above).some(([member, bound]) => !(typeof flat[member] === "number" && flat[member] > bound)))
    return false;
  if (Object.entries(wordsAbove).some(([member, bound]) => !(distinctWords(flat[member]) > bound))) return false;
  if (untrimmed.some((member) => !isUntrimmed(flat[member]))) return false;
  if (unknown !== null && !unknownRecord(unknown, flat, facts)) return false;
  if (record !== null && !storedWith(record, flat, facts)) return false;
  if (rule.scope === null) return true;
  const scopeId = String(flat[rule.scope]);
  facts.requireScope(scopeId);
  return pending === null || facts.pending(pending, scopeId);
}

/**
 * @param flat - the flat request (parameters by wire name and body members)
 * @param headers - the request's headers (read by `without_header`)
 * @param phase - which of the operation's refusals to check ({@link RefusalPhase})
 * @throws SimError the first refusal whose conditions hold, with its status, code, message and details
 * @throws SimError 404 `scope_not_found` when a rule's other conditions hold and its Scope is unknown
 */
export function checkRefusals(
  op: SimOperation,
  flat: unknown,
  facts: RefusalFacts,
  headers: SimRequest["headers"],
  phase: RefusalPhase,
): void {
  if (op.refusals.length === 0) return;
  const members = (typeof flat === "object" && flat !== null ? flat : {}) as Readonly<Record<string, unknown>>;
  for (const rule of op.refusals) {
    if (phaseOf(rule) === phase && holds(rule, members, facts, headers)) {
      if (rule.records !== null) facts.record(rule.records);
      throw new SimError(
        rule.status,
        rule.code,
        rule.message,
        rule.details === null ? null : structuredClone(rule.details),
      );
    }
  }
}

/** Text with whitespace at its start or end, as the server strips it. */
function isUntrimmed(value: unknown): boolean {
  return typeof value === "string" && strip(value) !== value;
}

/** Whether one of `found` (the values at a path) is `value`; nothing found reads as null. */
function reachesValue(found: readonly unknown[], value: unknown): boolean {
  return found.length === 0 ? value === null : found.some((item) => (item ?? null) === value);
}

/** Absent, null or a list without items. */
function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (Array.isArray(value) && value.length === 0);
}

/**
 * True when the request names a record (a value at the id path) that the store does not
 * hold. Through a list step (`refs[].id`) every item names one, its keys read from the same
 * item where their path goes through that step: one unknown item is enough.
 */
function unknownRecord(
  unknown: NonNullable<ContractRefusalRule["when"]["unknown"]>,
  flat: Readonly<Record<string, unknown>>,
  facts: RefusalFacts,
): boolean {
  const step = unknown.id.lastIndexOf("[].");
  if (step >= 0) {
    const list = unknown.id.slice(0, step + 2);
    const inItem = (path: string) => (path.startsWith(`${list}.`) ? path.slice(list.length + 1) : null);
    return valuesAt(flat, list).some((item) =>
      unknownOne(unknown, facts, valuesAt(item, unknown.id.slice(step + 3))[0], (path) => {
        const relative = inItem(path);
        return relative === null ? valuesAt(flat, path)[0] : valuesAt(item, relative)[0];
      }),
    );
  }
  return unknownOne(unknown, facts, valuesAt(flat, unknown.id)[0], (path) => valuesAt(flat, path)[0]);
}

/** True when the store holds the record the request names, with each member of `equals` at its value. */
function storedWith(
  record: NonNullable<ContractRefusalRule["when"]["record"]>,
  flat: Readonly<Record<string, unknown>>,
  facts: RefusalFacts,
): boolean {
  const read = (path: string) => valuesAt(flat, path)[0];
  const id = read(record.id);
  return id !== undefined && id !== null && holdsValues(lookup(record, facts, id, read), record.equals);
}

/** The stored record a condition names: `id` in the collection its `within` keys read (by `read`), or undefined. */
function lookup(
  fact: { readonly resource: string; readonly within: readonly (string | { readonly value: unknown })[] },
  facts: RefusalFacts,
  id: unknown,
  read: (path: string) => unknown,
): Readonly<Record<string, unknown>> | undefined {
  const keys = fact.within.map((key) => (typeof key === "string" ? read(key) : key.value));
  return facts.find(fact.resource, keys, id);
}

/** True when a stored record was found and holds each value at its (dotted) member; an absent member is null. */
function holdsValues(found: Readonly<Record<string, unknown>> | undefined, values: Readonly<Record<string, unknown>>) {
  return (
    found !== undefined &&
    Object.entries(values).every(([path, value]) => stableJson(valuesAt(found, path)[0] ?? null) === stableJson(value))
  );
}

function unknownOne(
  unknown: NonNullable<ContractRefusalRule["when"]["unknown"]>,
  facts: RefusalFacts,
  id: unknown,
  read: (path: string) => unknown,
): boolean {
  if (id === undefined || id === null) return false;
  const holding = Object.fromEntries(
    Object.entries(unknown.holding).map(([member, request]) => [member, read(request)]),
  );
  return !holdsValues(lookup(unknown, facts, id, read), holding);
}
