import type { EventEmitter } from "node:events";
import { pipeline, type Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate, constants as zlib } from "node:zlib";
import { Agent, type Dispatcher } from "undici";
import {
  attemptTimeout,
  isIdentityEncoding,
  type HeaderReader,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from "./port.js";
import { timerDelay } from "./timer-delay.js";

/** How long an idle keep-alive socket of the default agent stays open, in ms. */
const KEEP_ALIVE_TIMEOUT_MS = 4000;
/** TCP + TLS connect timeout of the default agent, in ms. */
const CONNECT_TIMEOUT_MS = 10_000;

let sharedAgent: Agent | undefined;

/**
 * The keep-alive agent every client without its own transport shares on
 * Node (created on first use, never closed: undici unreferences idle sockets,
 * so it keeps no process alive).
 */
export function defaultAgent(): Agent {
  sharedAgent ??= new Agent({ keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS, connectTimeout: CONNECT_TIMEOUT_MS });
  return sharedAgent;
}

/** Decoders for the content-encodings Node's zlib reads, as fetch decodes them. */
const DECODERS: Readonly<Record<string, () => NodeJS.ReadWriteStream>> = {
  gzip: () => createGunzip({ flush: zlib.Z_SYNC_FLUSH, finishFlush: zlib.Z_SYNC_FLUSH }),
  "x-gzip": () => createGunzip({ flush: zlib.Z_SYNC_FLUSH, finishFlush: zlib.Z_SYNC_FLUSH }),
  deflate: () => createInflate({ flush: zlib.Z_SYNC_FLUSH, finishFlush: zlib.Z_SYNC_FLUSH }),
  br: () => createBrotliDecompress({ flush: zlib.BROTLI_OPERATION_FLUSH, finishFlush: zlib.BROTLI_OPERATION_FLUSH }),
};

/** The most content codings an answer may list, as fetch allows (a longer list is refused before any decoder is built). */
const MAX_CONTENT_CODINGS = 5;

/** Statuses whose response has no body, so fetch reads no `content-encoding` on them. */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 204, 205, 304]);

/**
 * The error of an answer that lists more than {@link MAX_CONTENT_CODINGS}
 * content codings (each one would be a decoder: thousands cost seconds and
 * megabytes), or null. Counted as fetch counts them (every comma-separated
 * entry), so both adapters refuse the same answers, as a broken exchange.
 */
function tooManyCodings(method: string, status: number, encoding: string | null): Error | null {
  if (encoding === null || method === "HEAD" || NULL_BODY_STATUSES.has(status)) return null;
  const count = encoding.split(",").length;
  return count > MAX_CONTENT_CODINGS
    ? new Error(`too many content-encodings in response: ${count}, maximum allowed is ${MAX_CONTENT_CODINGS}`)
    : null;
}

/**
 * The body as a stream of decoded bytes: the encodings of `content-encoding`
 * undone last to first. An encoding zlib cannot read leaves the bytes as they
 * are (as fetch does); strict decoding above the port then refuses them.
 * `pipeline` joins the streams, so a failure of any (a body undici destroyed
 * before this call included) ends the last one with that error.
 */
function decoded(body: Readable, encoding: string): Readable {
  const codings = encoding
    .toLowerCase()
    .split(",")
    .map((coding) => coding.trim())
    .filter((coding) => coding !== "" && coding !== "identity");
  if (codings.length === 0 || !codings.every((coding) => DECODERS[coding] !== undefined)) return body;
  const decoders = codings.reverse().map((coding) => (DECODERS[coding] as () => NodeJS.ReadWriteStream)());
  return pipeline(
    [body, ...decoders] as unknown as [Readable, NodeJS.ReadWriteStream],
    ignoreError,
  ) as unknown as Readable;
}

/** Swallows an error nobody reads: a given-up body's when it is destroyed, or the pipeline's (whose last stream hands it to the reader). */
function ignoreError(): void {}

/** What a caller's abort rejects with when its signal gives no reason. */
function callerAbort(): Error {
  return Object.assign(new Error("aborted by the caller"), { name: "AbortError", code: "ABORT_ERR" });
}

/**
 * One attempt's deadline and the caller's abort, in the form undici's
 * `Dispatcher.request` documents for `signal` besides `AbortSignal`: an
 * emitter of one `'abort'` event, with `aborted` and `reason`. undici's own
 * `headersTimeout` and `bodyTimeout` run on a coarse clock (they fire up to a
 * second late), so the attempt's limit is a timer of its own; an
 * `AbortController` per attempt would cost undici a fifth of a small
 * exchange's throughput, this costs nothing measurable. When it fires, undici
 * aborts the request (before the headers) or destroys the body (after them),
 * which closes the socket, with {@link reason} as the error.
 */
