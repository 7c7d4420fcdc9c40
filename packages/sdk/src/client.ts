import {
  createRuntime,
  optionsFromEnv,
  recoverVersionConflict,
  waitForOperation,
  CallPromise,
  type CallOptions,
  type ClientOptions,
  type WaitOptions,
} from "@powercontext/runtime";
import { PowerContextOperations, type SubmitOutcome } from "./generated/methods.js";
import {
  operations,
  type AsyncOperationId,
  type OperationId,
  type PageTypes,
  type PaginatedOperationId,
  type RequestOf,
  type ResponseOf,
} from "./generated/operations.js";
import { clientHeaders } from "./generated/client-headers.js";
import { contractErrorsByCode } from "./generated/contract-errors.js";
import { validatorMap } from "./generated/validator-map.js";
import { UnknownOperationError } from "./unknown-operation-error.js";

/** The Operation resource (seed 002) that `waitForOperation` resolves to. */
export type OperationResource = ResponseOf<"get_operation">;

/** `SubmitOutcome` plus the id of the accepted Operation (null when completed). */
export type ClientSubmitOutcome<K extends AsyncOperationId> = SubmitOutcome<K> & {
  /** The accepted Operation's id to pass to `waitForOperation`; null when the call completed at once. */
  readonly operationId: string | null;
};

/** Options of {@link PowerContextClient.waitForOperation}. */
export type WaitForOperationOptions = Pick<
  WaitOptions,
  "deadlineMs" | "signal" | "onProgress" | "timeoutMs" | "headers"
>;

/**
 * The PowerContext client (docs/compatibility.md and the runtime README). One method per operation comes from
 * the generated `PowerContextOperations`; this facade only wires the runtime
 * (transport, retry, operations) to the generated operation table and
 * validators. Every request carries the generated `clientHeaders` (the Dream contract
 * header the release's own client sends), unless `options.headers` or a call's
 * `headers` sets the same header.
 *
 * ```ts
 * const client = new PowerContextClient({ baseUrl: "https://pc.example.com", token });
 * const result = await client.flushMemory({ scope_id: "s1" }, { deadlineMs: 30_000 });
 * ```
 *
 * @throws ConfigurationError from the constructor for bad options; each call
 *   throws the errors documented in errors.ts.
 */
export class PowerContextClient extends PowerContextOperations {
  /** @throws ConfigurationError when an option is invalid (nothing is sent). */
  constructor(options: ClientOptions) {
    super(
      createRuntime(options, {
        operations,
        validators: validatorMap,
        reconcile: recoverVersionConflict,
        contractErrors: contractErrorsByCode,
        clientHeaders,
      }),
    );
  }

  /**
   * Builds a client from `POWERCONTEXT_CLIENT_SERVER_URL`,
   * `POWERCONTEXT_CLIENT_API_TOKEN` and `POWERCONTEXT_CLIENT_TIMEOUT` (seconds).
   *
   * @throws ConfigurationError when the URL is missing or a value is invalid.
   */
  static fromEnv(overrides: Partial<ClientOptions> = {}, env?: Record<string, string | undefined>): PowerContextClient {
    return new PowerContextClient(optionsFromEnv(env, overrides));
  }

  /** The normalised base URL requests go to. */
  get baseUrl(): string {
    return this.runtime.baseUrl;
  }

  /**
   * Runs any operation by its wire operationId, for hosts that dispatch by
   * name (same behaviour as the named method, `withResponse()` included).
   *
   * @throws UnknownOperationError (a ClientError, nothing sent; the promise rejects) when `operationId` is not an operation of the contract
   */
  request<K extends OperationId>(
    operationId: K,
    request: RequestOf<K>,
    options?: CallOptions,
  ): CallPromise<ResponseOf<K>> {
    if (typeof operationId !== "string" || !Object.hasOwn(operations, operationId)) {
      return new CallPromise<ResponseOf<K>>(Promise.reject(new UnknownOperationError(String(operationId))));
    }
    return this.call(operationId, request, options);
  }

  /**
   * Sends an asynchronous operation once (with retries) without polling:
   * `completed` with the result, or `accepted` with the Operation, its
   * `Location`, `Retry-After` (ms) and `operationId` to pass to `waitForOperation`.
   * `withResponse()` adds the submission's raw response.
   */
  override submit<K extends AsyncOperationId>(
    operationId: K,
    request: RequestOf<K>,
    options?: CallOptions,
  ): CallPromise<ClientSubmitOutcome<K>> {
    return super.submit(operationId, request, options);
  }

  /** Yields every item of a paginated operation, fetching pages lazily. */
  override paginate<K extends PaginatedOperationId>(
    operationId: K,
    request: PageTypes[K]["request"],
    options?: CallOptions,
  ): AsyncIterable<PageTypes[K]["item"]> {
    return super.paginate(operationId, request, options);
  }

  /**
   * Polls an Operation until it is terminal (docs/architecture.md): resolves to the
   * succeeded Operation; throws OperationFailedError / OperationCancelledError
   * for the other terminal states and OperationPendingError (with the id) when
   * `deadlineMs` (default: the client's `operationDeadlineMs`, 60 s) passes
   * first. Honours Retry-After between polls and never busy-loops.
   */
  waitForOperation(operationId: string, options: WaitForOperationOptions = {}): Promise<OperationResource> {
    const poll = Object.values(operations).find((descriptor) => descriptor.async !== null)?.async?.pollOperation;
    if (poll === undefined) throw new Error("the operation table has no asynchronous operation to poll");
    return waitForOperation(this.runtime, poll, operationId, options) as Promise<OperationResource>;
  }
}
