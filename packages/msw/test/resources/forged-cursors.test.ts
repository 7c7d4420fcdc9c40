import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import { call } from "../support/flat-call.js";

/**
 * A cursor decoded, changed and encoded again is refused as the release refuses a
 * tampered cursor (400 invalid_cursor), never followed: its seal no longer matches.
 * So a forged bound cannot make a list go on for ever.
 */
const decode = (cursor: string) =>
  JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as Record<string, unknown>;
const encode = (body: Record<string, unknown>) => Buffer.from(JSON.stringify(body), "utf8").toString("base64url");

function world(): PowerContextSimulator {
  const sim = createPowerContextSimulator({ seed: 7, clock: new ManualClock(), scopes: ["s1"] });
  for (const id of ["a", "b", "c", "d"])
    expect(call(sim, "capture_content_source", { scope_id: "s1", source_id: id, content: id }).status).toBe(202);
  return sim;
}

function firstCursor(sim: PowerContextSimulator): string {
  const reply = call(sim, "list_sources", { scope_id: "s1", limit: 2 });
  expect(reply.status).toBe(200);
  return reply.body.next_cursor as string;
}

describe("a forged cursor", () => {
  it.each([
    ["its record id", (body: Record<string, unknown>) => ({ ...body, i: '"src_forged"' })],
    ["its order value", (body: Record<string, unknown>) => ({ ...body, a: 0 })],
    ["its bound", (body: Record<string, unknown>) => ({ ...body, b: 1e300 })],
    ["its seal", (body: Record<string, unknown>) => ({ ...body, d: "0123456789abcdef" })],
    ["a member added", (body: Record<string, unknown>) => ({ ...body, x: 1 })],
  ])("with %s changed is refused as invalid", (_what, change) => {
    const sim = world();
    const forged = encode(change(decode(firstCursor(sim))));
    const reply = call(sim, "list_sources", { scope_id: "s1", limit: 2, cursor: forged });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: { code: "invalid_cursor" } });
  });

  it("from another simulator's seed is refused; the cursor handed out is followed to the end", () => {
    const sim = world();
    const other = createPowerContextSimulator({ seed: 8, clock: new ManualClock(), scopes: ["s1"] });
    for (const id of ["a", "b", "c", "d"])
      call(other, "capture_content_source", { scope_id: "s1", source_id: id, content: id });
    const theirs = call(other, "list_sources", { scope_id: "s1", limit: 2 }).body.next_cursor as string;
    expect(call(sim, "list_sources", { scope_id: "s1", limit: 2, cursor: theirs }).status).toBe(400);
    const page = call(sim, "list_sources", { scope_id: "s1", limit: 2, cursor: firstCursor(sim) });
    expect(page.status).toBe(200);
    expect(page.body.next_cursor).toBeNull();
  });

  it.each([
    ["spaced out", (text: string) => JSON.stringify(JSON.parse(text), null, 2)],
    [
      "with its members reordered",
      (text: string) => JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(text)).reverse())),
    ],
    ["with a member written twice", (text: string) => text.replace(/^\{/, `{"i":"x",`)],
    ["behind a byte order mark", (text: string) => `\ufeff${text}`],
  ])("written again %s, with the same values, is refused as changed by hand", (_how, rewrite) => {
    const sim = world();
    const cursor = firstCursor(sim);
    const forged = Buffer.from(rewrite(Buffer.from(cursor, "base64url").toString("utf8")), "utf8").toString(
      "base64url",
    );
    expect(forged).not.toBe(cursor);
    expect(call(sim, "list_sources", { scope_id: "s1", limit: 2, cursor: forged })).toMatchObject({
      status: 400,
      code: "invalid_cursor",
    });
    expect(call(sim, "list_sources", { scope_id: "s1", limit: 2, cursor }).status).toBe(200);
  });

  it("sealed by another process with the same seed is refused: the seed and the code alone cannot seal one", () => {
    // The same world in a fresh process: same seed, same records, same ids; only the seal's key differs.
    const script = `
      import { ManualClock } from ${JSON.stringify(new URL("../../src/simulator/clock.ts", import.meta.url).href)};
      import { createPowerContextSimulator } from ${JSON.stringify(new URL("../../src/simulator/simulator.ts", import.meta.url).href)};
      import { call } from ${JSON.stringify(new URL("../support/flat-call.ts", import.meta.url).href)};
      const sim = createPowerContextSimulator({ seed: 7, clock: new ManualClock(), scopes: ["s1"] });
      for (const id of ["a", "b", "c", "d"]) call(sim, "capture_content_source", { scope_id: "s1", source_id: id, content: id });
      process.stdout.write(String(call(sim, "list_sources", { scope_id: "s1", limit: 2 }).body.next_cursor));
    `;
    const theirs = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 60_000,
    });
    const sim = world();
    const ours = firstCursor(sim);
    expect(decode(theirs).i).toBe(decode(ours).i);
    expect(theirs).not.toBe(ours);
    expect(call(sim, "list_sources", { scope_id: "s1", limit: 2, cursor: theirs })).toMatchObject({
      status: 400,
      code: "invalid_cursor",
    });
    // Within one process the seed still promises the same cursors.
    expect(firstCursor(world())).toBe(ours);
  });

  it("on the Operation API and the Memory entries is refused too", () => {
    const sim = world();
    for (let i = 0; i < 3; i += 1) call(sim, "remember_memory", { scope_id: "s1", kind: "fact", text: `fact ${i}` });
    const entries = call(sim, "list_memory_entries", { scope_id: "s1", limit: 1 });
    expect(entries.status).toBe(200);
    const [at, sealed] = (entries.body.next_cursor as string).split(".");
    const forged = `${Number(at) + 1}.${sealed}`;
    expect(call(sim, "list_memory_entries", { scope_id: "s1", limit: 1, cursor: forged }).status).toBe(400);
    expect(call(sim, "list_memory_entries", { scope_id: "s1", limit: 1, cursor: `${at}.${sealed}` }).status).toBe(200);
    const listed = call(sim, "list_operations", { scope_id: "s1", limit: 1, cursor: "c999.0123456789abcdef" });
    expect(listed.status).toBe(422);
  });
});

