// The SDK refuses a request before sending exactly where the released Python client does:
// the client sends only what the release's own request model of the operation accepts, so
// every request here is judged by that model (test/contract/release_request_models.py, run
// against the installed release) and by the SDK's request validator (the schema plus the
// wire model rules, packages/sdk/src/generated/validator-map.ts). The requests are each
// operation's sampled valid request, one violation of each wire rule its request reaches
// (built from the rule's fact), and every list of it with an item sent twice (the release's
// models enforce some of the contract's uniqueItems and not others: the overlay moves those
// into runtime rules, and this decides it from the release).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { firstBreach, type Rule, type RuleSite } from "@powercontext/runtime/rules";
import { validatorMap } from "../../packages/sdk/src/generated/validator-map.js";
import { simOperationIds, simOperations } from "../../packages/msw/src/simulator/contract/operation-table.js";
import { flatRequest } from "../../packages/msw/src/simulator/contract/request-check.js";
import { sampledRequest } from "../../packages/msw/test/support/requests.js";
import { repoRoot, venvBin } from "../real/tools.js";
import { releaseAvailable } from "./documents.js";

const run = releaseAvailable("request models against the installed release");
const exec = promisify(execFile);

type Flat = Record<string, unknown>;
interface Case {
  readonly id: string;
  readonly operation: string;
  readonly request: Flat;
  /** Set for a rule's violation: the release must refuse it. */
  readonly rule?: string;
}

/** A JSON text that may carry NaN (Python's json reads the bare word). */
const NAN = "__not_a_number__";

/** The objects a site reaches in `request` (the same objects, to change in place). */
function objectsAt(request: unknown, at: RuleSite["at"]): Flat[] {
  let found: unknown[] = [request];
  for (const step of at) {
    found = found.flatMap((value) => {
      if (typeof step !== "string")
        return typeof value === "object" && value !== null && step.in.includes((value as Flat)[step.if] as never)
          ? [value]
          : [];
      if (step === "[]") return Array.isArray(value) ? value : [];
      const next = typeof value === "object" && value !== null ? (value as Flat)[step] : undefined;
      return next === undefined || next === null ? [] : [next];
    });
  }
  return found.filter((v): v is Flat => typeof v === "object" && v !== null && !Array.isArray(v));
}

/** Breaks `rule` in `object` (in place), from the rule's own arguments; false when this sample gives nothing to break. */
function violate(rule: Rule, object: Flat): boolean {
  const first = "members" in rule ? rule.members.find((m) => object[m] !== undefined) : undefined;
  switch (rule.kind) {
    case "not-null":
      if (first === undefined) return false;
      object[first] = null;
      return true;
    case "finite-numbers":
      if (first === undefined) return false;
      object[first] = NAN;
      return true;
    case "not-blank":
      if (first === undefined) return false;
      object[first] = "   ";
      return true;
    case "relative-path":
      if (first === undefined) return false;
      object[first] = Array.isArray(object[first]) ? ["a/../b"] : "a/../b";
      return true;
    case "unique-items": {
      const list = first === undefined ? undefined : object[first];
      if (!Array.isArray(list) || list.length === 0) return false;
      object[first as string] = [list[0], list[0]];
      return true;
    }
    case "span":
      if (typeof object[rule.from] !== "number") return false;
      object[rule.to] = (object[rule.from] as number) + rule.max + 1;
      return true;
    case "required-when":
      delete object[rule.member];
      return true;
    case "max-items-together": {
      const item = rule.members.map((m) => object[m]).find((l) => Array.isArray(l) && l.length > 0) as unknown[];
      if (item === undefined) return false;
      for (const m of rule.members) object[m] = [];
      object[rule.members[0] as string] = Array.from({ length: rule.max + 1 }, () => item[0]);
      return true;
    }
    case "exclusive": {
      const given = rule.members.find((m) => object[m] !== undefined);
      const other = rule.members.find((m) => m !== given);
      if (given === undefined || other === undefined) return false;
      object[other] = object[given];
      return true;
    }
    default:
      return false;
  }
}

/** Every list in `value` (at any depth) sent with its first item twice, one change at a time. */
function* duplicated(value: unknown, path: (string | number)[] = []): Generator<(string | number)[]> {
  if (Array.isArray(value)) {
    if (value.length > 0) yield path;
    for (const [i, item] of value.entries()) yield* duplicated(item, [...path, i]);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) yield* duplicated(item, [...path, key]);
  }
}

