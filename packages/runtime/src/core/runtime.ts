import type { ClientOptions } from "../config/options.js";
import type { Platform } from "../config/platform.js";
import { hideSecrets, resolveConfig, type ResolvedConfig } from "../config/resolve.js";
import type { OperationDescriptor, OperationTable, OperationValidators, ValidatorMap } from "../descriptor.js";
import type { ContractErrorTable } from "../errors.js";
import type { CallContext, OperationResult } from "./call-context.js";
import { sendThroughMiddleware, type MiddlewareRunner } from "./middleware.js";

/** What a {@link Reconciler} knows about the call whose last attempt failed. */
export interface ConflictCall {
  /** The runtime the call went through. */
  readonly runtime: Runtime;
  /** The guarded operation that met the conflict. */
  readonly descriptor: OperationDescriptor;
  /** The flat request object of the call. */
  readonly request: unknown;
  /** The call's options and inherited deadline. */
  readonly context: CallContext;
  /** Absolute deadline of the call, or null. */
  readonly deadlineAt: number | null;
  /** Absolute URL the call was sent to. */
  readonly requestUrl: string;
}

/**
 * Recovers a call from a failure its retry policy will not retry; resolves
 * to undefined when it cannot (see `recoverVersionConflict`).
 */
export type Reconciler = (
  call: ConflictCall,
  error: unknown,
  earlierUncertain: boolean,
) => Promise<OperationResult | undefined>;

/**
 * Everything the runtime core needs for a call: resolved options plus the
 * operation table and validators it was given. Both tables are optional so
 * that an application calling one operation can pass only that descriptor
 * and bundle nothing else.
 */
export interface Runtime extends ResolvedConfig {
  /** Descriptors by operationId; needed for polling, reconciliation and `request(operationId)`. */
  operations: OperationTable | null;
  /** Validators by operationId; when absent for an operation, its bodies are not schema-checked. */
  validators: ValidatorMap | null;
  /**
   * Guarded-conflict reconciliation (runtime README, "Retries"); null disables it. It needs
   * `operations` to find the read operation, so runtimes without a table
   * (`createCaller`) leave it out and bundle none of its code.
   */
  reconcile: Reconciler | null;
  /** Contract error classes by envelope code (docs/architecture.md); null raises the status classes only. */
  contractErrors: ContractErrorTable | null;
  /**
   * Runs an attempt through `middleware`; null when there is none to run, so
   * an attempt goes straight to the transport (and `createCaller`, which
   * holds it only when given, bundles none of the middleware code).
   */
  runMiddleware: MiddlewareRunner | null;
}

/** Inputs of {@link createRuntime}. */
export interface RuntimeInput {
  /** The operation table (the generated `operations`); needed by polling, paging and reconciliation. */
  operations?: OperationTable;
  /** Validators by operationId (the generated `validatorMap`); without them bodies are not checked against the schema. */
  validators?: ValidatorMap;
  /**
   * Guarded-conflict reconciliation, injected by the facade (the SDK passes
   * `recoverVersionConflict`); without it a guarded `409` after an uncertain
   * re-send is raised as it is. Injecting it keeps this module free of the
   * operation runner (no import cycle) and lets a bundle leave it out.
   */
  reconcile?: Reconciler;
  /**
   * Contract error classes by envelope code (the generated `contractErrorsByCode`);
   * without them an error with a contract code raises its status class, with the
   * same `code` and `details`, and guarded conflicts are not reconciled.
   */
  contractErrors?: ContractErrorTable;
  /**
   * Headers sent on every request (the generated `clientHeaders`: what the server's own
   * client declares, such as the contract versions it speaks). A header of the same name
   * in `options.headers` or a call's `headers`, in any case, is sent instead.
   */
  clientHeaders?: Readonly<Record<string, string>>;
}

/**
 * Validates `options` and builds a runtime.
 *
 * @param platform the entry's default transport (see `resolveConfig`).
 * @throws ConfigurationError for bad options (before any request).
 */
export function createRuntime(options: ClientOptions, tables: RuntimeInput = {}, platform?: Platform): Runtime {
  const operations = tables.operations ?? null;
  const config = resolveConfig(options, platform);
  return hideSecrets({
    ...config,
    headers: withClientHeaders(tables.clientHeaders, config.headers),
    operations,
    validators: tables.validators ?? null,
    reconcile: operations === null ? null : (tables.reconcile ?? null),
    contractErrors: tables.contractErrors ?? null,
    runMiddleware: config.middleware.length === 0 ? null : sendThroughMiddleware,
  });
}

/**
 * A runtime's headers: `clientHeaders`, then the caller's `headers`, under lower-case names,
 * so a caller's header replaces a client header of the same name in any case (and a call's
 * `headers`, written after these, replace either).
 */
export function withClientHeaders(
  clientHeaders: Readonly<Record<string, string>> | undefined,
  headers: Readonly<Record<string, string>>,
): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries(clientHeaders ?? {})) merged[name.toLowerCase()] = value;
  for (const [name, value] of Object.entries(headers)) merged[name.toLowerCase()] = value;
  return merged;
}

/** The validators of one operation, if the runtime has them. */
export function validatorsFor(runtime: Runtime, operationId: string): OperationValidators | undefined {
  return runtime.validators?.[operationId];
}

/**
 * Looks up a descriptor by operationId.
 *
 * @throws Error naming the operation when the runtime has no table or no such row
 *   (a programming error: hosts pass ids from the generated `OperationId` union).
 */
export function descriptorFor(runtime: Runtime, operationId: string): OperationDescriptor {
  const descriptor = runtime.operations?.[operationId];
  if (descriptor === undefined) throw new Error(`unknown PowerContext operation: ${operationId}`);
  return descriptor;
}
