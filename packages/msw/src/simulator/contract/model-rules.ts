import { firstBreach, rewritten, type RuleBreach, type RuleSite } from "@powercontext/runtime/rules";
import { stableJson } from "../members.js";
import { sha256Hex } from "../digest/sha256.js";
import type { ContractRule } from "../../contract/types.js";
import { SimError, accessMessage, contractViolation, invalidRequest } from "../errors.js";
import type { SimRequest } from "../types.js";
import type { SimOperation } from "./operation-table.js";

/**
 * The contract's model rules (`x-powercontext-rules`, docs/architecture.md "Model rules")
 * in the mock's check pipeline, read by one generic engine (`@powercontext/runtime/rules`)
 * from the facts the generated contract carries per operation: where each rule sits in
 * the flat request, its stage and its answer. Nothing here names an operation or a member.
 *
 * - {@link checkWireRules}: the rules the release's request model checks, with the body,
 *   before access is decided (its access layer reads the body with that model): a breach
 *   is `422 invalid_access_request`, or, without an access rule, the framework's issue.
 * - {@link checkAccessRules}: the runtime rules its access layer refuses (a refusal
 *   answer with `access`), before any lookup.
 * - {@link checkRuntimeRules}: the rules the release checks after its request model, once
 *   the handler's own refusals and preconditions have passed and before any lookup: a
 *   breach answers as the rule's answer says (an issue in `details.errors`, `invalid_request`
 *   without details, `{field, reason}`, or a refusal of its own).
 * - {@link keptRequest}: the request as the server goes on with it, its runtime `trim`,
 *   `sort-items` and `null-as-absent` rules applied (the stored text without surrounding
 *   whitespace, the tags in the server's order, a member sent as null left out).
 */

const isWire = (rule: ContractRule) => rule.stage === "wire";
/** A `digest` rule's value: the release's `sha256:<hex>` of canonical JSON (sorted keys, no spaces). */
const digestOf = (value: unknown) => `sha256:${sha256Hex(stableJson(value))}`;
const isRuntime = (rule: ContractRule) => rule.stage === "runtime";
/** A runtime rule the release's access layer refuses (its refusal answer says `access`): before any lookup. */
const isAccessFault = (rule: ContractRule) => rule.answer?.kind === "refusal" && rule.answer.access;

/** Where a breach is, and what it says: the path to the object carrying the rule, the member in it, the message. */
type Place = Pick<RuleBreach<ContractRule>, "at" | "member" | "message">;

/** Where a breach is: the path to the object carrying the rule, and the member in it. */
function bodyLoc(breach: Place): (string | number)[] {
  return breach.member === null ? [...breach.at] : [...breach.at, breach.member];
}

/**
 * True when the flat request breaks a wire rule: the release's request model refuses
 * it, which its access layer, reading the body as that model, answers `422
 * invalid_access_request`.
 *
 * @param flat - the flat request (parameters by wire name beside the body's members)
 */
export function breaksWireRule(op: SimOperation, flat: unknown): boolean {
  return op.rules.length > 0 && firstBreach(flat, op.rules, isWire) !== null;
}

/**
 * The wire rules of an operation the access layer does not read (no access rule; with
 * one, {@link breaksWireRule} answers for the access layer): the release's request
 * model refuses a breach with its issue.
 *
 * @param flat - the flat request (parameters by wire name beside the body's members)
 * @throws SimError 422 `invalid_request` with the issue
 */
export function checkWireRules(op: SimOperation, flat: unknown): void {
  if (op.rules.length === 0 || op.access !== null) return;
  const breach = firstBreach(flat, op.rules, isWire);
  if (breach === null) return;
  throw contractViolation(422, [
    { type: "value_error", loc: ["body", ...bodyLoc(breach)], msg: `Value error, ${breach.message}` },
  ]);
}