function withDuplicate(request: Flat, path: (string | number)[]): Flat {
  const copy = structuredClone(request);
  const list = path.reduce<unknown>((node, step) => (node as Flat)[step as string], copy) as unknown[];
  list.push(structuredClone(list[0]));
  return copy;
}

const FP = "ab".repeat(32);

/**
 * Satisfying requests the sampler does not reach, for the operations with wire rules: the
 * code query's kinds with their optional members, and evidence with references.
 */
const SEEDS: Readonly<Record<string, readonly Flat[]>> = {
  query_code: [
    {
      scope_id: "s1",
      operation: { kind: "read", path: "src/a.ts", file_sha256: FP, start_line: 1, end_line: 9 },
      expected_fingerprint: FP,
    },
    {
      scope_id: "s1",
      operation: { kind: "affected_tests", paths: ["src/a.ts"], path_prefix: "src" },
      expected_fingerprint: FP,
    },
    {
      scope_id: "s1",
      operation: { kind: "impact_changes", paths: ["src/a.ts", "src/b.ts"] },
      expected_fingerprint: FP,
      before_fingerprint: FP,
    },
    { scope_id: "s1", operation: { kind: "callers", symbol_id: "s", path_prefix: "src" }, expected_fingerprint: FP },
    { scope_id: "s1", operation: { kind: "map", path_prefix: "src" } },
  ],
  propose_experience: [
    {
      scope_id: "s1",
      proposal: { situation: "s", action: "a", outcome: "o", lesson: "l" },
      source_refs: [{ name: "content", source_id: "a" }],
      artifact_refs: [],
    },
  ],
  search_artifacts: [{ scope_id: "s1", family: "skill", query: "lease", min_score: 0.5, limit: 5 }],
  merge_atomic_memories: [
    {
      scope_id: "s1",
      inputs: ["a1", "a2"].map((artifact_id) => ({
        artifact: { family: "atomic-memory", artifact_id, revision: 1 },
        state_version: 1,
      })),
      content: { schema: "powercontext.atomic-memory.v1", kind: "fact", text: "t" },
    },
  ],
};

function sampleOf(id: (typeof simOperationIds)[number], first: number): Flat[] {
  try {
    return [flatRequest(simOperations[id], sampledRequest(id, first)) as Flat];
  } catch {
    return [];
  }
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const id of simOperationIds) {
    const op = simOperations[id];
    if (op.requestValidator === null) continue;
    let request: Flat;
    try {
      request = flatRequest(op, sampledRequest(id)) as Flat;
    } catch {
      continue;
    }
    out.push({ id: `${id} valid`, operation: id, request });
    // Other samples reach the rules behind other branches (a code query's kinds).
    const samples = op.rules.some((site) => site.rules.some((r) => r.stage === "wire"))
      ? [request, ...[1, 2, 3, 4, 5, 6, 7, 8].flatMap((n) => sampleOf(id, n * 16)), ...(SEEDS[id] ?? [])]
      : [];
    const broken = new Set<string>();
    for (const [n, sample] of samples.entries()) {
      if (SEEDS[id]?.includes(sample)) out.push({ id: `${id} seed ${n}`, operation: id, request: sample });
      for (const site of op.rules) {
        for (const rule of site.rules.filter((r) => r.stage === "wire")) {
          const name = `${id} breaks ${rule.kind} at ${JSON.stringify(site.at)}${"members" in rule ? ` ${rule.members.join(",")}` : ""}`;
          if (broken.has(name)) continue;
          const copy = structuredClone(sample);
          const [object] = objectsAt(copy, site.at);
          if (object === undefined || !violate(rule, object)) continue;
          if (firstBreach(copy, [{ at: site.at, rules: [rule] }]) === null && rule.kind !== "finite-numbers") continue;
          broken.add(name);
          out.push({ id: `${name} (sample ${n})`, operation: id, request: copy, rule: rule.kind });
        }
      }
    }
    for (const path of duplicated(request)) {
      out.push({ id: `${id} twice at ${path.join(".")}`, operation: id, request: withDuplicate(request, path) });
    }
  }
  return out;
}

