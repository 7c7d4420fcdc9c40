import { pipeline, type Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate, constants as zlib } from "node:zlib";
import { Agent, type Dispatcher } from "undici";
import { attemptTimeout, isIdentityEncoding, type HeaderReader, type Transport, type TransportRequest, type TransportResponse } from "./port.js";
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

/**
 * The body as a stream of decoded bytes: the encodings of `content-encoding`
 * undone last to first. An encoding zlib cannot read leaves the bytes as they
 * are (as fetch does); strict decoding above the port then refuses them.
 * `pipeline` joins the streams, so a failure of any (a body undici destroyed
 * before this call included) ends the last one with that error.
 */
function decoded(body: Readable, encoding: string): Readable {
  const codings = encoding.toLowerCase().split(",").map((coding) => coding.trim()).filter((coding) => coding !== "" && coding !== "identity");
  if (codings.length === 0 || !codings.every((coding) => DECODERS[coding] !== undefined)) return body;
  const decoders = codings.reverse().map((coding) => (DECODERS[coding] as () => NodeJS.ReadWriteStream)());
  return pipeline([body, ...decoders] as unknown as [Readable, NodeJS.ReadWriteStream], ignoreError) as unknown as Readable;
}

/** Swallows an error nobody reads: a given-up body's when it is destroyed, or the pipeline's (whose last stream hands it to the reader). */
function ignoreError(): void {}

/** One response of undici's `Dispatcher.request`, seen through the port. */
class UndiciResponse implements TransportResponse, HeaderReader {
  readonly status: number;
  readonly #headers: Record<string, string | string[] | undefined>;
  readonly #body: Readable & { arrayBuffer(): Promise<ArrayBuffer> };
  /** When the attempt's limit passes (ms, `performance.now()`); undici's timeouts reset per chunk. */
  readonly #deadline: number;
  #chunks: AsyncIterator<Uint8Array> | null = null;
  #stream: Readable | null = null;
  #ended = false;

  constructor(data: Dispatcher.ResponseData, deadline: number) {
    this.status = data.statusCode;
    this.#headers = data.headers;
    this.#body = data.body as unknown as Readable & { arrayBuffer(): Promise<ArrayBuffer> };
    this.#deadline = deadline;
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
    if (performance.now() > this.#deadline) {
      this.cancel();
      throw attemptTimeout();
    }
    if (this.#chunks === null) {
      const length = this.get("content-length");
      const encoding = this.get("content-encoding");
      if (isIdentityEncoding(encoding)) {
        // Framed by Content-Length: read whole through undici's own consumer, one chunk.
        if (length !== null && /^\d+$/.test(length)) return this.#whole(Number(length));
        this.#stream = this.#body;
      } else {
        this.#stream = decoded(this.#body, encoding as string);
      }
      this.#chunks = this.#stream[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
    }
    const { done, value } = await this.#chunks.next();
    if (done === true) {
      this.#ended = true;
      return null;
    }
    return value;
  }

  /**
   * The whole body in one chunk, within the attempt's limit: undici's
   * `bodyTimeout` restarts with every chunk, so a body that trickles in would
   * otherwise outlast it many times over. A body already received whole (most
   * small ones arrive with the headers) has nothing left to wait for, and
   * needs no timer.
   *
   * @param length the Content-Length, in bytes.
   */
  async #whole(length: number): Promise<Uint8Array> {
    this.#ended = true;
    if (this.#body.readableLength >= length) return new Uint8Array(await this.#body.arrayBuffer());
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      this.cancel();
    }, timerDelay(this.#deadline - performance.now()));
    try {
      return new Uint8Array(await this.#body.arrayBuffer());
    } catch (error) {
      throw timedOut ? attemptTimeout() : error;
    } finally {
      clearTimeout(timer);
    }
  }

  cancel(): void {
    this.#ended = true;
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
 * dispatcher API (`Dispatcher.request`), with `headersTimeout` and
 * `bodyTimeout` set to the attempt's limit (undici closes the socket when one
 * fires, so a timed-out exchange keeps nothing alive) and the caller's signal
 * only when the caller passed one. undici does not follow redirects here, and
 * neither does the runtime.
 *
 * @param dispatcher used as given and never closed by the runtime (the caller
 *   owns it); default: a keep-alive `Agent` shared by every client
 *   ({@link defaultAgent}).
 */
export function undiciTransport(dispatcher: Dispatcher = defaultAgent()): Transport {
  return {
    async send(request: TransportRequest): Promise<TransportResponse> {
      const deadline = performance.now() + request.timeoutMs;
      // Whole milliseconds, at least 1 (0 would turn undici's timeout off), at most what a timer holds.
      const timeoutMs = Math.max(1, Math.ceil(timerDelay(request.timeoutMs)));
      const { origin, path } = originAndPath(request.url);
      const options: Dispatcher.RequestOptions = {
        origin,
        path,
        method: request.method as Dispatcher.HttpMethod,
        headers: request.headers as Record<string, string>,
        body: request.body ?? null,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      };
      if (request.signal !== undefined) options.signal = request.signal;
      return new UndiciResponse(await dispatcher.request(options), deadline);
    },
  };
}
