// The random run's instrument, with Node alone: the requests are drawn from openapi.yaml
// here (the release's contract plus our overlay, the same schemas), and from the
// release's own contract too where the venv is installed. Checks that the same seed
// draws the same requests, every operation gets its K, valid requests are valid and
// each faulted one breaks exactly one rule the contract's validator finds at its site,
// and that references resolve per side.
import { describe, expect, it } from "vitest";
import { loadOurs, loadRelease } from "../../contract/documents.js";
import { pythonTools } from "../../real/tools.js";
import { Contract, type Schema } from "../../../packages/msw/src/verify/random/contract.js";
import { FAULT_KINDS, type FaultKind } from "../../../packages/msw/src/verify/random/faults.js";
import { AnswerRef, idKind, resolveValue } from "../../../packages/msw/src/verify/random/identity.js";
import { catalogueOf, changedPointers, drawAll, syntheticAnswers } from "./instrument-support.js";
import {
  drawRequest,
  schedule,
  toHttp,
  type LogicalRequest,
} from "../../../packages/msw/src/verify/random/requests.js";
import { Random } from "../../../packages/msw/src/verify/random/rng.js";
import { RequestValidator } from "./validate.js";

const ours = new Contract(loadOurs() as Schema);
const contracts: [string, () => Contract][] = [["openapi.yaml", () => ours]];
// the release's own contract, when the venv can be read (never skipped loudly: openapi.yaml covers the instrument)
if (pythonTools().ok) contracts.push(["the release's contract", () => new Contract(loadRelease() as Schema)]);

const json = (request: LogicalRequest) => JSON.stringify(request);

/** The value with every reference replaced by the random value drawn for it. */
function fallbacks(value: unknown): unknown {
  if (value instanceof AnswerRef) return value.fallback;
  if (Array.isArray(value)) return value.map(fallbacks);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fallbacks(v)]));
  return value;
}

describe("the schedule and the streams", () => {
  it("gives every operation exactly K requests, one per round, creators first in the first round", () => {
    const slots = schedule(ours, 5, 3);
    expect(slots).toHaveLength(ours.operations.length * 3);
    const counts = new Map<string, number[]>();
    for (const slot of slots)
      counts.set(slot.operation.operationId, [...(counts.get(slot.operation.operationId) ?? []), slot.k]);
    expect([...counts.values()].every((ks) => JSON.stringify(ks) === "[0,1,2]")).toBe(true);
    const first = slots.slice(0, ours.operations.length).map((s) => s.operation);
    const creates = first.map((o) => o.successStatuses.some((s) => s === 201 || s === 202));
    expect(creates.indexOf(false)).toBeGreaterThan(5);
    expect(creates.slice(creates.indexOf(false))).not.toContain(true);
    expect(first[0]!.parameters.filter((p) => p.in === "path")).toEqual([]);
  });

  it("orders rounds by the seed", () => {
    const order = (seed: number) => schedule(ours, seed, 2).map((s) => s.operation.operationId);
    expect(order(5)).toEqual(order(5));
    expect(order(5)).not.toEqual(order(6));
  });

  it("draws unrelated numbers for neighbouring labels", () => {
    const firsts = Array.from({ length: 400 }, (_, k) => Random.stream(9, "ids", "op", k).float());
    const below = firsts.filter((x) => x < 0.6).length / firsts.length;
    expect(below).toBeGreaterThan(0.5);
    expect(below).toBeLessThan(0.7);
    const pairs = firsts.slice(1).map((x, i) => [firsts[i]!, x] as const);
    const mean = firsts.reduce((a, b) => a + b, 0) / firsts.length;
    const cov = pairs.reduce((sum, [a, b]) => sum + (a - mean) * (b - mean), 0) / pairs.length;
    const variance = firsts.reduce((sum, a) => sum + (a - mean) ** 2, 0) / firsts.length;
    expect(Math.abs(cov / variance)).toBeLessThan(0.15);
  });
});

