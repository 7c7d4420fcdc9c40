// Types and the promise class only, with no import: generated method signatures
// name `CallPromise`, and the generator's own type-check loads this file alone.

/**
 * What the client saw of the HTTP response a call's result was read from,
 * returned beside the parsed result by {@link CallPromise.withResponse}.
 *
 * For an operation that answers asynchronously (for example `flush_memory`),
 * this is the submission's response (the `200` or `202`), not a poll's; for a
 * guarded call that was reconciled (`409 version_conflict` after an uncertain
 * attempt, then a read of the resource), `status` is the operation's success
 * status, `headers` are empty and `reconciled` is true.
 */
export interface RawResponse {
  /** HTTP status code of the response, for example 200 or 202. */
  readonly status: number;
  /** The response headers as received. The request's `Authorization` is never among them. */
  readonly headers: Headers;
  /** `X-PowerContext-Request-ID` of the response, or null when it had none. */
  readonly requestId: string | null;
  /** How many HTTP attempts the call made: 1 when the first succeeded, more after retries (polls not counted). */
  readonly attempts: number;
  /** Absolute URL the request was sent to, query string included. */
  readonly url: string;
  /** True when the result came from reconciling a guarded conflict rather than from this response's body. */
  readonly reconciled: boolean;
}

/** The parsed result of a call together with its {@link RawResponse}. */
export interface WithResponse<T> {
  /** The validated, parsed result: what awaiting the call resolves to. */
  readonly data: T;
  /** Status, headers, request id and attempt count of the response the result was read from. */
  readonly response: RawResponse;
}

/**
 * The promise every client method returns. Awaiting it gives the parsed
 * result, exactly as a plain `Promise<T>`; `withResponse()` gives the same
 * call's result together with the raw response (status, headers, request id,
 * attempts). The request is sent once, when the method is called, whichever
 * of the two is used (both may be).
 *
 * ```ts
 * const { data, response } = await client.captureContentSource(request).withResponse();
 * console.log(response.status, response.requestId, response.attempts);
 * ```
 *
 * Rejections are the call's errors (see `errors.ts`), through either form.
 */
export class CallPromise<T> extends Promise<T> {
  readonly #outcome: Promise<WithResponse<T>>;
  #data: Promise<T> | undefined;

  /** Wraps a call's outcome; the call is already under way. */
  constructor(outcome: Promise<WithResponse<T>>) {
    super((resolve) => resolve(undefined as T));
    this.#outcome = outcome;
  }

  /** Chaining (`then`, `catch`, `finally`) returns plain promises. */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /**
   * The parsed result together with the raw response it was read from.
   * @throws (rejects with) the same error as awaiting the call does.
   */
  withResponse(): Promise<WithResponse<T>> {
    return this.#outcome;
  }

  #parsed(): Promise<T> {
    this.#data ??= this.#outcome.then((outcome) => outcome.data);
    return this.#data;
  }

  /** Same as `Promise.prototype.then`, on the parsed result. */
  override then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#parsed().then(onfulfilled, onrejected);
  }

  /** Same as `Promise.prototype.catch`, on the parsed result. */
  override catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.#parsed().catch(onrejected);
  }

  /** Same as `Promise.prototype.finally`, on the parsed result. */
  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#parsed().finally(onfinally);
  }
}
