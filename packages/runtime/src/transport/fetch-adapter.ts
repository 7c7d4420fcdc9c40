import {
  attemptTimeout,
  isIdentityEncoding,
  type HeaderReader,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from "./port.js";
import { timerDelay } from "./timer-delay.js";

/** The subset of `RequestInit` the fetch adapter passes to `fetch`. */
export interface FetchInit {
  /** HTTP method, upper case. */
  method: string;
  /** Request headers, names in lower case. */
  headers: Record<string, string>;
  /** Serialized JSON body, when the operation sends one. */
  body?: string;
  /** Redirects are never followed. */
  redirect: "manual";
  /** Fires on the attempt's timeout and on the caller's abort. */
  signal: AbortSignal;
}

/**
 * A `fetch`-compatible function: the global `fetch`, undici's `fetch`, or a
 * test double. The client never closes it or its dispatcher.
 */
export type FetchLike = (url: string, init: FetchInit) => Promise<Response>;

function ignore(): void {}

/** The error the adapter rejects with when the caller's signal fired. */
function callerAbort(): Error {
  return Object.assign(new Error("aborted by the caller"), { name: "AbortError", code: "ABORT_ERR" });
}

/**
 * One exchange through fetch: the attempt's timer and the caller's signal both
 * abort the signal fetch was given, which closes the exchange at once (its
 * socket, or a browser's connection, is freed: ADR 0003). The exchange also
 * settles by itself when they fire, so a fetch that ignores its signal cannot
 * hold an attempt past its timeout; a response such a fetch hands over later
 * has its body cancelled unread. The methods serve as the timer's callback and
 * the abort listener (`handleEvent`), so an exchange allocates no closures.
 */
class FetchExchange implements TransportResponse {
  status = 0;
  headers: HeaderReader = EMPTY_HEADERS;
  readonly #controller = new AbortController();
  readonly #signal: AbortSignal | undefined;
  readonly #timer: Parameters<typeof clearTimeout>[0];
  #response: Response | null = null;
  #reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  /** Why the exchange was given up (timeout, caller's abort), or null. */
  #failure: Error | null = null;
  #ended = false;
  /** Rejects the pending `send` or `read` when the exchange is given up. */
  #rejectPending: ((error: unknown) => void) | null = null;

  constructor(request: TransportRequest) {
    this.#signal = request.signal;
    this.#signal?.addEventListener("abort", this, { once: true });
    this.#timer = setTimeout(FetchExchange.#onTimeout, timerDelay(request.timeoutMs), this);
  }

  static #onTimeout(exchange: FetchExchange): void {
    exchange.#giveUp(attemptTimeout());
  }

  /** The caller's signal fired. */
  handleEvent(): void {
    this.#giveUp(callerAbort());
  }

  #finish(): void {
    this.#ended = true;
    clearTimeout(this.#timer);
    this.#signal?.removeEventListener("abort", this);
  }

  #giveUp(error: Error): void {
    if (this.#ended) return;
    this.#finish();
    this.#failure = error;
    this.#controller.abort();
    this.#discard();
    this.#rejectPending?.(error);
  }

  /** Cancels a body nobody will read, so that its connection is released. */
  #discard(): void {
    const body = this.#response?.body;
    if (this.#reader !== null) this.#reader.cancel().catch(ignore);
    else if (body !== null && body !== undefined && !body.locked) body.cancel().catch(ignore);
  }

  /**
   * Settles with `work`, or with the failure if the exchange is given up
   * first; `late` gets a value that arrives after that.
   */
  #race<T>(work: Promise<T>, late?: (value: T) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#rejectPending = reject;
      work.then(
        (value) => {
          this.#rejectPending = null;
          if (this.#failure === null) resolve(value);
          else {
            late?.(value);
            reject(this.#failure);
          }
        },
        (error: unknown) => {
          this.#rejectPending = null;
          reject(this.#failure ?? error);
        },
      );
    });
  }

  async start(fetchFn: FetchLike, request: TransportRequest): Promise<TransportResponse> {
    const init: FetchInit = {
      method: request.method,
      headers: request.headers as Record<string, string>,
      redirect: "manual",
      signal: this.#controller.signal,
    };
    if (request.body !== undefined) init.body = request.body;
    let response: Response;
    try {
      let pending: Promise<Response>;
      try {
        pending = fetchFn(request.url, init);
      } catch (error) {
        // A fetch that throws synchronously fails the attempt like one that rejects.
        pending = Promise.reject(error);
      }
      response = await this.#race(Promise.resolve(pending), discardLate);
    } catch (error) {
      this.#finish();
      throw error;
    }
    this.#response = response;
    this.status = response.type === "opaqueredirect" ? 0 : response.status;
    this.headers = response.headers;
    return this;
  }

  async read(): Promise<Uint8Array | null> {
    if (this.#failure !== null) throw this.#failure;
    const response = this.#response;
    if (response === null || this.#ended) return null;
    try {
      if (this.#reader === null) {
        const body = response.body;
        if (body === null) {
          this.#finish();
          return null;
        }
        const length = this.headers.get("content-length");
        // A body framed by Content-Length, not encoded, is read whole: one chunk, bounded by the framing.
        if (length !== null && isIdentityEncoding(this.headers.get("content-encoding")) && /^\d+$/.test(length)) {
          const bytes = new Uint8Array(await this.#race(response.arrayBuffer()));
          this.#finish();
          return bytes;
        }
        this.#reader = body.getReader();
      }
      const { done, value } = await this.#race(this.#reader.read());
      if (done) {
        this.#finish();
        return null;
      }
      return value;
    } catch (error) {
      this.#finish();
      throw error;
    }
  }

  cancel(): void {
    if (this.#ended) return;
    this.#finish();
    this.#controller.abort();
    this.#discard();
  }
}

const EMPTY_HEADERS: HeaderReader = new Headers();

/** Cancels the body of a response that arrived after its exchange was given up. */
function discardLate(response: Response): void {
  const body = (response as Partial<Response> | null)?.body;
  if (body && !body.locked) body.cancel().catch(ignore);
}

/** Options of {@link fetchTransport}. */
export interface FetchTransportOptions {
  /**
   * The `fetch` for requests that must reach the server at most once
   * (`TransportRequest.neverResend`), where the platform's fetch re-sends a
   * request by itself when a reused connection drops (Deno): one that opens
   * a connection of its own. Default: `fetchFn` for every request.
   */
  neverResendFetch?: FetchLike;
}

/**
 * The fetch adapter of the transport port: serves browsers, Deno, Bun and any
 * `fetch` the caller injects. Redirects are not followed (`redirect:
 * "manual"`); every exchange gets its own AbortSignal, fired by the attempt's
 * timeout and the caller's abort (see ADR 0003 for what it costs and why it is
 * kept).
 *
 * @param fetchFn the `fetch` to call; the adapter never closes it.
 */
export function fetchTransport(fetchFn: FetchLike, options: FetchTransportOptions = {}): Transport {
  const once = options.neverResendFetch;
  if (once === undefined) return { send: (request) => new FetchExchange(request).start(fetchFn, request) };
  return {
    send: (request) => new FetchExchange(request).start(request.neverResend === true ? once : fetchFn, request),
  };
}