/**
 * The runtime rules the release's access layer refuses (a refusal answer with
 * `access`), which come before any lookup, the Scope's included.
 *
 * @param flat - the flat request
 * @param now - the simulator's clock, ms since the epoch (`after-now` compares with it)
 * @throws SimError 422 `invalid_access_request` for the first such rule the request breaks
 */
export function checkAccessRules(op: SimOperation, flat: unknown, now: number): void {
  if (op.rules.length === 0) return;
  const breach = firstBreach(flat, op.rules, (rule) => isRuntime(rule) && isAccessFault(rule), now);
  if (breach !== null) throw answerOf(op, breach, flat);
}

/** The rule sites of the branches an operation's handler checks first (`rulesFirst`), by operation. */
const firstSites = new WeakMap<SimOperation, readonly RuleSite<ContractRule>[]>();

function sitesFirst(op: SimOperation): readonly RuleSite<ContractRule>[] {
  let sites = firstSites.get(op);
  if (sites === undefined) {
    const first = op.rulesFirst;
    sites =
      first === null
        ? []
        : op.rules.filter((site) => {
            const step = site.at[0];
            return (
              typeof step === "object" &&
              step !== null &&
              "if" in step &&
              step.if === first.member &&
              step.in.every((value) => first.in.includes(String(value)))
            );
          });
    firstSites.set(op, sites);
  }
  return sites;
}

/**
 * The runtime rules of the body branches the handler checks first, as it maps the
 * request to its own models (`x-powercontext-rule-answer` `first`): before any lookup,
 * each issue at its rule's own `loc`.
 *
 * @param flat - the flat request
 * @param now - the simulator's clock, ms since the epoch
 * @throws SimError the answer of the first such rule the request breaks
 */
export function checkFirstRules(op: SimOperation, flat: unknown, now: number): void {
  const sites = sitesFirst(op);
  if (sites.length === 0) return;
  const breach = firstBreach(flat, sites, isRuntime, now, digestOf);
  if (breach !== null) throw answerFor(op, breach.rule.answer, breach, flat, "standalone");
}

/**
 * The body as the model of its `oneOf` branch the choosing parameter names
 * (`x-powercontext-rule-answer` `branches`): a body that model refuses answers as a
 * breach of the operation's rules does. Checked with the runtime rules.
 *
 * @param flat - the flat request (the choosing parameter by its wire name)
 * @throws SimError the operation's rule answer for a body the chosen model refuses
 */
export function checkBodyBranch(op: SimOperation, body: unknown, flat: unknown): void {
  const branches = op.bodyBranches;
  if (branches === null) return;
  const chosen = (flat as Record<string, unknown> | null)?.[branches.parameter];
  const validate =
    typeof chosen === "string" && Object.hasOwn(branches.validators, chosen) ? branches.validators[chosen] : undefined;
  if (validate === undefined || validate(body)) return;
  const refusal = Object.hasOwn(branches.refusals, chosen as string) ? branches.refusals[chosen as string] : undefined;
  if (refusal !== undefined) throw new SimError(refusal.status, refusal.code, "The request is invalid.", null);
  const issue = validate.errors?.[0];
  const member = (issue?.instancePath ?? "").split("/")[1] ?? null;
  throw answerFor(op, null, { at: [], member, message: issue?.message ?? "does not match its model" }, flat);
}

/**
 * @param flat - the flat request
 * @param now - the simulator's clock, ms since the epoch (`after-now` compares with it)
 * @throws SimError the answer of the first runtime rule the request breaks
 */
export function checkRuntimeRules(op: SimOperation, flat: unknown, now: number): void {
  if (op.rules.length === 0) return;
  const breach = firstBreach(flat, op.rules, isRuntime, now, digestOf);
  if (breach !== null) throw answerOf(op, breach, flat);
}

/** `reason` with each `{member}` replaced by that member's value in the flat request. */
function filled(reason: string, flat: unknown): string {
  const members = (typeof flat === "object" && flat !== null ? flat : {}) as Record<string, unknown>;
  return reason.replace(/\{([^}]+)\}/g, (_, name: string) => String(members[name] ?? ""));
}

