export { ManualClock, systemClock, isoTime, MANUAL_CLOCK_EPOCH_MS, type Clock } from "./clock.js";
export { SeededRandom } from "./random.js";
export { SimError, type ErrorEnvelope } from "./errors.js";
export { MAX_BODY_DEPTH } from "./nesting.js";
export {
  BODY_TOO_LARGE,
  INVALID_JSON,
  isReset,
  type Permission,
  type SimRequest,
  type SimResponse,
  type SimReset,
  type SimOutcome,
} from "./types.js";
export {
  simOperations,
  simOperationIds,
  isSimOperationId,
  requiresCredentials,
  declaredStatuses,
  type SimOperation,
  type SimOperationId,
} from "./contract/operation-table.js";
export type { OverrideHandler, OverrideResponse } from "./overrides.js";
export {
  defaultPrincipals,
  parsePrincipalConfig,
  Principal,
  PrincipalRegistry,
  type FileBinding,
  type LegacyPrincipalSpec,
  type PrincipalConfig,
  type PrincipalRef,
  type PrincipalSpec,
} from "./access/principals.js";
export { TOPIC_BUDGET, TOPIC_BINDING, type TopicTiming } from "./topic-memory.js";
export type { TopicBlock } from "./topic-blocks.js";
export type { FlushTiming, FlushSubmission } from "./flush.js";
export type { OperationError, FlushResult } from "./operations.js";
export type { FaultAction, FaultRule } from "./faults.js";
export type { SimulatorControls } from "./controls.js";
export type { SimulatorInspector } from "./inspect.js";
export { createPowerContextSimulator, type PowerContextSimulator, type SimulatorOptions } from "./simulator.js";
export type { InferenceMode } from "./refusal-facts.js";
