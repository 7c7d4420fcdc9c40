import junitReportBuilder, { type Builder } from "junit-report-builder";

// The package is CommonJS (`module.exports = builder`) whose types declare an ES default
// export; under NodeNext the default import is `module.exports` itself, the builder.
const builder = junitReportBuilder as unknown as Builder;

/**
 * One judged comparison of `powercontext-mock verify`: a scenario step or a random
 * request sent to the server and to the mock, or one operation of the contract drift.
 * It is what the terminal table counts and what the JUnit file lists, one test case each.
 */
export interface VerifyCase {
  /** The group: a scenario's name, `random <tag>`, or `contract drift`. */
  readonly suite: string;
  /** The case within it: a step id, `<operationId> #<n>`, or an operationId. */
  readonly name: string;
  /** True when both sides agree on what this case judges. */
  readonly agree: boolean;
  /** Why not, in one line (`status 422 invalid_request vs 200`); null when they agree. */
  readonly difference: string | null;
  /** The request and both answers, secrets removed, for the failure's body; null when they agree. */
  readonly evidence: string | null;
  /** Wall time of the case in seconds (both sides). */
  readonly seconds: number;
  /** Why the case was not judged (an operation the server does not serve); absent when it was. */
  readonly skipped?: string;
}

/**
 * The cases as a JUnit XML report (one `<testsuite>` per suite, one `<testcase>` per
 * case, a `<failure>` for each difference with its evidence as text), the form GitHub
 * Actions' and GitLab's test report readers take. `junit-report-builder` writes it,
 * escaping included.
 *
 * @param name the report's name (`powercontext-mock verify`)
 */
export function junitReport(cases: readonly VerifyCase[], name: string): string {
  const report = builder.newBuilder().name(name);
  const suites = new Map<string, ReturnType<typeof report.testSuite>>();
  for (const entry of cases) {
    let suite = suites.get(entry.suite);
    if (suite === undefined) {
      suite = report.testSuite().name(entry.suite);
      suites.set(entry.suite, suite);
    }
    const test = suite.testCase().className(entry.suite).name(entry.name).time(entry.seconds);
    if (entry.skipped !== undefined) test.skipped().standardOutput(entry.skipped);
    else if (!entry.agree) {
      test.failure(entry.difference ?? "the mock and the server differ", "difference");
      if (entry.evidence !== null) test.standardOutput(entry.evidence);
    }
  }
  return report.build();
}
