import { toHeaders, type HeaderReader } from "../transport/port.js";

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
  readonly #reader: HeaderReader;
  #headers: Headers | null = null;

  /** @param reader the transport's headers of the response. */
  constructor(
    reader: HeaderReader,
    readonly statusCode: number,
    readonly requestId: string | null,
    readonly accepted: boolean,
    readonly retryAfterMs: number | null,
    readonly location: string | null,
    public data: unknown,
  ) {
    this.#reader = reader;
  }

  /** The response headers as received. */
  get headers(): Headers {
    this.#headers ??= toHeaders(this.#reader);
    return this.#headers;
  }
}