function answerOf(op: SimOperation, breach: RuleBreach<ContractRule>, flat: unknown): SimError {
  return answerFor(op, breach.rule.answer, breach, flat);
}

/**
 * The answer `ruleAnswer` gives (an issue at `breach`'s place by default), as `issues`
 * shapes issues (default: the operation's rule answer).
 */
function answerFor(
  op: SimOperation,
  ruleAnswer: ContractRule["answer"],
  breach: Place,
  flat: unknown,
  issues: SimOperation["ruleIssues"] = op.ruleIssues,
): SimError {
  const answer = ruleAnswer ?? { kind: "issue", type: "value_error", loc: null };
  switch (answer.kind) {
    case "opaque":
      return opaque();
    case "field":
      return invalidRequest(answer.field, answer.reason);
    case "refusal":
      return new SimError(
        answer.status,
        answer.code,
        // A refusal of the access layer speaks as the access layer does.
        answer.access
          ? accessMessage(answer.code)
          : answer.status >= 500
            ? "The Server failed."
            : "The request is invalid.",
        answer.details === null ? null : (structuredClone(answer.details) as Record<string, unknown>),
      );
    case "issue": {
      if (issues === "opaque") return opaque();
      if (typeof issues === "object") return invalidRequest(issues.field, filled(issues.reason, flat));
      // A loc the rule states wins; `object` is where the object carrying the rule is.
      const whole = issues === "body" ? [...breach.at] : [];
      const loc =
        answer.loc === "object"
          ? whole
          : answer.loc !== null
            ? [...answer.loc]
            : issues === "body"
              ? bodyLoc(breach)
              : breach.member === null
                ? []
                : [breach.member];
      // The release's handler answers 400 for an issue located at a member named `query` under /v1/scopes/.
      const status = op.path.startsWith("/v1/scopes/") && loc[0] === "query" ? 400 : 422;
      const msg = answer.type === "value_error" ? `Value error, ${breach.message}` : breach.message;
      return contractViolation(status, [{ type: answer.type, loc, msg }]);
    }
  }
}

/** `422 invalid_request` without details: the release caught its model's fault and names no member. */
function opaque(): SimError {
  return new SimError(422, "invalid_request", "The request is invalid.", null);
}

/**
 * `request` with the body members and query values the operation's runtime rewrite
 * rules name rewritten (`trim`, `sort-items`: a Scope search's words without the
 * whitespace around them, in `query` and `queryAll` alike) and the members sent as null
 * that `null-as-absent` rules name left out; the request itself when there are none.
 */
export function keptRequest(op: SimOperation, request: SimRequest, flat: unknown): SimRequest {
  if (op.rules.length === 0) return request;
  const kept = rewritten(flat, op.rules, isRuntime);
  if (kept === flat) return request;
  const members = kept as Record<string, unknown>;
  const before = flat as Record<string, unknown>;
  let next = request;
  const query = request.query;
  const changed = op.parameters.query
    .map((parameter) => parameter.name)
    .filter(
      (name) => query?.[name] !== undefined && typeof members[name] === "string" && members[name] !== before[name],
    );
  if (changed.length > 0) {
    const values = Object.fromEntries(changed.map((name) => [name, members[name] as string]));
    const all = request.queryAll;
    next = {
      ...next,
      query: { ...query, ...values },
      ...(all === undefined
        ? {}
        : { queryAll: { ...all, ...Object.fromEntries(changed.map((name) => [name, [values[name] as string]])) } }),
    };
  }
  if (op.body === null) return next;
  const body = request.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { ...next, body: kept };
  // A request with parameters holds the body's members beside them.
  const keys = Object.keys(body).filter((key) => Object.hasOwn(members, key));
  return { ...next, body: Object.fromEntries(keys.map((key) => [key, members[key]])) };
}
