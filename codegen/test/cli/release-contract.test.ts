import { describe, expect, it } from "vitest";
import { releaseContractPath, releaseContractTool } from "../../../test/real/release-contract.js";
import { requireTools } from "../../../test/real/tools.js";
import { EXIT, runCli } from "../../src/cli.js";
import { generate } from "../../src/pipeline.js";
import { scratchDir } from "../helpers/paths.js";

const run = requireTools("codegen on the released 1.4.1 contract", releaseContractTool());

describe.runIf(run)("the released 1.4.1 contract, unchanged", () => {
  it("--lint upstream exits 0 with 126 operations and warns about the numeric exclusiveMinimum", async () => {
    let stdout = "";
    let stderr = "";
    const code = await runCli(["--spec", releaseContractPath(), "--out", scratchDir("release"), "--lint", "upstream"], {
      cwd: process.cwd(),
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
    });
    expect(code).toBe(EXIT.ok);
    expect(stdout).toMatch(/generated: 126 operations, 454 schemas/);
    expect(stderr).toMatch(
      /^warning: #\/components\/schemas\/DreamBudget\/properties\/timeout_seconds\/exclusiveMinimum: numeric/m,
    );
  });

  it("the IR holds its header parameters, several success statuses, 304s and the Markdown report", async () => {
    const { ir } = await generate(releaseContractPath(), { lint: "upstream" });
    const byId = new Map(ir.operations.map((op) => [op.operationId, op]));
    const headers = ir.operations.flatMap((op) => op.parameters.header.map((p) => `${op.operationId}:${p.name}`));
    expect(headers).toHaveLength(7);
    expect(headers).toContain("replace_artifact:If-Match");
    expect(headers).toContain("get_artifact:If-None-Match");
    expect(byId.get("create_dream_run")?.successStatuses).toEqual([200, 202]);
    expect(
      ir.operations
        .filter((op) => op.notModified !== null)
        .map((op) => op.operationId)
        .sort(),
    ).toEqual(["get_artifact", "get_artifact_tags", "get_atomic_memory_state", "get_memory_entry_tags"]);
    const report = byId.get("get_handoff_report")!.success;
    expect(report.kind).toBe("json");
    expect(report.media.map((m) => m.kind)).toContain("text");
    const tag = byId.get("list_artifacts")!.parameters.query.find((p) => p.name === "tag");
    expect(tag).toMatchObject({ style: "form", explode: true });
    expect(ir.operations.every((op) => op.security !== null)).toBe(true);
  });
});
