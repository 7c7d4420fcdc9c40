import { readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import yaml from "js-yaml";
import { generate } from "../../src/index.js";
import { generateFromText } from "../../src/pipeline.js";
import { fixturesDir, upstreamContract, upstreamSpec, upstreamTable, OUTPUT_PATHS } from "../helpers/paths.js";

interface HostRow {
  method: string;
  path: string;
  location: string | null;
  scope: boolean;
  scopeMode: string;
  pathParameters: string[];
  queryParams: string[];
  headerParams: string[];
  successStatuses: number[];
  emptyStatuses: number[];
}
interface HostModule {
  OPERATIONS: Record<string, HostRow>;
  OPERATION_IDS: string[];
}

/** The emitted TypeScript, compiled and imported as the module a host would load. */
async function load(text: string): Promise<HostModule> {
  const js = ts.transpileModule(text, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  }).outputText;
  return (await import(`data:text/javascript;base64,${Buffer.from(js).toString("base64")}`)) as HostModule;
}

describe("the hosts' operation table", () => {
  it.runIf(upstreamContract("the hosts' operation table of the published 0.0.2 contract"))(
    "reproduces the published 0.0.2 table row for row",
    async () => {
      const generated = await generate(upstreamSpec, { lint: "upstream" });
      const table = await load(generated.files.get(OUTPUT_PATHS.hostTable)!);
      const theirs = (
        JSON.parse(readFileSync(upstreamTable, "utf8")) as {
          operations: {
            operation_id: string;
            method: string;
            path: string;
            request_location: string | null;
            scope: boolean;
            success_status: number;
          }[];
        }
      ).operations;
      expect(table.OPERATION_IDS).toEqual(theirs.map((r) => r.operation_id));
      const ours = table.OPERATION_IDS.map((id) => {
        const r = table.OPERATIONS[id]!;
        return {
          operation_id: id,
          method: r.method,
          path: r.path,
          request_location: r.location,
          scope: r.scope,
          success_status: r.successStatuses[0],
        };
      });
      expect(ours).toEqual(
        theirs.map(({ operation_id, method, path, request_location, scope, success_status }) => ({
          operation_id,
          method,
          path,
          request_location,
          scope,
          success_status,
        })),
      );
      expect(theirs).toHaveLength(52);
    },
  );

  it("carries parameters, scope mode and the statuses without a body", async () => {
    const generated = await generate(`${fixturesDir}/features.yaml`);
    const table = await load(generated.files.get(OUTPUT_PATHS.hostTable)!);
    for (const op of generated.ir.operations) {
      const row = table.OPERATIONS[op.operationId]!;
      expect(row.pathParameters).toEqual(op.pathParameters.map((p) => p.name));
      expect(row.queryParams).toEqual(op.queryParameters.map((p) => p.name));
      expect(row.scopeMode).toBe("none");
      const twoHundreds = op.responses.filter((r) => r.status >= 200 && r.status < 300);
      expect(row.successStatuses).toEqual(twoHundreds.map((r) => r.status));
      expect(row.emptyStatuses).toEqual(twoHundreds.filter((r) => r.schema === null).map((r) => r.status));
    }
    expect(Object.values(table.OPERATIONS).some((r) => r.pathParameters.length > 0)).toBe(true);
  });

  it("reads x-powercontext-scope-mode from the operation", async () => {
    const document = yaml.load(readFileSync(`${fixturesDir}/features.yaml`, "utf8")) as {
      paths: Record<string, Record<string, { parameters?: unknown[]; [k: string]: unknown }>>;
    };
    const [path, item] = Object.entries(document.paths).find(([, i]) =>
      Object.values(i).some((op) => typeof op === "object" && op !== null && "requestBody" in op),
    )!;
    const [, op] = Object.entries(item).find(([, o]) => typeof o === "object" && o !== null && "requestBody" in o)!;
    op["x-powercontext-scope-mode"] = "current";
    const generated = await generateFromText(JSON.stringify(document), "features.json", { lint: "upstream" });
    const id = String(op.operationId);
    const row = (await load(generated.files.get(OUTPUT_PATHS.hostTable)!)).OPERATIONS[id]!;
    expect(row.headerParams).toEqual([]);
    expect(row.scopeMode).toBe("current");
    expect(row.path).toBe(path);
  });
});