/** The request without its header parameters: the release's client takes those (If-Match) beside its model. */
function modelPart(operation: string, request: Flat): Flat {
  const headers = new Set(simOperations[operation as keyof typeof simOperations].parameters.header.map((p) => p.name));
  return Object.fromEntries(Object.entries(request).filter(([key]) => !headers.has(key)));
}

async function releaseVerdicts(list: readonly Case[]): Promise<Record<string, string>> {
  const sent = list.map(({ id, operation, request }) => ({ id, operation, request: modelPart(operation, request) }));
  const text = JSON.stringify(sent).replaceAll(JSON.stringify(NAN), "NaN");
  const child = exec(venvBin("python"), ["test/contract/release_request_models.py"], {
    cwd: repoRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
  child.child.stdin?.end(text);
  return JSON.parse((await child).stdout) as Record<string, string>;
}

function sdkVerdict(operation: string, request: Flat): string {
  const validate = (validatorMap as Record<string, { request?: (value: unknown) => boolean }>)[operation]?.request;
  const sent = JSON.parse(JSON.stringify(request).replaceAll(JSON.stringify(NAN), "null"), (_key, value) => value);
  if (JSON.stringify(request).includes(NAN))
    return validate?.({ ...sent, ...nanAt(request) }) === false ? "refuse" : "accept";
  return validate === undefined || validate(sent) ? "accept" : "refuse";
}

/** The members holding the NaN marker, with NaN (the SDK's caller can pass one; JSON cannot). */
function nanAt(request: Flat): Flat {
  return JSON.parse(JSON.stringify(request), (_key, value) => (value === NAN ? Number.NaN : value)) as Flat;
}

describe.runIf(run)("the SDK's request validators against the release's request models", () => {
  it("refuse before sending exactly where the release's Python client refuses", { timeout: 120_000 }, async () => {
    const list = cases();
    const release = await releaseVerdicts(list);
    const served = list.filter((c) => release[c.id] !== "absent");
    const disagreements = served
      .map((c) => ({ id: c.id, release: release[c.id], sdk: sdkVerdict(c.operation, c.request) }))
      .filter((row) => row.release !== row.sdk);
    expect(disagreements).toEqual([]);
    // The valid samples of every served operation with a request, and a violation of every kind of wire rule.
    expect(served.filter((c) => c.id.endsWith(" valid")).length).toBeGreaterThan(100);
    const violations = served.filter((c) => c.rule !== undefined);
    expect(violations.every((c) => release[c.id] === "refuse")).toBe(true);
    expect(new Set(violations.map((c) => c.rule))).toEqual(
      new Set([
        "not-null",
        "finite-numbers",
        "not-blank",
        "relative-path",
        "unique-items",
        "span",
        "required-when",
        "max-items-together",
        "exclusive",
      ]),
    );
  });
});

/**
 * Each member a `null-as-absent` rule names, sent as null in the operation's valid sample:
 * the release's request model takes it (the fact is the release's), and so does the SDK.
 */
function nullCases(): Case[] {
  const out: Case[] = [];
  for (const id of simOperationIds) {
    const op = simOperations[id];
    if (op.requestValidator === null) continue;
    for (const site of op.rules)
      for (const rule of site.rules)
        if (rule.kind === "null-as-absent")
          for (const member of rule.members) {
            const request = structuredClone(sampleOf(id, 0)[0] ?? SEEDS[id]?.[0]);
            const [object] = request === undefined ? [] : objectsAt(request, site.at);
            if (request === undefined || object === undefined) continue;
            object[member] = null;
            out.push({ id: `${id} null ${JSON.stringify(site.at)} ${member}`, operation: id, request });
          }
  }
  return out;
}

describe.runIf(run)("the members the release's request models read as left out when null", () => {
  it("are taken as null by the release's models and by the SDK", { timeout: 120_000 }, async () => {
    const list = nullCases();
    expect(list.length).toBeGreaterThanOrEqual(14);
    const release = await releaseVerdicts(list);
    expect(list.filter((c) => release[c.id] !== "accept").map((c) => `${c.id}: ${release[c.id]}`)).toEqual([]);
    expect(list.filter((c) => sdkVerdict(c.operation, c.request) !== "accept").map((c) => c.id)).toEqual([]);
  });
});
