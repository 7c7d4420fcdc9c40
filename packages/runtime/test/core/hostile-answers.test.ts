import { describe, expect, it } from "vitest";
import { MAX_DETAILS_DEPTH, TRUNCATED, mayHoldSecret, redactJson } from "../../src/core/redact-answer.js";
import { createRuntime } from "../../src/core/runtime.js";
import { runOperation } from "../../src/core/run-operation.js";
import { InvalidResponseError } from "../../src/errors.js";
import { VersionConflictError, contractErrorsByCode as contractErrors } from "../helpers/contract-errors.js";
import { cancelOperation, classDescriptor, table } from "../helpers/descriptors.js";
import { scripted } from "@powercontext/runtime/testing";

const BASE = "https://pc.example.com";
const fast = { retry: { baseDelayMs: 0, maxDelayMs: 0 } };

/** `{"a": {"a": ... 1 ...}}`, `depth` objects deep, as text. */
function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

function depthOf(value: unknown): number {
  let depth = 0;
  for (let current = value; typeof current === "object" && current !== null; current = (current as { a?: unknown }).a)
    depth += 1;
  return depth;
}

describe("a 409 envelope whose details are 100,000 levels deep", () => {
  const body = `{"error":{"code":"version_conflict","message":"stale","details":{"current_version":4,"trail":${nested(100_000)}}}}`;

  it.each(["guarded", "safe"] as const)(
    "is the conflict, sent once, for a %s operation, details cut with a marker",
    async (retryClass) => {
      const server = scripted(new Response(body, { status: 409, headers: { "content-type": "application/json" } }));
      const runtime = createRuntime(
        { baseUrl: BASE, token: "tok-1", fetch: server.fetch, ...fast },
        { operations: table, contractErrors },
      );
      const target = retryClass === "guarded" ? cancelOperation : classDescriptor("safe");
      const error = await runOperation(runtime, target, { operation_id: "op_1", expected_version: 3 }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(VersionConflictError);
      expect(server.seen).toHaveLength(1);
      const conflict = error as VersionConflictError;
      expect(conflict.currentVersion).toBe(4);
      expect(depthOf(conflict.details?.trail)).toBe(MAX_DETAILS_DEPTH - 1);
      expect(JSON.stringify(conflict)).toContain(`"${TRUNCATED}"`);
    },
  );
});

describe("an unexpected exception while decoding an answer", () => {
  it("is an InvalidResponseError, never a re-sent TransportError", async () => {
    const server = scripted(
      new Response('{"ok":true}', { status: 200, headers: { "content-type": "application/json" } }),
    );
    const runtime = createRuntime({ baseUrl: BASE, fetch: server.fetch, ...fast });
    const exploding = Object.assign(
      () => {
        throw new RangeError("Maximum call stack size exceeded");
      },
      { errors: null },
    );
    const error = await runOperation(runtime, classDescriptor("safe"), {}, {}, { responses: { 200: exploding } }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).message).toBe("response 200 could not be decoded (RangeError)");
    expect(server.seen).toHaveLength(1);
  });
});

describe("redactJson", () => {
  it("removes secrets from strings and member names at any depth, without recursion", () => {
    const value = JSON.parse(nested(100_000).replace("1", '"s3cr3t"'));
    const copy = redactJson(value, ["s3cr3t"]);
    expect(depthOf(copy)).toBe(100_000);
    let leaf: unknown = copy;
    while (typeof leaf === "object" && leaf !== null) leaf = (leaf as { a: unknown }).a;
    expect(leaf).toBe("[REDACTED]");
    expect(redactJson({ "x-s3cr3t": ["s3cr3t", 1, null, true] }, ["s3cr3t"])).toEqual({
      "x-[REDACTED]": ["[REDACTED]", 1, null, true],
    });
  });

  it("keeps a member named __proto__ as a member", () => {
    const copy = redactJson(JSON.parse('{"__proto__":{"polluted":"s3cr3t"}}'), ["s3cr3t"]) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(copy, "__proto__")?.value).toEqual({ polluted: "[REDACTED]" });
  });

  it("cuts containers below the depth limit with a marker", () => {
    expect(redactJson({ a: { b: { c: 1 } }, d: [[2]] }, [], 2)).toEqual({ a: { b: TRUNCATED }, d: [TRUNCATED] });
  });
});

describe("mayHoldSecret", () => {
  it.each([
    ['{"a":"s3cr3t"}', true],
    ['{"s3cr3t":1}', true],
    ['{"a":"\\u0073\\u0033cr3t"}', true],
    ['{"a":"plain","b":"line\\nbreak"}', false],
    ['{"a":"plain"}', false],
  ])("%s -> %s", (text, expected) => {
    expect(mayHoldSecret(text, ["s3cr3t"])).toBe(expected);
    expect(mayHoldSecret(text, [])).toBe(false);
  });

  it("takes any escape into account when the secret holds an escapable character", () => {
    expect(mayHoldSecret('{"a":"x\\/y"}', ["x/y"])).toBe(true);
  });
});
