// The JUnit file of `verify`: one test case per judged comparison, grouped by suite,
// a failure with the difference and its evidence, parsed back as CI readers parse it.
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { junitReport, type VerifyCase } from "../../src/verify/junit.js";

const cases: VerifyCase[] = [
  { suite: "scope-lifecycle", name: "create", agree: true, difference: null, evidence: null, seconds: 0.02 },
  {
    suite: "scope-lifecycle",
    name: 'replace <stale> & "quoted"',
    agree: false,
    difference: "status 409 scope_version_conflict vs 200",
    evidence: 'PUT /v1/scopes/x\nserver: {"error": {"code": "scope_version_conflict"}}\nmock: {"scope_id": "x"}\u0000',
    seconds: 0.01,
  },
  { suite: "random scopes", name: "list_scopes #1", agree: true, difference: null, evidence: null, seconds: 0 },
];

describe("junitReport", () => {
  it("writes one testsuite per suite and one testcase per case, failures with their difference", () => {
    const xml = junitReport(cases, "powercontext-mock verify");
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(xml) as {
      testsuites: {
        name: string;
        tests: string;
        failures: string;
        testsuite: Array<{ name: string; testcase: unknown }>;
      };
    };
    expect(parsed.testsuites).toMatchObject({ name: "powercontext-mock verify", tests: "3", failures: "1" });
    expect(parsed.testsuites.testsuite.map((s) => s.name)).toEqual(["scope-lifecycle", "random scopes"]);
    const first = parsed.testsuites.testsuite[0];
    if (first === undefined) throw new Error("the report has no test suite");
    const [, failing] = first.testcase as Array<Record<string, unknown>>;
    expect(failing).toMatchObject({
      name: 'replace <stale> & "quoted"',
      failure: { message: "status 409 scope_version_conflict vs 200", type: "difference" },
    });
    expect(String(failing?.["system-out"])).toContain("scope_version_conflict");
  });
});
