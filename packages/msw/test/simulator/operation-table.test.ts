import { describe, expect, it } from "vitest";
import { simOperations, simOperationIds } from "../../src/simulator/operation-table.js";
import { spec } from "../support/contract.js";

describe("operation table", () => {
  const fromSpec = Object.entries(spec.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );

  it("serves exactly the operations of openapi.yaml", () => {
    expect([...simOperationIds].sort()).toEqual(fromSpec.map((e) => e.op.operationId as string).sort());
  });

  it.each(fromSpec.map((e) => [e.op.operationId as string, e] as const))("%s matches its route, permission and statuses", (id, entry) => {
    const mine = simOperations[id as keyof typeof simOperations];
    expect(mine.method).toBe(entry.method);
    expect(mine.path).toBe(entry.path);
    expect(mine.permission).toBe(entry.op["x-powercontext-permission"] ?? null);
    expect(mine.authenticated).toBe(!(Array.isArray(entry.op.security) && entry.op.security.length === 0));
    const declared = Object.keys(entry.op.responses as object).map(Number);
    expect([...mine.statuses].sort()).toEqual(declared.sort());
    const responses = entry.op.responses as Record<string, { $ref?: string; content?: Record<string, { schema: { $ref: string } }> }>;
    const reports = declared.filter((s) => s >= 400 && !responses[String(s)]?.$ref && !responses[String(s)]?.content?.["application/json"]?.schema.$ref.endsWith("/ErrorResponse"));
    expect([...("reportStatuses" in mine ? mine.reportStatuses : [])]).toEqual(reports);
  });
});
