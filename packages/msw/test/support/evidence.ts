import type { PowerContextSimulator } from "../../src/simulator/simulator.js";
import { isReset } from "../../src/simulator/types.js";

/**
 * Evidence a proposal can cite: one content Source captured in `scopeId` (the same one on
 * every call, as a capture under the same id with the same content is replayed), as the
 * release refuses a proposal citing nothing or a Source the Scope does not hold.
 * @returns the `source_refs` naming it
 */
export function evidence(sim: PowerContextSimulator, scopeId = "s1"): { name: string; source_id: string }[] {
  const outcome = sim.handle("capture_content_source", {
    token: "pc-admin",
    body: { scope_id: scopeId, source_id: "evidence-1", content: "What the proposal stands on." },
  });
  if (isReset(outcome) || outcome.status !== 202) throw new Error("the evidence Source was not captured");
  return [{ name: "content", source_id: "evidence-1" }];
}
