import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import type { Server, Socket } from "node:net";
import {
  createPowerContextSimulator,
  type PowerContextSimulator,
  type SimulatorOptions,
} from "../simulator/simulator.js";
import type { PrincipalConfig } from "../simulator/access/principals.js";
import type { InferenceMode } from "../simulator/refusal-facts.js";
import { createMockApp } from "./app.js";
import { exposureProblem, servesDocumentedTokens } from "./exposure.js";

/** Largest request line plus headers the server reads, in bytes (256 KiB). */
export const MAX_HEADER_BYTES = 256 * 1024;

/** Options of {@link startMockServer}. */
export interface MockServerOptions {
  /** TCP port; 0 (default) picks a free one. */
  readonly port?: number;
  /** Interface to bind, an IPv6 address with or without brackets; default `127.0.0.1` (loopback only). */
  readonly host?: string;
  /** Seed of the simulator it creates (ignored with `simulator`). Default 1. */
  readonly seed?: number;
  /** Tokens and permissions (ignored with `simulator`). Default: the documented defaults. */
  readonly principals?: PrincipalConfig;
  /**
   * Whether the simulator it creates has an inference model (ignored with
   * `simulator`): `on` (default) or `off`, which answers as a default 1.4.1
   * install without a model (`SimulatorOptions.inference`).
   */
  readonly inference?: InferenceMode;
  /** Further options of the simulator it creates (ignored with `simulator`). */
  readonly simulatorOptions?: Omit<SimulatorOptions, "seed" | "principals" | "inference">;
  /** Serve this simulator instead of creating one. */
  readonly simulator?: PowerContextSimulator;
  /**
   * Largest request body read, in bytes (default 16 MiB, the released server's
   * default); a larger one answers `413 request_too_large` without being buffered.
   */
  readonly maxRequestBodyBytes?: number;
  /**
   * Serve the documented public tokens on a host that is not loopback. Default false:
   * outside loopback the server needs `principals` (or a `simulator`) that accept none of them.
   */
  readonly allowDefaultTokens?: boolean;
  /**
   * Answer CORS for any origin, for a page that calls the mock from another origin.
   * Default false, as the release (which has none); see `MockAppOptions.cors`.
   */
  readonly cors?: boolean;
}

/** A listening mock server. */
export interface MockServer {
  /** Base URL, e.g. `http://127.0.0.1:54321` (no trailing slash). */
  readonly url: string;
  /** The simulator behind it, for controls and inspection. */
  readonly simulator: PowerContextSimulator;
  /**
   * Stops accepting connections, lets in-flight requests finish, then
   * resolves. Connections still open after `graceMs` (default 2000) are destroyed.
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * Serves the simulator over real HTTP on loopback (packages/msw/README.md), the embedded
 * default that examples and cross-language tests talk to.
 * @throws Error when the port cannot be bound (e.g. EADDRINUSE), or when `host` is not
 *   loopback and the documented tokens would be served there (`principals` or a
 *   `simulator` that still accepts one of them, or neither given; no `allowDefaultTokens`)
 * @throws RangeError when `maxRequestBodyBytes` is not a positive integer, or `inference` is neither `on` nor `off`
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const host = options.host ?? "127.0.0.1";
  const simulator =
    options.simulator ??
    createPowerContextSimulator({
      ...options.simulatorOptions,
      seed: options.seed ?? 1,
      principals: options.principals,
      inference: options.inference,
    });
  // Principals of one's own are those that accept none of the documented tokens, whether
  // they came as defaults, as the packaged file passed back, or inside a given simulator.
  const own = !servesDocumentedTokens(simulator);
  const problem = exposureProblem(host, own, options.allowDefaultTokens === true);
  if (problem !== null) throw new Error(problem);
  // A URL writes an IPv6 address in brackets; the socket takes the address itself.
  const address = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const app = createMockApp(simulator, {
    maxRequestBodyBytes: options.maxRequestBodyBytes,
    ...(options.cors === undefined ? {} : { cors: options.cors }),
  });
  const sockets = new Set<Socket>();
  const server = await new Promise<Server>((resolve, reject) => {
    // Keep the platform Response: msw marks a network error with Response.error(), which only it expresses.
    // Request lines and headers up to 256 KiB reach the handlers (Node's default, 16 KiB, would answer an
    // undeclared 431 to a long query string that the contract answers with 422).
    const s = serve({
      fetch: app.fetch,
      port: options.port ?? 0,
      hostname: address,
      overrideGlobalObjects: false,
      serverOptions: { maxHeaderSize: MAX_HEADER_BYTES },
    }) as unknown as Server;
    s.once("error", reject);
    s.once("listening", () => resolve(s));
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  const { port } = server.address() as AddressInfo;
  const hostPart = address.includes(":") ? `[${address}]` : address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${hostPart}:${port}`,
    simulator,
    close(graceMs = 2000) {
      closing ??= new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          for (const socket of sockets) socket.destroy();
        }, graceMs);
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      });
      return closing;
    },
  };
}
