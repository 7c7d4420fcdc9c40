import {
  callOperation,
  createRuntime,
  descriptorFor,
  optionsFromEnv,
  paginate,
  submit,
  waitForOperation,
  type CallContext,
  type CallOptions,
  type ClientOptions,
  type Runtime,
  type WaitOptions,
} from "@powercontext/runtime";
import { PowerContextOperations, type SubmitOutcome } from "./generated/methods.js";
import {
  operations,
  type AcceptedOf,
  type AsyncOperationId,
  type OperationId,
  type PageTypes,
  type PaginatedOperationId,
  type RequestOf,
  type ResponseOf,
} from "./generated/operations.js";
import { validatorMap } from "./generated/validator-map.js";

/** The Operation resource (seed 002) that `waitForOperation` resolves to. */
export type OperationResource = ResponseOf<"get_operation">;

/** `SubmitOutcome` plus the id of the accepted Operation (null when completed). */
export type ClientSubmitOutcome<K extends AsyncOperationId> = SubmitOutcome<K> & { readonly operationId: string | null };

/** Options of {@link PowerContextClient.waitForOperation}. */
export type WaitForOperationOptions = Pick<WaitOptions, "deadlineMs" | "signal" | "onProgress" | "timeoutMs" | "headers">;

function context(options: CallOptions | undefined): CallContext {
  return options ?? {};
}

/**
 * The PowerContext client (DESIGN §2-§4). One method per operation comes from
 * the generated `PowerContextOperations`; this facade only wires the runtime
 * (transport, retry, operations) to the generated operation table and
 * validators.
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
  readonly #runtime: Runtime;

  /** @throws ConfigurationError when an option is invalid (nothing is sent). */
  constructor(options: ClientOptions) {
    super();
    this.#runtime = createRuntime(options, { operations, validators: validatorMap });
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
    return this.#runtime.baseUrl;
  }

  /**
   * Runs any operation by its wire operationId, for hosts that dispatch by
   * name (same behaviour as the named method).
   */
  request<K extends OperationId>(operationId: K, request: RequestOf<K>, options?: CallOptions): Promise<ResponseOf<K>> {
    return this.call(operationId, request, options);
  }

  protected call<K extends OperationId>(
    operationId: K,
    request: RequestOf<K>,
    options: CallOptions | undefined,
  ): Promise<ResponseOf<K>> {
    const descriptor = descriptorFor(this.#runtime, operationId);
    return callOperation(this.#runtime, descriptor, request, context(options)) as Promise<ResponseOf<K>>;
  }

  /**
   * Sends an asynchronous operation once (with retries) without polling:
   * `completed` with the result, or `accepted` with the Operation, its
   * `Location`, `Retry-After` (ms) and `operationId` to pass to `waitForOperation`.
   */
  override async submit<K extends AsyncOperationId>(
    operationId: K,
    request: RequestOf<K>,
    options?: CallOptions,
  ): Promise<ClientSubmitOutcome<K>> {
    const outcome = await submit(this.#runtime, descriptorFor(this.#runtime, operationId), request, context(options));
    if (!outcome.accepted) {
      return {
        state: "completed",
        status: outcome.statusCode,
        result: outcome.result as ResponseOf<K>,
        requestId: outcome.requestId,
        operationId: null,
      };
    }
    return {
      state: "accepted",
      status: outcome.statusCode,
      operation: outcome.body as AcceptedOf<K>,
      location: outcome.location,
      retryAfterMs: outcome.retryAfterMs,
      requestId: outcome.requestId,
      operationId: outcome.operationId,
    };
  }

  /** Yields every item of a paginated operation, fetching pages lazily. */
  override paginate<K extends PaginatedOperationId>(
    operationId: K,
    request: PageTypes[K]["request"],
    options?: CallOptions,
  ): AsyncIterable<PageTypes[K]["item"]> {
    const descriptor = descriptorFor(this.#runtime, operationId);
    return paginate(this.#runtime, descriptor, request as Record<string, unknown>, context(options)) as AsyncIterable<
      PageTypes[K]["item"]
    >;
  }

  /**
   * Polls an Operation until it is terminal (DESIGN §3): resolves to the
   * succeeded Operation; throws OperationFailedError / OperationCancelledError
   * for the other terminal states and OperationPendingError (with the id) when
   * `deadlineMs` (default: the client's `operationDeadlineMs`, 60 s) passes
   * first. Honours Retry-After between polls and never busy-loops.
   */
  waitForOperation(operationId: string, options: WaitForOperationOptions = {}): Promise<OperationResource> {
    const poll = Object.values(operations).find((descriptor) => descriptor.async !== null)?.async?.pollOperation;
    if (poll === undefined) throw new Error("the operation table has no asynchronous operation to poll");
    return waitForOperation(this.#runtime, poll, operationId, options) as Promise<OperationResource>;
  }
}
