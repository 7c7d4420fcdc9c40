/** Where an outcome's headers come from: the answer, which removes the secrets from them. */
interface HeaderSource {
  /** The response headers, secrets removed. */
  headers(): Headers;
}

/**
 * The record `decodeResponse` resolves to: one response the operation
 * declares as an outcome. Its `headers` are the WHATWG `Headers` of the
 * response, built when first read: most calls never look at them, and
 * building a `Headers` costs more than the rest of a small call's decoding.
 * A class, so that every outcome shares one shape and one getter; it has
 * the fields of `DecodedResponse`, and those the operation runner fills in
 * (`OperationResult`: `reconciled`, `requestUrl`, `attempts`).
 */
export class ResponseOutcome {
  /** Set by the runner: true when the result came from reconciling a guarded conflict. */
  reconciled = false;
  /** Set by the runner: the absolute URL the request was sent to. */
  requestUrl = "";
  /** Set by the runner: how many attempts the call made. */
  attempts = 0;
  readonly #source: HeaderSource;
  #headers: Headers | null = null;

  /** HTTP status code (0 for an opaque redirect). */
  declare readonly statusCode: number;
  /** The request id header of the response, or null. */
  declare readonly requestId: string | null;
  /** True when the status is the operation's accepted (asynchronous) status. */
  declare readonly accepted: boolean;
  /** `Retry-After` in ms, or null. */
  declare readonly retryAfterMs: number | null;
  /** Raw `Location` header of an accepted answer, or null. */
  declare readonly location: string | null;
  /** The body, read by its declared media kind. */
  declare data: unknown;

  /** @param source the response's headers, read through the answer. */
  constructor(
    source: HeaderSource,
    statusCode: number,
    requestId: string | null,
    accepted: boolean,
    retryAfterMs: number | null,
    location: string | null,
    data: unknown,
  ) {
    this.#source = source;
    Object.assign(this, { statusCode, requestId, accepted, retryAfterMs, location, data });
  }

  /** The response headers as received, with the secrets removed from their values. */
  get headers(): Headers {
    this.#headers ??= this.#source.headers();
    return this.#headers;
  }
}