describe("drawing requests", () => {
  const answers = syntheticAnswers(ours, "a");

  it("draws the same requests from the same seed and ids, other ones from another seed", () => {
    const once = drawAll(ours, 11, 2, answers).map((d) => json(d.request));
    expect(drawAll(ours, 11, 2, answers).map((d) => json(d.request))).toEqual(once);
    const other = drawAll(ours, 12, 2, answers).map((d) => json(d.request));
    expect(other.filter((text, i) => text !== once[i]).length).toBeGreaterThan(once.length / 2);
  });

  it("keeps a request's form whatever ids were seen: only which values are references changes", () => {
    const without = drawAll(ours, 3, 2, []);
    const withIds = drawAll(ours, 3, 2, answers);
    let references = 0;
    without.forEach((drawn, i) => {
      const other = withIds[i]!.request;
      expect(other.fault?.kind, drawn.request.operation).toBe(drawn.request.fault?.kind);
      const plain = (r: LogicalRequest) => JSON.stringify(fallbacks({ params: r.params, body: r.body }));
      expect(plain(other)).toBe(plain(drawn.request));
      references += (json(other).match(/<answer /g) ?? []).length;
    });
    expect(references).toBeGreaterThan(50);
  });

  it("takes about 60% of ids from earlier answers when there are some", () => {
    let [real, all] = [0, 0];
    for (const { valid } of drawAll(ours, 4, 6, answers)) {
      for (const [name, value] of Object.entries(valid.params)) {
        if (idKind(name) === null || valid.locations[name] !== "path") continue;
        all++;
        if (value instanceof AnswerRef) real++;
      }
    }
    expect(all).toBeGreaterThan(250);
    expect(real / all).toBeGreaterThan(0.5);
    expect(real / all).toBeLessThan(0.7);
  });

  it("faults about one request in four, each kind somewhere", () => {
    const drawn = drawAll(ours, 21, 8, answers);
    const faulted = drawn.filter((d) => d.request.fault !== null);
    expect(faulted.length / drawn.length).toBeGreaterThan(0.18);
    expect(faulted.length / drawn.length).toBeLessThan(0.3);
    // format faults need a date member, which few requests hold: their own test below finds them;
    // duplicate-items faults need a list that says uniqueItems, which openapi.yaml's requests no longer
    // hold (the release's request models do not enforce them: runtime rules)
    const kinds = new Set(faulted.map((d) => d.request.fault!.kind));
    const rare = ["format", "duplicate-items"];
    expect(FAULT_KINDS.filter((kind) => !kinds.has(kind) && !rare.includes(kind))).toEqual([]);
  });
});

describe("references resolve on each side against that side's answers", () => {
  const a = syntheticAnswers(ours, "a");
  const b = syntheticAnswers(ours, "b");
  const drawn = drawAll(ours, 8, 2, a, false).map((d) => d.request);
  // requests holding a reference to an id (a family or revision reads the same on both sides)
  const withRefs = drawn.filter((r) => /<answer 0 \/[a-z_]+_(id|key)>/.test(json(r)));

  it("sends each side its own id for the same logical request", () => {
    expect(withRefs.length).toBeGreaterThan(50);
    for (const request of withRefs) {
      const [left, right] = [toHttp(request, a), toHttp(request, b)];
      const text = (http: typeof left) => `${http.target} ${http.body} ${JSON.stringify(http.headers)}`;
      expect(text(left)).toMatch(/\ba-[a-z_]+_(id|key)\b/);
      expect(text(right)).toMatch(/\bb-[a-z_]+_(id|key)\b/);
      expect(text(right)).not.toMatch(/\ba-[a-z_]+_(id|key)\b/);
      expect(text(left)).not.toMatch(/\bb-[a-z_]+_(id|key)\b/);
      expect(left.unresolved).toEqual([]);
      expect(right.unresolved).toEqual([]);
    }
  });

  it("offers only the ids both sides' answers hold, at the same place", () => {
    const release = {
      status: 200,
      body: { scope_ids: ["scp_1", "scp_2"], artifact_id: "art_1", family: "skill" },
      etag: null,
    };
    const mock = { status: 200, body: { scope_ids: ["scp_m"], artifact_id: 7 }, etag: null };
    const catalogue = catalogueOf([]);
    catalogue.add(0, release, mock);
    expect(catalogue.values("scope_id")).toEqual(["scp_1"]);
    expect(catalogue.values("artifact_id")).toEqual([]);
    catalogue.add(1, release, { ...mock, status: 404 });
    expect(catalogue.values("scope_id")).toEqual(["scp_1"]);
    catalogue.add(2, release);
    expect(catalogue.values("scope_id")).toEqual(["scp_1", "scp_2"]);
    expect(catalogue.values("family")).toEqual(["skill"]);
  });

  it("pairs ids only where both sides' objects are the same kind of thing (role, state, action)", () => {
    const binding = (binding_id: string, role: string) => ({
      binding_id,
      role,
      state: "active",
      idempotency_key: `preset:${role}:${binding_id}`,
      created_at: `2026-12-04T00:00:0${binding_id.length % 10}Z`,
    });
    const release = {
      status: 200,
      body: { items: [binding("b-1", "server.admin"), binding("b-2", "scope.viewer")] },
      etag: null,
    };
    const mock = {
      status: 200,
      body: { items: [binding("m-1", "scope.contributor"), binding("m-2", "scope.viewer")] },
      etag: null,
    };
    const catalogue = catalogueOf([]);
    catalogue.add(0, release, mock);
    // The first items are different bindings (another role): only the second pair is offered.
    expect(catalogue.values("binding_id")).toEqual(["b-2"]);
  });

  it("pairs each side's ids one to one: a list ordered by ids the sides drew differently pairs nothing new", () => {
    const created = (scope_id: string) => ({ status: 201, body: { scope_id, title: "t" }, etag: null });
    const report = (scope_ids: string[]) => ({ status: 200, body: { scope_ids }, etag: null });
    const catalogue = catalogueOf([]);
    catalogue.add(0, created("scp_b"), created("scp_m9"));
    // Both sides list their default Scope and the created one by id: the release's default
    // sorts after it, the mock's before it; neither place pairs the same two Scopes.
    catalogue.add(1, report(["scp_b", "scp_z"]), report(["scp_m1", "scp_m9"]));
    expect(catalogue.values("scope_id")).toEqual(["scp_b"]);
    expect(catalogue.recordsOf("scope_id", "scp_b").map((r) => r.request)).toEqual([0]);
    // Where the places agree with the pairing so far, the new id is paired and offered.
    catalogue.add(2, report(["scp_z", "scp_b"]), report(["scp_m1", "scp_m9"]));
    expect(catalogue.values("scope_id")).toEqual(["scp_b", "scp_z"]);
    expect(catalogue.recordsOf("scope_id", "scp_b").map((r) => r.request)).toEqual([0, 2]);
  });

  it("leaves out a value an answer only repeats from its request", () => {
    const catalogue = catalogueOf([]);
    const echoed = { status: 200, body: { scope_id: "7", source_id: "src_1" }, etag: null, sent: new Set(["7"]) };
    catalogue.add(0, echoed, { ...echoed, body: { scope_id: "scp_m", source_id: "src_m" }, sent: new Set(["7"]) });
    expect(catalogue.values("scope_id")).toEqual([]);
    expect(catalogue.values("source_id")).toEqual(["src_1"]);
    catalogue.add(
      1,
      { ...echoed, sent: new Set() },
      { ...echoed, body: { scope_id: "x", source_id: "y" }, sent: new Set(["x"]) },
    );
    expect(catalogue.values("scope_id")).toEqual([]);
    expect(catalogue.values("source_id")).toEqual(["src_1"]);
  });

  it("falls back to the drawn random value where a side's answer was no 2xx, and says so", () => {
    const refused = [{ ...b[0]!, status: 404 }];
    for (const request of withRefs.slice(0, 20)) {
      const http = toHttp(request, refused);
      expect(http.unresolved.length).toBeGreaterThan(0);
      expect(`${http.target} ${http.body}`).not.toMatch(/\bb-[a-z_]+_(id|key)\b/);
    }
  });
});

