// Our x-powercontext-* extensions in openapi.yaml are complete and consistent: a retry
// class on every operation that follows the rules and the table of docs/retry-classes.md,
// error codes that the registry knows, and async, reconcile and pagination members that
// name things the operation really has. Reads openapi.yaml only.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../real/tools.js";
import { loadOurs, operationsOf, type Json, type JsonObject, type OperationEntry } from "./documents.js";

const doc = loadOurs();
const operations = operationsOf(doc);
const CLASSES = ["safe", "replay", "guarded", "never"];
const RULE_CLASS: Record<string, string> = {
  R1: "safe",
  R2a: "replay",
  R2b: "replay",
  R3: "replay",
  R4: "guarded",
  R5: "never",
};

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);
function deref(node: Json | undefined): JsonObject {
  let current = node;
  for (let i = 0; i < 16 && isObject(current) && typeof current.$ref === "string"; i++) {
    current = current.$ref
      .slice(2)
      .split("/")
      .reduce<Json | undefined>((n, key) => (isObject(n) ? n[key] : undefined), doc);
  }
  return isObject(current) ? current : {};
}
const bodySchema = (op: OperationEntry) =>
  deref(
    (
      (deref(op.operation.requestBody).content as JsonObject | undefined)?.["application/json"] as
        | JsonObject
        | undefined
    )?.schema,
  );
const parameters = (op: OperationEntry) => ((op.operation.parameters ?? []) as Json[]).map(deref);
function successSchema(op: OperationEntry): JsonObject {
  const responses = op.operation.responses as JsonObject;
  const status = Object.keys(responses).find((s) => s.startsWith("2"))!;
  return deref(
    ((deref(responses[status]).content as JsonObject | undefined)?.["application/json"] as JsonObject | undefined)
      ?.schema,
  );
}
const ext = (op: OperationEntry, name: string) => op.operation[`x-powercontext-${name}`] as Json | undefined;

function docsTable(): Map<string, { route: string; retryClass: string; rule: string }> {
  const text = readFileSync(join(repoRoot, "docs", "retry-classes.md"), "utf8");
  const section = text.slice(text.indexOf("## Every operation"));
  const rows = new Map<string, { route: string; retryClass: string; rule: string }>();
  for (const line of section.split("\n")) {
    const m = /^\| `([a-z_]+)` \| `([A-Z]+ [^`]+)` \| (\w+) \| (R\w+) \|$/.exec(line);
    if (m) rows.set(m[1]!, { route: m[2]!, retryClass: m[3]!, rule: m[4]! });
  }
  return rows;
}

describe("retry classes", () => {
  it("gives every operation one of the four classes", () => {
    expect(operations.length).toBe(130);
    expect(
      operations.filter((op) => !CLASSES.includes(String(ext(op, "retry-class")))).map((op) => op.operationId),
    ).toEqual([]);
  });

  it("matches the table of docs/retry-classes.md, row for row, with its counts", () => {
    const table = docsTable();
    const fromSpec = operations
      .map((op) => [op.operationId, `${op.method} ${op.path}`, String(ext(op, "retry-class"))].join(" "))
      .sort();
    const fromDocs = [...table].map(([id, row]) => [id, row.route, row.retryClass].join(" ")).sort();
    expect(fromDocs).toEqual(fromSpec);
    expect([...table].filter(([, row]) => RULE_CLASS[row.rule] !== row.retryClass).map(([id]) => id)).toEqual([]);
    const counts = Object.fromEntries(
      CLASSES.map((c) => [c, operations.filter((op) => ext(op, "retry-class") === c).length]),
    );
    const text = readFileSync(join(repoRoot, "docs", "retry-classes.md"), "utf8");
    expect(text).toContain(
      `${operations.length} operations: safe ${counts.safe}, replay ${counts.replay}, guarded ${counts.guarded}, never ${counts.never}.`,
    );
  });

  it("follows the mechanical rules: GETs are safe, idempotency keys replay, preconditions guard", () => {
    const broken: string[] = [];
    for (const op of operations) {
      const retryClass = ext(op, "retry-class");
      const required = new Set(((bodySchema(op).required ?? []) as Json[]).map(String));
      const ifMatch = parameters(op).some((p) => p.in === "header" && p.name === "If-Match" && p.required === true);
      if (op.method === "GET" && retryClass !== "safe") broken.push(`${op.operationId}: GET must be safe`);
      if (required.has("idempotency_key")) {
        if (retryClass !== "replay") broken.push(`${op.operationId}: idempotency_key makes it replay`);
      } else if (
        (ifMatch || required.has("expected_version") || required.has("expected_generation")) &&
        retryClass !== "guarded"
      ) {
        broken.push(`${op.operationId}: a required precondition makes it guarded`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe("error codes", () => {
  const registry = doc["x-powercontext-error-codes"] as JsonObject;

  it("has a registry entry with a status and a transient flag for every code", () => {
    expect(Object.keys(registry).length).toBeGreaterThan(20);
    const bad = Object.entries(registry).filter(
      ([, e]) => !isObject(e) || !Number.isInteger(e.status) || typeof e.transient !== "boolean",
    );
    expect(bad.map(([code]) => code)).toEqual([]);
  });

  it("marks codes no wait can cure as not transient", () => {
    for (const code of [
      "inference_unavailable",
      "generation_unavailable",
      "topic_memory_processing_unavailable",
      "capability_unavailable",
    ]) {
      expect((registry[code] as JsonObject).transient, code).toBe(false);
    }
    for (const code of ["rate_limited", "runtime_not_ready", "inference_timeout"])
      expect((registry[code] as JsonObject).transient, code).toBe(true);
  });

  it("lists per operation only registry codes, under their status, which the operation declares", () => {
    const bad: string[] = [];
    for (const op of operations) {
      const errors = ext(op, "errors");
      if (errors === undefined) continue;
      for (const [status, codes] of Object.entries(errors as JsonObject)) {
        if (!(status in (op.operation.responses as JsonObject)))
          bad.push(`${op.operationId}: ${status} is not declared`);
        for (const code of codes as Json[]) {
          const entry = registry[String(code)] as JsonObject | undefined;
          if (entry === undefined) bad.push(`${op.operationId}: ${String(code)} is not in the registry`);
          else if (String(entry.status) !== status)
            bad.push(`${op.operationId}: ${String(code)} is a ${String(entry.status)}, listed under ${status}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });
});

