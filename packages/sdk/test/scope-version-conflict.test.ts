// A stale update_scope: the release answers 409 scope_version_conflict with the expected
// and current versions; the client throws the class the README names for it.
import { describe, expect, it } from "vitest";
import { ConflictError } from "@powercontext/runtime";
import { envelope, scripted } from "@powercontext/runtime/testing";
import { PowerContextClient, ScopeVersionConflictError, VersionConflictError } from "../src/index.js";

describe("a stale update_scope", () => {
  it("is a ScopeVersionConflictError (a ConflictError) carrying both versions, not an Operation's VersionConflictError", async () => {
    const server = scripted(envelope(409, "scope_version_conflict", { expected_version: 3, current_version: 5 }));
    const client = new PowerContextClient({ baseUrl: "https://pc.example.com", fetch: server.fetch });
    const error = await client
      .updateScope({ scope_id: "s1", expected_version: 3, title: "t", summary: "s" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ScopeVersionConflictError);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).not.toBeInstanceOf(VersionConflictError);
    expect((error as ScopeVersionConflictError).details).toEqual({ expected_version: 3, current_version: 5 });
    expect(server.seen).toHaveLength(1);
  });
});
