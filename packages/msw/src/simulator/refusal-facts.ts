import type { RefusalFacts } from "./contract/refusals.js";
import type { SimulatorState } from "./state.js";
import { isoTime } from "./clock.js";

/** Whether the simulated server has an inference model: `on` (the mock's default) or `off` (a default 1.4.1 install). */
export type InferenceMode = "on" | "off";

/** The facts the contract's refusal conditions read, over the simulator's state. */
export function refusalFacts(state: SimulatorState, inference: InferenceMode, now: () => number): RefusalFacts {
  return {
    inference,
    requireScope: (scopeId) => {
      state.scopes.require(scopeId);
    },
    // Only Sources with content to extract need the model; a window of working notes does not.
    // A processor whose window the mock does not keep (the Profile's) counts every such Source.
    pending: (kind, scopeId) =>
      state.sources.extractable(scopeId, kind === "sources" ? state.flush.cursor(scopeId) : 0),
    find: (resource, keys, id) => state.store.find(resource, keys, id)?.current,
    record: ({ extractionFailure }) => {
      state.extraction.lastFailure = { ...extractionFailure, occurred_at: isoTime(now()) };
    },
  };
}
