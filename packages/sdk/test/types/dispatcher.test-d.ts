// `dispatcher` is typed by what the client calls (DispatcherLike), not by
// undici's own types, so the browser entry's types need no undici; every
// undici dispatcher still fits, and an object without `request` does not.
import type { Agent, Pool, ProxyAgent, Dispatcher } from "undici";
import { describe, expectTypeOf, it } from "vitest";
import type { ClientOptions, DispatcherLike } from "../../src/index.js";

describe("ClientOptions.dispatcher", () => {
  it("accepts undici's Agent, Pool, ProxyAgent and any Dispatcher", () => {
    expectTypeOf<Agent>().toMatchTypeOf<DispatcherLike>();
    expectTypeOf<Pool>().toMatchTypeOf<DispatcherLike>();
    expectTypeOf<ProxyAgent>().toMatchTypeOf<DispatcherLike>();
    expectTypeOf<Dispatcher>().toMatchTypeOf<NonNullable<ClientOptions["dispatcher"]>>();
  });

  it("refuses what has no request method", () => {
    expectTypeOf<{ dispatch(): void }>().not.toMatchTypeOf<DispatcherLike>();
    expectTypeOf<{ request: string }>().not.toMatchTypeOf<DispatcherLike>();
  });
});
