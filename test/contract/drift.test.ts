// The contract drift `powercontext-mock verify` reports, run on openapi.yaml against the
// installed release's own contract: nothing but what docs/compatibility.md says we add
// (the Operation API, and the asynchronous flush's 202 and 409).
import { describe, expect, it } from "vitest";
import { compareContracts } from "../../packages/msw/src/verify/drift.js";
import { loadOurs, loadRelease, releaseAvailable } from "./documents.js";

const run = releaseAvailable("contract drift against the release");

describe.runIf(run)("compareContracts(openapi.yaml, the release's contract)", () => {
  it("finds only the additions of our contract", () => {
    const report = compareContracts(loadOurs(), loadRelease());
    expect(report.added).toEqual([]);
    expect(report.missing.map((op) => op.operationId)).toEqual([
      "cancel_operation",
      "get_operation",
      "list_operations",
      "retry_operation",
    ]);
    expect(report.changed.map((op) => [op.operationId, op.changes.map((c) => c.at)])).toEqual([
      ["flush_memory", ["responses/202", "responses/409"]],
    ]);
    expect(report.versions.server).toBe("1.4.1");
  });
});
