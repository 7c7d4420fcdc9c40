export {
  verifyServer,
  VerifyUsageError,
  VerifyConnectionError,
  type VerifyOptions,
  type VerifyResult,
} from "./verify-server.js";
export { formatVerify } from "./format-verify.js";
export { junitReport, type VerifyCase } from "./junit.js";
export {
  compareContracts,
  type DriftReport,
  type DriftOperation,
  type DriftChange,
  type OperationDrift,
} from "./drift.js";
export { RANDOM_TARGETS, belowFloors, type Floors, type RandomTargets } from "./random/floors.js";
export type { RandomReport, Tally, DisagreementClass, PathClass, Example } from "./random/report.js";
export type { RandomRow, KeptAnswer, KeptRequest } from "./random/run.js";
