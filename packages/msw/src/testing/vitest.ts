// `@powercontext/msw/vitest`: the embedded mock for the tests of one file, started in
// beforeAll and closed in afterAll. Import it only from vitest test files.
import { afterAll, beforeAll } from "vitest";
import { type StartedMock, type StartMockOptions, startMock } from "./start-mock.js";

export { DEFAULT_MOCK_TOKEN, type StartedMock, type StartMockOptions, startMock } from "./start-mock.js";

/**
 * Starts the embedded mock before the file's tests and closes it after them.
 *
 * ```ts
 * const mock = useMock({ inference: "off" });
 * it("lists scopes", async () => {
 *   const client = new PowerContextClient({ baseUrl: mock.url, token: mock.token });
 * });
 * ```
 *
 * @returns the running mock; its members throw Error when read before `beforeAll` ran
 */
export function useMock(options: StartMockOptions = {}): StartedMock {
  let started: StartedMock | undefined;
  beforeAll(async () => {
    started = await startMock(options);
  });
  afterAll(async () => {
    await started?.close();
  });
  const running = (): StartedMock => {
    if (started === undefined) throw new Error("the mock starts in beforeAll: read it inside a test or a hook");
    return started;
  };
  return {
    get url() {
      return running().url;
    },
    get token() {
      return running().token;
    },
    get simulator() {
      return running().simulator;
    },
    close: () => running().close(),
  };
}