describe("async, reconcile, pagination and access", () => {
  const ids = new Set(operations.map((op) => op.operationId));

  it("names a declared accepted status and an existing poll operation", () => {
    const async = operations.filter((op) => ext(op, "async") !== undefined);
    expect(async.map((op) => op.operationId)).toEqual(["flush_memory"]);
    const value = ext(async[0]!, "async") as JsonObject;
    expect(String(value.accepted_status) in (async[0]!.operation.responses as JsonObject)).toBe(true);
    expect(ids.has(String(value.poll_operation))).toBe(true);
    expect(
      Object.keys(deref(deref((doc.components as JsonObject).schemas as Json).Operation).properties as JsonObject),
    ).toContain(value.result_field);
  });

  it("reconciles only guarded operations, through an existing read", () => {
    for (const op of operations.filter((o) => ext(o, "reconcile") !== undefined)) {
      expect(ext(op, "retry-class")).toBe("guarded");
      expect(ids.has(String((ext(op, "reconcile") as JsonObject).read_operation))).toBe(true);
    }
  });

  it("pages through members the request and the answer really have", () => {
    const paged = operations.filter((op) => ext(op, "pagination") !== undefined);
    expect(paged.length).toBe(13);
    for (const op of paged) {
      const page = ext(op, "pagination") as JsonObject;
      const requestNames = [
        ...parameters(op).map((p) => String(p.name)),
        ...Object.keys((bodySchema(op).properties ?? {}) as JsonObject),
      ];
      expect(requestNames, op.operationId).toContain(page.cursor_parameter);
      const answer = Object.keys((successSchema(op).properties ?? {}) as JsonObject);
      expect(answer, op.operationId).toContain(page.next_cursor_field);
      expect(answer, op.operationId).toContain(page.items_field);
    }
  });

  it("uses the release's x-powercontext-access and no longer x-powercontext-permission", () => {
    expect(JSON.stringify(doc)).not.toContain("x-powercontext-permission");
    const open = operations
      .filter((op) => ext(op, "access") === undefined)
      .map((op) => op.operationId)
      .sort();
    expect(open).toEqual([
      "download_remote_skill_package",
      "enroll_remote_skill_target",
      "get_liveness",
      "get_readiness",
      "reconcile_remote_skills",
      "record_remote_skill_receipt",
    ]);
  });
});
