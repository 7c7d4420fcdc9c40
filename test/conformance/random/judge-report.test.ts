// The random run's verdicts and report, on answers made up here: the code markers, the
// member paths, the tallies, the classes, and the floors of targets.json.
import { describe, expect, it } from "vitest";
import type { Answer } from "../send-step.js";
import { belowFloors, RANDOM_TARGETS } from "../../../packages/msw/src/verify/random/floors.js";
import { formatRandomReport } from "./format-random.js";
import { codeOf, judge, memberPaths } from "../../../packages/msw/src/verify/random/judge.js";
import { buildRandomReport } from "../../../packages/msw/src/verify/random/report.js";
import type { LogicalRequest } from "../../../packages/msw/src/verify/random/requests.js";
import type { RandomRow, RandomRunResult } from "./run-random.js";

function answer(status: number, body: unknown, contentType = "application/json"): Answer {
  return { status, body, contentType, headers: new Headers() };
}

describe("codes and member paths", () => {
  it("reads the envelope's code, and marks bodies that are no envelope", () => {
    expect(codeOf(answer(404, { error: { code: "scope_not_found", message: "x" } }))).toBe("scope_not_found");
    expect(codeOf(answer(404, { detail: "Not Found" }))).toBe("{detail}");
    expect(codeOf(answer(422, [1]))).toBe("<json>");
    expect(codeOf(answer(502, "<html>", "text/html"))).toBe("<text/html>");
    expect(codeOf(answer(500, null))).toBe("<empty>");
    expect(codeOf(answer(200, { error: { code: "x" } }))).toBeNull();
  });

  it("lists member paths with JSON types, an array's items pooled, numbers one type", () => {
    const body = {
      items: [
        { id: "a", n: 1 },
        { id: "b", n: 1.5, extra: null },
      ],
      next: null,
    };
    expect(memberPaths(body, "application/json")).toEqual([
      "/:object",
      "/items:array",
      "/items[]/extra:null",
      "/items[]/id:string",
      "/items[]/n:number",
      "/items[]:object",
      "/next:null",
    ]);
    expect(memberPaths("# text", "text/markdown")).toEqual(["<text/markdown>"]);
  });

  it("agrees on status, code and, for two 2xx, member paths", () => {
    const ok = judge(answer(200, { a: 1, b: [{ c: "x" }] }), answer(200, { a: 2, b: [] }));
    expect(ok).toMatchObject({ status: true, code: true, paths: false, onlyReal: ["/b[]/c:string", "/b[]:object"] });
    expect(judge(answer(200, { a: 1 }), answer(200, { a: 3 })).paths).toBe(true);
    const codes = judge(answer(422, { error: { code: "a" } }), answer(422, { error: { code: "b" } }));
    expect(codes).toMatchObject({ status: true, code: false, paths: null });
    expect(judge(answer(404, { detail: "x" }), answer(200, {})).status).toBe(false);
  });
});

function row(
  index: number,
  operation: string,
  tag: string,
  real: Answer,
  mock: Answer,
  fault: LogicalRequest["fault"] = null,
): RandomRow {
  const http = { method: "GET", target: `/x/${index}`, headers: {}, body: undefined };
  const kept = (a: Answer) => ({ status: a.status, code: codeOf(a), body: JSON.stringify(a.body) });
  const request: LogicalRequest = {
    index,
    operation,
    tag,
    k: 0,
    method: "GET",
    path: "/x",
    params: {},
    locations: {},
    body: undefined,
    fault,
  };
  return {
    request,
    real: { http, answer: kept(real) },
    mock: { http, answer: kept(mock) },
    verdict: judge(real, mock),
    unresolvedOnMock: 0,
    refusedValid: false,
    ms: 1,
  };
}

describe("the report", () => {
  const fault = { kind: "type" as const, part: "body" as const, pointer: "/a", location: null, detail: "type" };
  const rows = [
    row(0, "create", "things", answer(201, { id: "x" }), answer(201, { id: "y" })),
    row(1, "get", "things", answer(422, { error: { code: "bad" } }), answer(200, { id: "y" })),
    row(2, "get", "things", answer(422, { error: { code: "bad" } }), answer(200, { id: "y" })),
    row(3, "list", "lists", answer(200, { items: [] }), answer(500, { error: { code: "internal_error" } })),
    row(4, "list", "lists", answer(422, { error: { code: "bad" } }), answer(422, { error: { code: "bad" } }), fault),
    row(5, "create", "things", answer(201, { id: "x", more: 1 }), answer(201, { id: "z" })),
  ];
  const run: RandomRunResult = { release: "r", seed: 7, k: 1, operations: 3, rows, realMs: 10, mockMs: 5 };
  const report = buildRandomReport([run]);

  it("counts agreement, each side's 2xx, 5xx only the mock answers and member paths", () => {
    expect(report.overall).toMatchObject({
      requests: 6,
      agree: 3,
      valid: 5,
      validAgree: 2,
      faulted: 1,
      faultedAgree: 1,
      real2xx: 3,
      mock2xx: 4,
      mockOnly5xx: 1,
      realOnly5xx: 0,
      pathsCompared: 2,
      pathsAgree: 1,
    });
    expect(report.overall.twoXxDeviation).toBeCloseTo(1 / 3);
    expect(report.byTag.lists).toMatchObject({ requests: 2, agree: 1, mockOnly5xx: 1 });
  });

  it("ranks disagreement classes by count, with their first request as example", () => {
    expect(report.classes.map((c) => [c.real, c.mock, c.fault, c.count])).toEqual([
      ["422 bad", "200", "valid", 2],
      ["200", "500 internal_error", "valid", 1],
    ]);
    expect(report.classes[0]!.example).toMatchObject({ seed: 7, index: 1, operation: "get" });
    expect(report.pathClasses).toMatchObject([{ operation: "create", count: 1, onlyReal: ["/more:number"] }]);
    expect(report.disagreeing.map((d) => d.operation)).toEqual(["get", "list", "create"]);
  });

  it("writes the seed and the command that replays it", () => {
    const text = formatRandomReport(report);
    expect(text).toContain("npm run conformance -- --random --seed 7 --k 1");
    expect(text).toContain("| status+code agree | 50.0% (3/6) |");
  });

  it("names each floor a report falls below", () => {
    const floors = { codeRatio: 0.6, pathRatio: 0.4, mockOnly5xx: 0, twoXxDeviation: 0.5 };
    expect(belowFloors(report, floors)).toEqual([
      "status+code agreement 0.5000 is below the floor 0.6",
      "1 mock-only 5xx answers, more than the ceiling 0",
    ]);
    expect(belowFloors(report, { ...floors, codeRatio: 0.5, mockOnly5xx: 1 })).toEqual([]);
  });

  it("holds floors that are fractions and ceilings, beside unchanged final targets", () => {
    const { test, ci, final } = RANDOM_TARGETS;
    expect(final).toEqual({ codeRatio: 0.95, pathRatio: 0.97, mockOnly5xx: 0, twoXxDeviation: 0.05 });
    for (const floors of [test, ci]) {
      expect(floors.k).toBeGreaterThan(0);
      for (const ratio of [floors.codeRatio, floors.pathRatio, floors.twoXxDeviation]) {
        expect(ratio).toBeGreaterThan(0);
        expect(ratio).toBeLessThanOrEqual(1);
      }
      expect(Number.isInteger(floors.mockOnly5xx) && floors.mockOnly5xx >= 0).toBe(true);
    }
    expect(ci.k).toBe(8);
  });
});
