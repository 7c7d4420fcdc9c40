import path from "node:path";
import { describe, expect, it } from "vitest";
import { SpecError } from "../../src/errors.js";
import { emitContractErrors } from "../../src/targets/client/contract-errors.js";
import { generate } from "../../src/pipeline.js";
import { fixturesDir } from "../helpers/paths.js";

describe("contract error classes and the code table, from x-powercontext-error-codes", async () => {
  const generated = await generate(path.join(fixturesDir, "features.yaml"));
  const codes = generated.files.get("packages/sdk/src/generated/error-codes.ts")!;
  const classes = generated.files.get("packages/sdk/src/generated/contract-errors.ts")!;
  const operations = generated.files.get("packages/sdk/src/generated/operations.ts")!;

  it("writes the table once, code -> status and transient, and every descriptor points at its retry-stopping rows", () => {
    expect(codes).toContain("  no_backend: { status: 503, transient: false },\n");
    expect(codes).toContain("  warming_up: { status: 503, transient: true },\n");
    const stop = codes.slice(codes.indexOf("export const retryStopCodes"));
    expect(stop.slice(0, stop.indexOf("};"))).toMatch(
      /^export const retryStopCodes: ErrorCodeTable = \{\n {2}no_backend: \{ status: 503, transient: false \},\n$/,
    );
    expect(operations.match(/import \{ retryStopCodes \} from "\.\/error-codes\.js";/g)).toHaveLength(1);
    // The rows leave the table out; the module's row function adds it to every row.
    expect(operations).toMatch(
      /^const row = \(fields: OperationRow\): OperationDescriptor => \(\{.* errorCodes: retryStopCodes, .*\.\.\.fields \}\);$/m,
    );
    const descriptors = operations.match(/: OperationDescriptor = \/\* @__PURE__ \*\/ row\(\{$/gm)!.length;
    expect(descriptors).toBeGreaterThan(0);
    expect(operations.match(/^export const \w+Descriptor\b/gm)).toHaveLength(descriptors);
    expect(operations).not.toMatch(/^ {2}errorCodes:/m);
  });

  it("types details per code from the registry: schema types, enums, names only as unknown", () => {
    expect(codes).toContain(
      "  stale_job: {\n    /** `details.current_version`. */\n    readonly current_version?: number;\n    readonly [member: string]: unknown;\n  };",
    );
    expect(codes).toContain('    readonly backend?: "gpu" | "cpu";\n');
    expect(codes).toContain("    readonly owner?: unknown;\n");
    expect(codes).toContain("warming_up: { readonly [member: string]: unknown };");
  });

  it("writes a class only for codes that name one; the reconcile conflict code's class is a GuardedConflictError", () => {
    expect(classes).toContain("export class StaleJobError extends GuardedConflictError {");
    expect(classes).toContain("export class AccountTakenError extends ConflictError {");
    expect(classes).not.toMatch(/class \w+ extends ServiceUnavailableError/);
    expect(classes).toContain('    return errorBrand("StaleJobError");');
    expect(classes).toContain(
      '    this.currentVersion = detailMember<number>(init.details, "current_version", "integer");',
    );
    expect(classes).toContain('    this.owner = init.details?.["owner"] ?? null;');
    expect(classes).toContain("  stale_job: { status: 409, errorClass: StaleJobError },\n");
    expect(operations).toContain('conflictCode: "stale_job"');
  });

  it("refuses a detail whose member name every server error already has, and a non-409 conflict code", () => {
    const row = generated.ir.errorCodes.find((r) => r.code === "account_taken")!;
    const others = generated.ir.errorCodes.filter((r) => r.code !== "account_taken");
    const clash = {
      ...generated.ir,
      errorCodes: [...others, { ...row, details: [{ name: "status_code", schema: null }] }],
    };
    expect(() => emitContractErrors(clash)).toThrow(SpecError);
    expect(() => emitContractErrors(clash)).toThrow(/becomes member statusCode/);
    const stale = generated.ir.errorCodes.find((r) => r.code === "stale_job")!;
    const wrongStatus = {
      ...generated.ir,
      errorCodes: [...generated.ir.errorCodes.filter((r) => r.code !== "stale_job"), { ...stale, status: 412 }],
    };
    expect(() => emitContractErrors(wrongStatus)).toThrow(/reconcile conflict code, so its status must be 409/);
  });

  it("refuses a reconcile conflict code without a class, naming the operation's reconcile pointer", () => {
    const classless = {
      ...generated.ir,
      errorCodes: generated.ir.errorCodes.map((row) => (row.code === "stale_job" ? { ...row, className: null } : row)),
    };
    expect(() => emitContractErrors(classless)).toThrow(
      /x-powercontext-reconcile: conflict code "stale_job" needs a row with a class/,
    );
  });

  it("a spec without a registry gets neither file", async () => {
    const wide = await generate(path.join(fixturesDir, "wide.yaml"), { lint: "upstream" });
    expect([...wide.files.keys()].filter((file) => /error-codes|contract-errors/.test(file))).toEqual([]);
  });
});