describe.each(contracts)("drawn from %s", (_, load) => {
  const contract = load();
  const validator = new RequestValidator(contract);
  const answers = syntheticAnswers(contract, "a");
  const errorsOf = (r: LogicalRequest) => {
    const missed: AnswerRef[] = [];
    const params = resolveValue(r.params, answers, missed) as Record<string, unknown>;
    const body = resolveValue(r.body, answers, missed);
    expect(missed).toEqual([]);
    return validator.errors(r.operation, params, body);
  };

  it("draws valid requests the contract accepts, ids from answers included", () => {
    const refused = drawAll(contract, 31, 4, answers, false)
      .map((d) => d.request)
      .map((r) => ({ operation: r.operation, errors: errorsOf(r).slice(0, 2) }))
      .filter((r) => r.errors.length > 0);
    expect(refused).toEqual([]);
  });

  it.each(FAULT_KINDS)(
    "puts one fault of kind %s in exactly one place, where the contract's validator finds it",
    (kind) => {
      const catalogue = catalogueOf(answers);
      let found = 0;
      for (const [index, operation] of contract.operations.entries()) {
        for (let k = 0; k < 3; k++) {
          const context = { seed: 41, index: 1 + index, k, catalogue, fault: true, faultKind: kind as FaultKind };
          const drawn = drawRequest(contract, operation, context);
          const fault = drawn.request.fault;
          if (fault === null) continue;
          found++;
          const where = `${operation.operationId} k=${k}: ${fault.detail}`;
          expect(fault.kind).toBe(kind);
          expect(errorsOf(drawn.valid), where).toEqual([]);
          const errors = errorsOf(drawn.request);
          expect(errors.length, where).toBeGreaterThan(0);
          const site = `/${fault.part}${fault.pointer}`;
          const near = errors.some((e) => e.instancePath.startsWith(site) || site.startsWith(e.instancePath));
          expect(near, `${where}: ${JSON.stringify(errors.slice(0, 3))}`).toBe(true);
          const changed = changedPointers(
            { params: drawn.valid.params, body: drawn.valid.body },
            { params: drawn.request.params, body: drawn.request.body },
          );
          expect(changed, where).toHaveLength(1);
          expect(changed[0]!.startsWith(site), `${where}: changed ${changed[0]}`).toBe(true);
        }
      }
      // openapi.yaml's requests hold no list that says uniqueItems (runtime rules stand for them), so a
      // duplicate-items fault is drawn only from the release's contract (the run's "Per fault kind" table)
      if (kind !== "duplicate-items") expect(found).toBeGreaterThan(kind === "format" ? 2 : 20);
    },
  );
});
