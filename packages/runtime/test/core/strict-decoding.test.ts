// Response decoding as strict as the Python client's: a byte order mark is not JSON,
// malformed UTF-8 and lone surrogates are refused, and an integer written as 3.0 or 3e0
// is not an integer.
import { describe, expect, it } from "vitest";
import { decodeResponse } from "../../src/core/decode-response.js";
import { ConflictError, InvalidResponseError } from "../../src/errors.js";
// The validators the generator wrote for openapi.yaml, as the SDK ships them.
import { validatorMap } from "@powercontext/sdk";
import { descriptor, flushMemory } from "../helpers/descriptors.js";
import { viaPort } from "../helpers/port.js";

const limits = { maxResponseBytes: 1024 * 1024, secrets: [] };
const search = descriptor({ operationId: "search_memory", path: "/v1/memory/search" });
const BOM = "\ufeff";
const flushed = (cursor: string, extra = "") =>
  `{"status":"processed","previous_cursor":0,"current_cursor":${cursor},"high_watermark":3,"processed_source_count":3,"memory":null${extra}}`;
const conflict = (message = "Conflict.") => `{"error":{"code":"conflict","message":"${message}","details":null}}`;

function respond(status: number, body: string | Uint8Array): Response {
  return new Response(body, {
    status,
    headers: { "content-type": "application/json", "x-powercontext-request-id": "req-1" },
  });
}

async function decodeFlush(status: number, body: string | Uint8Array) {
  return decodeResponse(await viaPort(respond(status, body)), flushMemory, validatorMap.flush_memory, limits);
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => Promise.reject(new Error("expected a rejection")),
    (error: unknown) => error,
  );
}

describe("byte order mark and UTF-8", () => {
  it("a success body starting with a byte order mark is not JSON", async () => {
    const error = await failure(decodeFlush(200, BOM + flushed("3")));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ statusCode: 200, requestId: "req-1", issues: ["body is not valid JSON"] });
  });

  it("an error body starting with a byte order mark is not the envelope", async () => {
    const error = await failure(decodeFlush(409, BOM + conflict()));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({
      statusCode: 409,
      requestId: "req-1",
      code: null,
      serverMessage: null,
      details: null,
    });
  });

  it("a U+FEFF inside a string is an ordinary character", async () => {
    const error = await failure(decodeFlush(409, conflict(`Con${BOM}flict.`)));
    expect(error).toMatchObject({ code: "conflict", serverMessage: `Con${BOM}flict.` });
  });

  it("malformed UTF-8 in a success body is InvalidResponseError, in an error body not the envelope", async () => {
    const bytes = (text: string) => {
      const encoded = new TextEncoder().encode(
        text.replace("Conflict.", "Conflict#").replace('"processed"', '"processe#"'),
      );
      encoded[encoded.indexOf(0x23)] = 0xff;
      return encoded;
    };
    const invalid = await failure(decodeFlush(200, bytes(flushed("3"))));
    expect(invalid).toBeInstanceOf(InvalidResponseError);
    expect(invalid).toMatchObject({ requestId: "req-1", issues: ["body is not valid UTF-8"] });
    expect(await failure(decodeFlush(409, bytes(conflict())))).toMatchObject({
      statusCode: 409,
      code: null,
      serverMessage: null,
      requestId: "req-1",
    });
  });
});

describe("lone surrogates", () => {
  it.each([
    ["a lone high surrogate", ',"hold_codes":["\\ud800"]'],
    ["a lone low surrogate", ',"hold_codes":["x\\uDC00"]'],
    ["a high surrogate followed by a non-surrogate escape", ',"hold_codes":["\\ud83d\\u0041"]'],
  ])("a success body with %s is InvalidResponseError", async (_, extra) => {
    const error = await failure(decodeFlush(200, flushed("3", extra)));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ requestId: "req-1", issues: ["body is not valid JSON"] });
  });

  it("an error body with a lone surrogate (in a value or a member name) is not the envelope", async () => {
    expect(await failure(decodeFlush(409, conflict("Con\\udfffflict")))).toMatchObject({
      statusCode: 409,
      code: null,
      serverMessage: null,
    });
    const inName = '{"error":{"code":"conflict","message":"m","details":{"\\ud800":1}}}';
    expect(await failure(decodeFlush(409, inName))).toMatchObject({ statusCode: 409, code: null, details: null });
  });

  it("a surrogate pair and an escaped backslash before u are fine", async () => {
    const decoded = await decodeFlush(200, flushed("3", ',"hold_codes":["\\ud83d\\uDE00","\\\\ud800"]'));
    expect((decoded.data as { hold_codes: string[] }).hold_codes).toEqual(["\u{1F600}", "\\ud800"]);
    expect(await failure(decodeFlush(409, conflict("\\uD83D\\ude00")))).toMatchObject({
      code: "conflict",
      serverMessage: "\u{1F600}",
    });
  });
});

describe("integers written with a fraction or an exponent", () => {
  it.each(["3.0", "3e0", "3E+0", "30e-1", "0.3e1", "-0.0"])(
    "current_cursor %s is InvalidResponseError",
    async (literal) => {
      const error = await failure(decodeFlush(200, flushed(literal)));
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(error).toMatchObject({ requestId: "req-1", issues: ["/current_cursor must be integer"] });
    },
  );

  it("3 is an integer, and 3.0 inside a string does not count", async () => {
    const decoded = await decodeFlush(200, flushed("3", ',"hold_codes":["v: 3.0, [1e0]"]'));
    expect(decoded.data).toMatchObject({ current_cursor: 3, hold_codes: ["v: 3.0, [1e0]"] });
  });

  it("finds the literal at a nested pointer, and leaves type: number alone", async () => {
    const hit = (revision: string, score: string) =>
      `{"memory":{"artifact":{"family":"atomic-memory","artifact_id":"art_1","revision":${revision}},"kind":"fact","text":"t","state":"active","state_version":0,"merged_into_id":null},"score":${score},"matched_by":["text"]}`;
    const body = (second: string) => `{"mode":"text","hits":[${hit("3", "1.0")},${second}]}`;
    const ok = await decodeResponse(
      await viaPort(respond(200, body(hit("4", "1e0")))),
      search,
      validatorMap.search_memory,
      limits,
    );
    expect((ok.data as { hits: { score: number }[] }).hits.map((h) => h.score)).toEqual([1, 1]);
    const error = await failure(
      decodeResponse(await viaPort(respond(200, body(hit("4.0", "1")))), search, validatorMap.search_memory, limits),
    );
    expect(error).toMatchObject({ issues: ["/hits/1/memory/artifact/revision must be integer"] });
  });

  it("an error body is unaffected (the envelope has no integers)", async () => {
    const body = '{"error":{"code":"conflict","message":"m","details":{"current_version":3.0}}}';
    expect(await failure(decodeFlush(409, body))).toMatchObject({ code: "conflict", details: { current_version: 3 } });
  });
});
