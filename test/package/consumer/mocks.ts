// Type-checked with the consumer: the msw handlers of the installed
// @powercontext/msw fit the application's own msw (one copy, so one HttpHandler type).
import { createPowerContextHandlers, createPowerContextSimulator } from "@powercontext/msw";
import type { HttpHandler } from "msw";
import { setupServer, type SetupServer } from "msw/node";

const handlers: HttpHandler[] = createPowerContextHandlers(createPowerContextSimulator({ seed: 1 }), {
  baseUrl: "http://127.0.0.1:8787",
});
export const server: SetupServer = setupServer(...handlers);
