import { describe, expect, it } from "vitest";
import { simOperations, simOperationIds } from "../../src/simulator/operation-table.js";
import { spec } from "../support/contract.js";

describe("operation table", () => {
  const fromSpec = new Map(
    Object.entries(spec.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => [op.operationId as string, { path, method: method.toUpperCase(), op }] as const),
    ),
  );

  it("serves only operations of openapi.yaml, among them the quick start's and the recovery story's", () => {
    for (const id of simOperationIds) expect(fromSpec.has(id), id).toBe(true);
    for (const id of ["get_default_scope", "create_scope", "capture_content_source", "flush_memory", "get_operation", "search_memory", "retry_topic_memory_processing"]) {
      expect(simOperationIds).toContain(id);
    }
  });

  it.each(simOperationIds.map((id) => [id] as const))("%s matches its route, access rule and statuses", (id) => {
    const entry = fromSpec.get(id)!;
    const mine = simOperations[id];
    expect(mine.method).toBe(entry.method);
    expect(mine.path).toBe(entry.path);
    const access = entry.op["x-powercontext-access"] as { action?: string; resolver?: string } | undefined;
    expect(mine.access).toBe(access?.action ?? access?.resolver ?? null);
    expect(mine.authenticated).toBe(!(Array.isArray(entry.op.security) && entry.op.security.length === 0));
    const declared = Object.keys(entry.op.responses as object).map(Number);
    expect([...mine.statuses].sort()).toEqual(declared.sort());
    const responses = entry.op.responses as Record<string, { $ref?: string; content?: Record<string, { schema: { $ref: string } }> }>;
    const reports = declared.filter((s) => s >= 400 && !responses[String(s)]?.$ref && !responses[String(s)]?.content?.["application/json"]?.schema.$ref.endsWith("/ErrorResponse"));
    expect([...("reportStatuses" in mine ? mine.reportStatuses : [])]).toEqual(reports);
  });
});
