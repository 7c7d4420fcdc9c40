import { suiteName } from "../../../test/real/tools.js";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { LintError, generate } from "../../src/index.js";
import type { Generated } from "../../src/pipeline.js";
import { upstreamContract, upstreamSpec, upstreamTable, OUTPUT_PATHS } from "../helpers/paths.js";
import { typecheck } from "../helpers/typecheck.js";

interface Row {
  operation_id: string;
  method: string;
  path: string;
  request_location: string | null;
  success_status: number;
  request_type: string | null;
  response_type: string | null;
  scope: boolean;
}

describe.runIf(upstreamContract(suiteName(import.meta.url)))("published contract powercontext-0.0.2", () => {
  let generated: Generated;
  let ours: { spec: string; operations: Row[] };
  let theirs: { operations: Row[] };
  beforeAll(async () => {
    generated = await generate(upstreamSpec, { lint: "upstream" });
    ours = JSON.parse(generated.files.get(OUTPUT_PATHS.pythonTable) as string) as typeof ours;
    theirs = JSON.parse(readFileSync(upstreamTable, "utf8")) as typeof theirs;
  });

  it("reproduces the upstream operation table row for row", () => {
    const key = (r: Row) => ({
      operation_id: r.operation_id,
      method: r.method,
      path: r.path,
      request_location: r.request_location,
      success_status: r.success_status,
      scope: r.scope,
    });
    expect(ours.operations.map(key)).toEqual(theirs.operations.map(key));
    expect(ours.spec).toBe("powercontext-0.0.2.yaml");
  });

  it("names the same request and response types as upstream", () => {
    const types = (r: Row) => [r.operation_id, r.request_type, r.response_type];
    expect(ours.operations.map(types)).toEqual(theirs.operations.map(types));
  });

  it("fills retry classes from the upstream profile", () => {
    const byId = new Map(generated.ir.operations.map((op) => [op.operationId, op]));
    expect(byId.get("get_stats")?.retryClass).toBe("safe");
    expect(byId.get("flush_memory")?.retryClass).toBe("never");
    expect(generated.ir.operations.every((op) => op.retryClassDefaulted)).toBe(true);
  });

  it("reports the non-envelope 503 of get_readiness as a warning", () => {
    expect(generated.warnings.map((w) => w.pointer)).toContain("/paths/~1health~1ready/get/responses/503");
  });

  it("emits TypeScript that type-checks under strict settings", { timeout: 120_000 }, () => {
    const { errors } = typecheck(generated.files);
    expect(errors).toEqual([]);
  });

  it("is rejected by the strict profile for its missing retry classes", async () => {
    const error = await generate(upstreamSpec).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LintError);
    const codes = new Set((error as LintError).issues.map((i) => i.code));
    expect(codes).toContain("missing_retry_class");
  });

  it("is deterministic", async () => {
    const again = await generate(upstreamSpec, { lint: "upstream" });
    expect([...again.files]).toEqual([...generated.files]);
  });
});
