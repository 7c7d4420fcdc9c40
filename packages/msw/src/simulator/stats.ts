import type { JsonRecord } from "./members.js";
import type { ResourceStore } from "./resources/store.js";
import { resolveSelection } from "./scope-selection.js";

/**
 * `get_stats` from the stored state, as the release derives it: the selection
 * resolved into its Scopes, and per Scope its inventory (the Source journal's
 * head, the Artifact heads by family, the Candidates by family and status, the
 * Atomic Memory heads by kind and state), its model usage and recall per day
 * over the period (a simulator calls no model and prepares no recall, so every
 * figure is zero) and its recurrence ledger (empty); the selection's figures
 * are the sums over its Scopes. Lists are ordered by family or kind.
 */

/** The days of each period preset, ending today. */
const PERIOD_DAYS: Readonly<Record<string, number>> = { today: 1, "7d": 7, "30d": 30 };
const DEFAULT_PERIOD = "30d";
const DAY_MS = 86_400_000;
/** The Artifact family the release keeps out of its inventory (legacy Memory collections). */
const LEGACY_FAMILY = "memory";

type Counts = Record<string, number>;

/** The statistics of `selection` over `period` (default 30d) at `nowMs`. */
export function statistics(store: ResourceStore, selection: JsonRecord, period: unknown, nowMs: number): JsonRecord {
  const scopes = resolveSelection(
    store.records("scope", []).map((record) => record.current),
    selection,
  );
  const preset = typeof period === "string" && Object.hasOwn(PERIOD_DAYS, period) ? period : DEFAULT_PERIOD;
  const dates = periodDates(PERIOD_DAYS[preset] as number, nowMs);
  const span = {
    preset,
    start_date: dates[0],
    end_date: dates[dates.length - 1],
    timezone: "UTC",
  };
  const inventories = scopes.map((scope) => inventoryOf(store, String(scope.scope_id)));
  const byScope = scopes.map((scope, index) => ({
    scope_id: scope.scope_id,
    inventory: inventoryAnswer(inventories[index] as Inventory),
    usage: usage(span, dates),
    recall: recall(span, dates),
    recurrence: {
      selected: 0,
      recurred: 0,
      avoided: 0,
      unknown: 0,
      unlinked_handoff_citations: 0,
      needing_review: 0,
      top_revisions: [],
    },
  }));
  return {
    selection,
    scope_ids: scopes.map((scope) => scope.scope_id),
    as_of: new Date(nowMs).toISOString(),
    inventory: inventoryAnswer(sumInventories(inventories)),
    usage: usage(span, dates),
    recall: recall(span, dates),
    by_scope: byScope,
  };
}

function periodDates(days: number, nowMs: number): string[] {
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

const zeroUsage = () => ({ requests: 0, input_tokens: 0, output_tokens: 0 });

function usage(span: JsonRecord, dates: readonly string[]): JsonRecord {
  return {
    period: { ...span },
    totals: { generation: zeroUsage(), embedding: zeroUsage() },
    by_purpose: [],
    daily: dates.map((date) => ({ date, generation: zeroUsage(), embedding: zeroUsage(), by_purpose: [] })),
  };
}

const zeroRecall = () => ({
  preparations: 0,
  ready_preparations: 0,
  comparable_preparations: 0,
  baseline_tokens: 0,
  recalled_tokens: 0,
  token_reduction: 0,
});

function recall(span: JsonRecord, dates: readonly string[]): JsonRecord {
  return { period: { ...span }, totals: zeroRecall(), daily: dates.map((date) => ({ date, ...zeroRecall() })) };
}

interface Inventory {
  sources: number;
  artifacts: Counts;
  candidates: Record<string, Counts>;
  kinds: Record<string, Counts>;
}

function inventoryOf(store: ResourceStore, scopeId: string): Inventory {
  const positions = store.records("source", [scopeId]).map((r) => Number(r.current.position ?? 0));
  const artifacts: Counts = {};
  for (const keys of store.collectionKeys("artifact"))
    if (keys[0] === scopeId && keys[1] !== LEGACY_FAMILY) {
      const count = store.count("artifact", keys);
      if (count > 0) artifacts[String(keys[1])] = count;
    }
  const candidates: Record<string, Counts> = {};
  for (const { current } of store.records("candidate", [scopeId])) {
    const counts = (candidates[String(current.family)] ??= { pending: 0, approved: 0, rejected: 0 });
    const status = String(current.status);
    if (Object.hasOwn(counts, status)) counts[status] = (counts[status] as number) + 1;
  }
  const kinds: Record<string, Counts> = {};
  for (const { current } of store.records("atomic_memory", [scopeId])) {
    const counts = (kinds[String(current.kind)] ??= { active: 0, inactive: 0 });
    const state = current.state === "active" ? "active" : "inactive";
    counts[state] = (counts[state] as number) + 1;
  }
  return { sources: Math.max(0, ...positions), artifacts, candidates, kinds };
}

function sumInventories(inventories: readonly Inventory[]): Inventory {
  const out: Inventory = { sources: 0, artifacts: {}, candidates: {}, kinds: {} };
  const add = (into: Counts, from: Counts) => {
    for (const [key, value] of Object.entries(from)) into[key] = (into[key] ?? 0) + value;
  };
  for (const one of inventories) {
    out.sources += one.sources;
    add(out.artifacts, one.artifacts);
    for (const [family, counts] of Object.entries(one.candidates)) add((out.candidates[family] ??= {}), counts);
    for (const [kind, counts] of Object.entries(one.kinds)) add((out.kinds[kind] ??= {}), counts);
  }
  return out;
}

const total = (counts: Counts) => Object.values(counts).reduce((a, b) => a + b, 0);
const byName = <T>(map: Record<string, T>) => Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** An inventory as the answer carries it. */
function inventoryAnswer(inventory: Inventory): JsonRecord {
  const candidates = byName(inventory.candidates).map(([family, counts]) => ({
    family,
    total: total(counts),
    pending: counts.pending ?? 0,
    approved: counts.approved ?? 0,
    rejected: counts.rejected ?? 0,
  }));
  const kinds = byName(inventory.kinds).map(([kind, counts]) => ({
    kind,
    total: total(counts),
    active: counts.active ?? 0,
    inactive: counts.inactive ?? 0,
  }));
  const sum = (rows: readonly JsonRecord[], member: string) => rows.reduce((a, row) => a + Number(row[member]), 0);
  return {
    sources: { total: inventory.sources, memory_processed: 0, memory_pending: inventory.sources },
    artifacts: {
      total: total(inventory.artifacts),
      by_family: byName(inventory.artifacts).map(([family, count]) => ({ family, total: count })),
    },
    candidates: {
      total: sum(candidates, "total"),
      pending: sum(candidates, "pending"),
      approved: sum(candidates, "approved"),
      rejected: sum(candidates, "rejected"),
      by_family: candidates,
    },
    memory: {
      entries: {
        total: sum(kinds, "total"),
        active: sum(kinds, "active"),
        inactive: sum(kinds, "inactive"),
        by_kind: kinds,
      },
    },
  };
}
