// The package's Node entry, `@powercontext/msw/server`: the embedded mock server
// (server/), `powercontext-mock verify` as a function (verify/), the helper that starts
// the mock for an app's tests (testing/), and the command line program.
export * from "./server/index.js";
export * from "./verify/index.js";
export { DEFAULT_MOCK_TOKEN, type StartedMock, type StartMockOptions, startMock } from "./testing/start-mock.js";
export { createProgram, main } from "./cli.js";