class AttemptAbort {
  aborted = false;
  reason: unknown = undefined;
  #listeners: Array<() => void> = [];
  /** The functions standing for listener objects given to {@link addEventListener}, created on first use. */
  #handlers: Map<{ handleEvent(): void }, () => void> | undefined;
  /** Rejects the attempt's wait for the headers, set while it lasts (see {@link headers}). */
  #reject: ((reason: unknown) => void) | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #caller: AbortSignal | undefined;

  constructor(timeoutMs: number, caller: AbortSignal | undefined) {
    this.#caller = caller;
    if (caller?.aborted === true) {
      this.aborted = true;
      this.reason = callerAbort();
      return;
    }
    caller?.addEventListener("abort", this, { once: true });
    // Unreferenced: the exchange's socket keeps the process alive while it matters.
    this.#timer = setTimeout(AttemptAbort.#expire, timerDelay(timeoutMs), this);
    this.#timer.unref?.();
  }

  static #expire(self: AttemptAbort): void {
    self.abort(attemptTimeout());
  }

  /**
   * The caller's signal fired (`EventListener` form). undici destroys the body with
   * {@link reason}, and Node reads that error's members where nothing can catch a
   * throw, so the reason handed on is an Error of ours, never the caller's object
   * (which the runtime reads once, guarded, for `AbortError.cause`).
   */
  handleEvent(): void {
    this.abort(callerAbort());
  }

  /** Ends the attempt with `reason`; only the first call counts. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.done();
    for (const listener of this.#listeners.splice(0)) listener();
    this.#reject?.(reason);
  }

  /**
   * Waits for the headers of `request`, or for the end of the attempt,
   * whichever comes first. undici acts on an abort only once the request is
   * dispatched, so a request still queued behind a busy connection (a pool
   * of one, a stalled exchange) would otherwise outlive its limit; it is
   * aborted, unsent, when its turn comes. A response that arrives after the
   * end has its body destroyed.
   */
  headers(request: Promise<Dispatcher.ResponseData>): Promise<Dispatcher.ResponseData> {
    return new Promise((resolve, reject) => {
      if (this.aborted) {
        request.then((late) => late.body.on("error", ignoreError).destroy(), ignoreError);
        reject(this.reason);
        return;
      }
      this.#reject = reject;
      request.then(
        (data) => {
          this.#reject = null;
          if (!this.aborted) {
            resolve(data);
            return;
          }
          data.body.on("error", ignoreError).destroy();
          reject(this.reason);
        },
        (error: unknown) => {
          this.#reject = null;
          this.done();
          reject(this.aborted ? this.reason : error);
        },
      );
    });
  }

  /** The attempt is over (body read, cancelled or failed): the timer and the caller's listener go. */
  done(): void {
    clearTimeout(this.#timer);
    this.#caller?.removeEventListener("abort", this);
  }

  on(_event: "abort", listener: () => void): this {
    this.#listeners.push(listener);
    return this;
  }

  once(event: "abort", listener: () => void): this {
    return this.on(event, listener);
  }

  addListener(event: "abort", listener: () => void): this {
    return this.on(event, listener);
  }

  removeListener(_event: "abort", listener: () => void): this {
    const index = this.#listeners.indexOf(listener);
    if (index !== -1) this.#listeners.splice(index, 1);
    return this;
  }

  off(event: "abort", listener: () => void): this {
    return this.removeListener(event, listener);
  }

  /**
   * The `EventTarget` form of {@link on}: undici 8 takes only an
   * EventTarget-shaped signal (undici 7 takes either). A listener object's
   * `handleEvent` is called like a function listener.
   */
  addEventListener(_type: "abort", listener: AbortListener): void {
    if (typeof listener === "function") {
      this.#listeners.push(listener);
      return;
    }
    const call = () => listener.handleEvent();
    (this.#handlers ??= new Map()).set(listener, call);
    this.#listeners.push(call);
  }

  /** The `EventTarget` form of {@link removeListener}. */
  removeEventListener(event: "abort", listener: AbortListener): void {
    const call = typeof listener === "function" ? listener : this.#handlers?.get(listener);
    if (call === undefined) return;
    this.#handlers?.delete(listener as { handleEvent(): void });
    this.removeListener(event, call);
  }
}

/** A listener as `EventTarget.addEventListener` takes it: a function or an object with `handleEvent`. */
type AbortListener = (() => void) | { handleEvent(): void };

/** One response of undici's `Dispatcher.request`, seen through the port. */
class UndiciResponse implements TransportResponse, HeaderReader {
  readonly status: number;
  readonly #headers: Record<string, string | string[] | undefined>;
  readonly #body: Readable & { arrayBuffer(): Promise<ArrayBuffer> };
  /** The attempt's limit and the caller's abort, still running while the body is read. */
  readonly #abort: AttemptAbort;
  #chunks: AsyncIterator<Uint8Array> | null = null;
  #stream: Readable | null = null;
  #ended = false;

  constructor(data: Dispatcher.ResponseData, abort: AttemptAbort) {
    this.status = data.statusCode;
    this.#headers = data.headers;
    this.#body = data.body as unknown as Readable & { arrayBuffer(): Promise<ArrayBuffer> };
    this.#abort = abort;
  }

  get headers(): HeaderReader {
    return this;
  }

  get(name: string): string | null {
    const value = this.#headers[name];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  }

  *entries(): IterableIterator<[string, string]> {
    for (const [name, value] of Object.entries(this.#headers)) {
      if (value !== undefined) yield [name, Array.isArray(value) ? value.join(", ") : value];
    }
  }

  async read(): Promise<Uint8Array | null> {
    if (this.#ended) return null;
    if (this.#abort.aborted) {
      this.cancel();
      throw this.#abort.reason;
    }
    try {
      if (this.#chunks === null) {
        const length = this.get("content-length");
        const encoding = this.get("content-encoding");
        if (isIdentityEncoding(encoding)) {
          // Framed by Content-Length: read whole through undici's own consumer, one chunk.
          if (length !== null && /^\d+$/.test(length)) {
            this.#ended = true;
            const whole = new Uint8Array(await this.#body.arrayBuffer());
            this.#abort.done();
            return whole;
          }
          this.#stream = this.#body;
        } else {
          this.#stream = decoded(this.#body, encoding as string);
        }
        this.#chunks = this.#stream[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
      }
      const { done, value } = await this.#chunks.next();
      if (done === true) {
        this.#ended = true;
        this.#abort.done();
        return null;
      }
      return value;
    } catch (error) {
      this.cancel();
      // The attempt's own end (its limit, the caller's abort) rather than how the stream reported it.
      throw this.#abort.aborted ? this.#abort.reason : error;
    }
  }

  cancel(): void {
    this.#ended = true;
    this.#abort.done();
    // Destroying an unfinished body aborts its request; undici then closes the
    // socket. The stream reports that abort as an 'error' event, which nobody
    // reads once the body is given up: without a listener it would be uncaught.
    if (!this.#body.destroyed) this.#body.on("error", ignoreError).destroy();
    if (this.#stream !== null && !this.#stream.destroyed) this.#stream.on("error", ignoreError).destroy();
  }
}

/** Splits an absolute URL into undici's `origin` and `path` (path with the query string). */
function originAndPath(url: string): { origin: string; path: string } {
  const slash = url.indexOf("/", url.indexOf("//") + 2);
  return slash === -1 ? { origin: url, path: "/" } : { origin: url.slice(0, slash), path: url.slice(slash) };
}

/**
 * The undici adapter of the transport port, the default on Node: undici's
 * dispatcher API (`Dispatcher.request`). The attempt's limit (`timeoutMs`,
 * covering the headers and the whole body) and the caller's signal reach
 * undici as one light abort handle (`AttemptAbort`); when either fires, undici
 * closes the socket at once, so a timed-out exchange keeps nothing alive.
 * undici's `headersTimeout` and `bodyTimeout`, set to the same limit, stay as a
 * backstop. undici does not follow redirects here, and neither does the
 * runtime.
 *
 * @param dispatcher used as given and never closed by the runtime (the caller
 *   owns it); default: a keep-alive `Agent` shared by every client
 *   ({@link defaultAgent}).
 */
export function undiciTransport(dispatcher: Dispatcher = defaultAgent()): Transport {
  return {
    async send(request: TransportRequest): Promise<TransportResponse> {
      // Whole milliseconds, at least 1 (0 would turn undici's timeout off), at most what a timer holds.
      const backstopMs = Math.max(1, Math.ceil(timerDelay(request.timeoutMs)));
      const { origin, path } = originAndPath(request.url);
      const abort = new AttemptAbort(request.timeoutMs, request.signal);
      const options: Dispatcher.RequestOptions = {
        origin,
        path,
        method: request.method as Dispatcher.HttpMethod,
        headers: request.headers as Record<string, string>,
        body: request.body ?? null,
        // undici's own limits stay as a backstop; the attempt's timer fires first.
        headersTimeout: backstopMs,
        bodyTimeout: backstopMs,
        signal: abort as unknown as EventEmitter,
      };
      let pending: Promise<Dispatcher.ResponseData>;
      try {
        pending = dispatcher.request(options);
      } catch (error) {
        abort.done();
        throw error;
      }
      const response = new UndiciResponse(await abort.headers(pending), abort);
      const refused = tooManyCodings(request.method, response.status, response.get("content-encoding"));
      if (refused !== null) {
        response.cancel();
        throw refused;
      }
      return response;
    },
  };
}
