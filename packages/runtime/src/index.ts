/**
 * `@powercontext/runtime`: the hand-written runtime that every generated
 * PowerContext client imports by package name (browser-safe entry). It knows
 * no operation of its own: everything per operation comes from the descriptors
 * and validators the generator writes (see this package's README).
 */
export type { CallOptions } from "./call-options.js";
export {
  optionsFromEnv,
  parseSecondsToMs,
  ENV_API_TOKEN,
  ENV_SERVER_URL,
  ENV_TIMEOUT,
  DEFAULT_SERVER_URL,
} from "./config/env.js";
export type { ClientOptions, DispatcherLike, Logger } from "./config/options.js";
export { FETCH_PLATFORM, type Platform } from "./config/platform.js";
export { resolveConfig, type ResolvedConfig } from "./config/resolve.js";
export * from "./errors.js";
export * from "./operations/operation-errors.js";
export { OperationNotServedError } from "./not-served-error.js";
export { GuardedConflictError, type ResourceStateFields } from "./guarded-conflict-error.js";
export { declareErrorClass, errorBrand } from "./error-brand.js";
export { detailMember, hasServerErrorCode, isDeclaredError } from "./error-code-guards.js";
export type * from "./descriptor.js";
export type { OperationRow } from "./operation-row.js";
export { createCaller, type CallerParts, type OperationCaller } from "./core/create-caller.js";
export { createRuntime, descriptorFor, type Runtime } from "./core/runtime.js";
export { validatorsByOperation } from "./core/validator-table.js";
export { operationsById } from "./core/operation-table.js";
export { runOperation, type CallContext, type OperationResult } from "./core/run-operation.js";
export { recoverVersionConflict } from "./core/recover-conflict.js";
export type { Reconciler, ConflictCall, RuntimeInput } from "./core/runtime.js";
export { submit, callOperation, callWithResponse, type Submission } from "./operations/submit.js";
export type { Middleware, MiddlewareRequest, MiddlewareResponse } from "./config/middleware-hooks.js";
export { sendThroughMiddleware, type MiddlewareConfig, type MiddlewareRunner } from "./core/middleware.js";
export { CallPromise, type RawResponse, type WithResponse } from "./core/call-promise.js";
export { paginate } from "./operations/paginate.js";
export { waitForOperation, type WaitOptions } from "./operations/wait-for-operation.js";
export { operationIdFromLocation } from "./operations/location.js";
export { decideRetry, type AttemptOutcome, type RetryDecision, type RetryOptions } from "./retry/policy.js";
export { RetryBudget, DEFAULT_RETRY_BUDGET, type RetryBudgetOptions } from "./retry/budget.js";
export { backoffDelay, type BackoffOptions, type Jitter } from "./retry/backoff.js";
export { parseRetryAfter } from "./retry/retry-after.js";
export type { RetryEvent } from "./retry/run-with-retry.js";
export type { Reconciled } from "./retry/reconcile.js";
export type { FetchLike, FetchInit } from "./transport/fetch-adapter.js";
export { fetchTransport } from "./transport/fetch-adapter.js";
export type { Transport, TransportRequest, TransportResponse, HeaderReader } from "./transport/port.js";
export { ATTEMPT_TIMEOUT } from "./transport/port.js";
export { normalizeBaseUrl, isLoopbackHost } from "./transport/url.js";
export { MIN_SECRET_LENGTH, redact, secretsOf } from "./transport/sanitize.js";
export { redactJson, secretSpellings, TRUNCATED } from "./core/redact-answer.js";
export { writeParameters } from "./transport/write-parameters.js";
// Set by the generator on the rows that declare responseMedia (ADR 0034), as writeParameters on rows with parameters.
export { readResponseMedia } from "./core/response-media.js";
export type { SpanLike, SpanOptionsLike, TracerLike, TelemetryOptions } from "./telemetry/tracer.js";
export {
  openTelemetry,
  type AttemptSpan,
  type CallSpan,
  type CallOutcome,
  type SpanStarter,
} from "./telemetry/call-span.js";
