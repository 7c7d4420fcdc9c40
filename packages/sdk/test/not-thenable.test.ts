import { describe, expect, it } from "vitest";
import { PowerContextClient } from "../src/index.js";

// The generator refuses operationIds that would become a `then` method
// (codegen/src/ir/reserved-names.ts); this holds the built client to it.
describe("PowerContextClient is not a thenable", () => {
  it("has no then member, so awaiting it yields the client itself", async () => {
    const client = new PowerContextClient({ baseUrl: "http://127.0.0.1:9" });
    expect("then" in client).toBe(false);
    expect(await Promise.resolve(client)).toBe(client);
  });
});