describe("the Access lists", () => {
  it.each(["zzz", encode({ i: '"x"', a: 0 })])(
    "refuse a cursor they did not hand out (%j) as the release's access layer does",
    (cursor) => {
      const sim = createPowerContextSimulator({ seed: 7, clock: new ManualClock(), scopes: ["s1"] });
      const resource = { type: "scope", scope_id: "s1" };
      for (const op of ["list_access_bindings", "list_access_audit"]) {
        const base = op === "list_access_bindings" ? { management_resource: resource } : { resource };
        expect(call(sim, op, base).status).toBe(200);
        const reply = call(sim, op, { ...base, cursor });
        expect(reply.status).toBe(422);
        expect(reply.body).toMatchObject({ error: { code: "invalid_access_request" } });
      }
    },
  );
});

describe("a cursor the list did not hand out", () => {
  it("is refused when it is empty, as the release refuses it (not read as the start of the list)", () => {
    const sim = world();
    const resource = { type: "scope", scope_id: "s1" };
    expect(call(sim, "list_atomic_memories", { scope_id: "s1", cursor: "" })).toMatchObject({
      status: 400,
      code: "invalid_cursor",
    });
    for (const [op, base] of [
      ["list_access_bindings", { management_resource: resource }],
      ["list_access_audit", { resource }],
    ] as const)
      expect(call(sim, op, { ...base, cursor: "" })).toMatchObject({ status: 422, code: "invalid_access_request" });
  });

  it("is refused when another list handed it out for a request with the same members", () => {
    const sim = world();
    for (const text of ["one", "two", "three"])
      call(sim, "create_artifact", { scope_id: "s1", family: "atomic-memory", content: { kind: "fact", text } });
    // list_sources and list_atomic_memories both take { scope_id, limit }: a cursor of one is no cursor of the other.
    const sources = firstCursor(sim);
    expect(call(sim, "list_atomic_memories", { scope_id: "s1", limit: 2, cursor: sources })).toMatchObject({
      status: 400,
      code: "invalid_cursor",
    });
    const atomic = call(sim, "list_atomic_memories", { scope_id: "s1", limit: 2 }).body.next_cursor as string;
    expect(call(sim, "list_sources", { scope_id: "s1", limit: 2, cursor: atomic })).toMatchObject({
      status: 400,
      code: "invalid_cursor",
    });
    expect(call(sim, "list_atomic_memories", { scope_id: "s1", limit: 2, cursor: atomic }).status).toBe(200);
  });
});
