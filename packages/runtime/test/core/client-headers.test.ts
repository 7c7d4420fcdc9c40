// The contract's client headers (`x-powercontext-client-headers`, the generated
// `clientHeaders`) go with every request of a runtime or caller built with them, and a
// header of the same name the caller sets, in any case, is sent instead.
import { describe, expect, it } from "vitest";
import { createCaller } from "../../src/core/create-caller.js";
import { createRuntime } from "../../src/core/runtime.js";
import { runOperation } from "../../src/core/run-operation.js";
import { descriptor } from "../helpers/descriptors.js";
import { json, scripted } from "@powercontext/runtime/testing";

const BASE = "https://pc.example.com";
const search = descriptor({ operationId: "search_memory", path: "/v1/memory/search" });
const clientHeaders = { "X-PowerContext-Dream-Contract": "2" };

describe("client headers", () => {
  it("go with every request of a runtime built with them", async () => {
    const server = scripted(json(200, { hits: [] }));
    const runtime = createRuntime({ baseUrl: BASE, fetch: server.fetch }, { clientHeaders });
    await runOperation(runtime, search, { query: "q" });
    await runOperation(runtime, search, { query: "q" });
    expect(server.seen.map((r) => r.headers["x-powercontext-dream-contract"])).toEqual(["2", "2"]);
  });

  it("give way to the caller's header of the same name, in any case, client-wide or per call", async () => {
    const server = scripted(json(200, { hits: [] }));
    const runtime = createRuntime(
      { baseUrl: BASE, fetch: server.fetch, headers: { "x-powercontext-dream-contract": "1" } },
      { clientHeaders },
    );
    await runOperation(runtime, search, { query: "q" });
    await runOperation(runtime, search, { query: "q" }, { headers: { "X-POWERCONTEXT-DREAM-CONTRACT": "3" } });
    // The client-wide header in lower case, the call's in the contract's spelling: the call's wins.
    await runOperation(runtime, search, { query: "q" }, { headers: { "X-PowerContext-Dream-Contract": "4" } });
    expect(server.seen.map((r) => r.headers["x-powercontext-dream-contract"])).toEqual(["1", "3", "4"]);
    expect(server.seen.every((r) => Object.keys(r.headers).filter((n) => /dream/i.test(n)).length === 1)).toBe(true);
  });

  it("go with a caller's requests when given as its parts; none without them", async () => {
    const server = scripted(json(200, { hits: [] }));
    await createCaller({ baseUrl: BASE, fetch: server.fetch }, search, { clientHeaders })({ query: "q" });
    await createCaller({ baseUrl: BASE, fetch: server.fetch }, search)({ query: "q" });
    const caller = createCaller(
      { baseUrl: BASE, fetch: server.fetch, headers: { "x-powercontext-dream-contract": "1" } },
      search,
      { clientHeaders },
    );
    await caller({ query: "q" }, { headers: { "X-PowerContext-Dream-Contract": "5" } });
    expect(server.seen.map((r) => r.headers["x-powercontext-dream-contract"])).toEqual(["2", undefined, "5"]);
  });
});
