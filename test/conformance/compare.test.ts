// The comparison rules of the conformance suite on hand-made answers: placeholders make
// equal structure equal and keep different structure different, shapes count null and
// absent members, and a step one side never played is a difference.
import { describe, expect, it } from "vitest";
import { compareObservations } from "./compare.js";
import { Placeholders, comparable, firstDifference } from "./normalise.js";
import type { Observation } from "./play.js";
import { shapeDifferences } from "./shape.js";

function observation(
  step: string,
  status: number,
  body: unknown,
  names = new Placeholders(),
  headers: Record<string, string> = {},
): Observation {
  return {
    scenario: "s",
    step,
    operation: "get_scope",
    answer: { status, contentType: "application/json", body, headers: new Headers(headers) },
    code: status >= 400 ? (body as { error: { code: string } }).error.code : null,
    normalised: names.value(comparable(body, status)),
    compareValues: true,
  };
}

const tagOf = () => "scopes";

describe("placeholders", () => {
  it("map each side's assigned ids by first appearance, so the same structure compares equal", () => {
    const real = new Placeholders();
    const mock = new Placeholders();
    const left = real.value({
      scope_id: "scp_3km1faameq8d8kmwf0wh4r899w",
      parent: "scp_3km1faameq8d8kmwf0wh4r899w",
      at: "2026-12-01T22:50:31.123Z",
    });
    const right = mock.value({
      scope_id: "scp_a08700b38706fb26",
      parent: "scp_a08700b38706fb26",
      at: "2030-01-01T00:00:00Z",
    });
    expect(firstDifference(left, right)).toBeNull();
  });

  it("keep two different ids different where the other side repeats one", () => {
    const left = new Placeholders().value({ a: "scp_3km1faameq8d8kmwf0wh4r899w", b: "scp_60nszh2r7ha1p9y58mv3bjhj8b" });
    const right = new Placeholders().value({ a: "scp_a08700b38706fb26", b: "scp_a08700b38706fb26" });
    expect(firstDifference(left, right)).toBe('/b: "<scp 2>" vs "<scp 1>"');
  });

  it("number each kind of assigned value on its own, so a value only one side assigns shifts no other kind", () => {
    const left = new Placeholders().value({
      request_id: "req_8mz3kq0v1wx2",
      scope_id: "scp_3km1faameq8d8kmwf0wh4r899w",
    });
    const right = new Placeholders().value({ scope_id: "scp_a08700b38706fb26" });
    expect(left).toEqual({ request_id: "<request_id 1>", scope_id: "<scp 1>" });
    expect(
      firstDifference((left as { scope_id: string }).scope_id, (right as { scope_id: string }).scope_id),
    ).toBeNull();
  });

  it("replace opaque members whole and ids inside longer strings, and leave request text alone", () => {
    const names = new Placeholders();
    expect(
      names.value({
        next_cursor: "eyJvZmZzZXQiOjJ9",
        location: "/v1/scopes/scp_a08700b38706fb26",
        title: "Conformance A",
      }),
    ).toEqual({
      next_cursor: "<next_cursor 1>",
      location: "/v1/scopes/<scp 1>",
      title: "Conformance A",
    });
  });

  it("compare an error's code and details but not its message", () => {
    const a = comparable({ error: { code: "not_found", message: "Gone.", details: null } }, 404);
    const b = comparable({ error: { code: "not_found", message: "Nothing here.", details: null } }, 404);
    expect(firstDifference(a, b)).toBeNull();
    expect(
      firstDifference(a, comparable({ error: { code: "not_found", message: "x", details: { id: 1 } } }, 404)),
    ).toBe('/error/details: null vs {"id":1}');
  });
});

describe("shapes", () => {
  it("count null as a type, absent members, and nested element types", () => {
    expect(shapeDifferences({ a: null, b: 1, c: [{ x: "s" }] }, { a: "t", c: [{ x: 2 }, { x: 3 }] })).toEqual([
      "/a: real null, mock string",
      "/b: only real",
      "/c/0/x: real string, mock number",
    ]);
  });

  it("leave list lengths to the value comparison", () => {
    expect(shapeDifferences({ items: [] }, { items: [{ id: 1 }] })).toEqual([]);
  });

  it("pair list elements of equal shape first, so another order is no shape difference, and compare the rest by position", () => {
    const revoked = { id: "a", reason: null, revoked_at: "2026-01-01T00:00:00Z" };
    const active = { id: "b", reason: "on call", revoked_at: null };
    expect(shapeDifferences({ items: [revoked, active] }, { items: [active, revoked] })).toEqual([]);
    expect(
      shapeDifferences({ items: [revoked, active] }, { items: [active, { ...revoked, revoked_at: null }] }),
    ).toEqual(["/items/0/revoked_at: real string, mock null"]);
  });
});

describe("compareObservations", () => {
  it("agrees on equal answers and tells status, code, shape and value differences apart", () => {
    const real = [
      observation("same", 200, { title: "A" }),
      observation("status", 404, { error: { code: "scope_not_found", message: "m", details: null } }),
      observation("code", 409, { error: { code: "scope_version_conflict", message: "m", details: null } }),
      observation("shape", 200, { title: "A", version: 1 }),
      observation("value", 200, { items: [1, 2] }),
    ];
    const mock = [
      observation("same", 200, { title: "A" }),
      observation("status", 200, { title: "A" }),
      observation("code", 409, { error: { code: "version_conflict", message: "m", details: null } }),
      observation("shape", 200, { title: "A" }),
      observation("value", 200, { items: [1] }),
    ];
    const rows = compareObservations(real, mock, tagOf, new Map());
    expect(rows.map((r) => [r.step, r.status, r.code, r.shape, r.values])).toEqual([
      ["same", true, true, true, true],
      ["status", false, false, false, null],
      ["code", true, false, false, null],
      ["shape", true, true, false, null],
      ["value", true, true, true, false],
    ]);
    expect(rows[4]!.details).toEqual(["value /items: 2 items vs 1"]);
  });

  it("counts a header one side sends and the other does not as a shape difference", () => {
    const [row] = compareObservations(
      [observation("h", 200, {}, undefined, { etag: '"1"' })],
      [observation("h", 200, {})],
      tagOf,
      new Map(),
    );
    expect(row!.shape).toBe(false);
    expect(row!.details).toEqual(["shape header etag: only real"]);
  });

  it("reports a page only one side served (a list that does not end the same way)", () => {
    const rows = compareObservations(
      [observation("list", 200, { items: [] })],
      [observation("list", 200, { items: [] }), observation("list#2", 200, { items: [] })],
      tagOf,
      new Map(),
    );
    expect(rows.map((r) => [r.step, r.status])).toEqual([
      ["list", true],
      ["list#2", false],
    ]);
    expect(rows[1]!.details).toEqual(["real did not get this far"]);
  });
});
