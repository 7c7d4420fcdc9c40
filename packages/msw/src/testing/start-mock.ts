import type { PowerContextSimulator } from "../simulator/simulator.js";
import { type MockServerOptions, startMockServer } from "../server/start.js";

/** The administrator token of the mock's documented default principals. */
export const DEFAULT_MOCK_TOKEN = "pc-admin";

/** Options of {@link startMock}: those of `startMockServer`, and the token handed over. */
export interface StartMockOptions extends MockServerOptions {
  /**
   * The bearer token an app's tests use. Default `pc-admin`, the administrator of the
   * documented default principals; give it with `principals` of your own.
   */
  readonly token?: string;
}

/** A running embedded mock, as an app's tests use it. */
export interface StartedMock {
  /** Base URL, e.g. `http://127.0.0.1:54321` (no trailing slash). */
  readonly url: string;
  /** The bearer token to send. */
  readonly token: string;
  /** The simulator behind it, for controls and inspection. */
  readonly simulator: PowerContextSimulator;
  /** Stops the server (in-flight requests finish; connections left after 2 s are destroyed). */
  close(): Promise<void>;
}

/**
 * Starts the embedded mock on a free loopback port for an app's tests, and hands over
 * its URL and token. The same mock `powercontext-mock serve` runs and
 * `powercontext-mock verify` checks against a server (docs/verify.md).
 *
 * @throws Error when the port cannot be bound; RangeError for a bad option (as `startMockServer`)
 */
export async function startMock(options: StartMockOptions = {}): Promise<StartedMock> {
  const { token = DEFAULT_MOCK_TOKEN, ...serverOptions } = options;
  const server = await startMockServer(serverOptions);
  return { url: server.url, token, simulator: server.simulator, close: () => server.close() };
}
