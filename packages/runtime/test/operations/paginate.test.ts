import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/core/runtime.js";
import { InvalidResponseError } from "../../src/errors.js";
import { paginate } from "../../src/operations/paginate.js";
import type { FetchLike } from "../../src/transport/fetch-adapter.js";
import { listOperations } from "../helpers/descriptors.js";
import { json } from "@powercontext/runtime/testing";

function pagedServer(pages: Record<string, { operations: unknown[]; next_cursor: string | null }>) {
  const cursors: (string | null)[] = [];
  const fetch: FetchLike = async (url) => {
    const cursor = new URL(url).searchParams.get("cursor");
    cursors.push(cursor);
    return json(200, pages[cursor ?? ""]);
  };
  return { fetch, cursors };
}

describe("paginate", () => {
  it("follows next_cursor across pages and yields every item", async () => {
    const server = pagedServer({
      "": { operations: [1, 2], next_cursor: "c2" },
      c2: { operations: [3], next_cursor: "c3" },
      c3: { operations: [], next_cursor: null },
    });
    const runtime = createRuntime({ baseUrl: "https://pc.example.com", fetch: server.fetch });
    const items: unknown[] = [];
    for await (const item of paginate(runtime, listOperations, { scope_id: "s" })) items.push(item);
    expect(items).toEqual([1, 2, 3]);
    expect(server.cursors).toEqual([null, "c2", "c3"]);
  });

  it("fetches lazily: breaking early stops paging", async () => {
    const server = pagedServer({
      "": { operations: [1, 2], next_cursor: "c2" },
      c2: { operations: [3], next_cursor: null },
    });
    const runtime = createRuntime({ baseUrl: "https://pc.example.com", fetch: server.fetch });
    for await (const item of paginate(runtime, listOperations, {})) {
      expect(item).toBe(1);
      break;
    }
    expect(server.cursors).toEqual([null]);
  });

  it("refuses a page that repeats its cursor", async () => {
    const server = pagedServer({ "": { operations: [1], next_cursor: "c" }, c: { operations: [2], next_cursor: "c" } });
    const runtime = createRuntime({ baseUrl: "https://pc.example.com", fetch: server.fetch });
    const items: unknown[] = [];
    await expect(async () => {
      for await (const item of paginate(runtime, listOperations, {})) items.push(item);
    }).rejects.toBeInstanceOf(InvalidResponseError);
    expect(items).toEqual([1, 2]);
  });

  it("refuses a cursor that leads back to an earlier page, after one round", async () => {
    const server = pagedServer({
      "": { operations: [1], next_cursor: "a" },
      a: { operations: [2], next_cursor: "b" },
      b: { operations: [3], next_cursor: "a" },
    });
    const runtime = createRuntime({ baseUrl: "https://pc.example.com", fetch: server.fetch });
    const items: unknown[] = [];
    const error = await (async () => {
      for await (const item of paginate(runtime, listOperations, {})) items.push(item);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ issues: ["next cursor leads back to an earlier page"] });
    expect(items).toEqual([1, 2, 3]);
    expect(server.cursors).toEqual([null, "a", "b"]);
  });
});
