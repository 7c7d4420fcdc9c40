/**
 * `@powercontext/runtime/testing`: test doubles for code built on the runtime.
 *
 * `scripted(...steps)` is a `fetch` for `createRuntime({ fetch })` or a caller's
 * config that answers the n-th request with the n-th step (a `Response`, a thrown
 * `Error`, or a function of the request; the last step repeats) and records every
 * request it saw. `json`, `envelope`, `connectError` and `socketClosed` build the
 * steps: a JSON answer, the error envelope, and the two network failures the
 * runtime classifies differently (the request never left; a reused socket closed).
 * `implementedRoutes(routes, implementations, options)` binds generated mock
 * routes to implementations as Fetch-API resolvers (what the generated msw
 * handlers are made of). Nothing here opens a connection.
 */
export { connectError, envelope, json, scripted, socketClosed, type SeenRequest, type Step } from "./fake-fetch.js";
export {
  implementedRoutes,
  type ImplementedRoute,
  type MockRoute,
  type MockRouteAnswer,
  type MockRouteContext,
  type MockRouteImplementation,
  type MockRouteOptions,
} from "./mock-routes.js";
