// A text answer is decoded by the charset its Content-Type names, strictly; a charset no
// decoder knows is refused clearly, never read as UTF-8.
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/core/runtime.js";
import { InvalidResponseError } from "../../src/errors.js";
import { callWithResponse } from "../../src/operations/submit.js";
import { charsetOf } from "../../src/transport/read-text.js";
import { scripted } from "@powercontext/runtime/testing";
import { descriptor } from "../helpers/descriptors.js";

const report = descriptor({
  operationId: "get_report",
  method: "GET",
  requestLocation: null,
  responseMedia: { 200: { "text/markdown": "text" } },
});

function utf16le(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i += 1) {
    bytes[2 * i] = text.charCodeAt(i) & 0xff;
    bytes[2 * i + 1] = text.charCodeAt(i) >> 8;
  }
  return bytes;
}

async function read(body: Uint8Array | string, contentType: string): Promise<unknown> {
  const server = scripted(new Response(body, { status: 200, headers: { "content-type": contentType } }));
  const runtime = createRuntime({ baseUrl: "https://pc.example.com", fetch: server.fetch, maxRetries: 0 });
  return callWithResponse(runtime, report, undefined).then(
    (result) => result.data,
    (error: unknown) => error,
  );
}

describe("a text answer's charset", () => {
  it("utf-16 (with its byte order mark) is decoded as UTF-16", async () => {
    const bytes = new Uint8Array([0xff, 0xfe, ...utf16le("# héllo ✓")]);
    expect(await read(bytes, "text/markdown; charset=utf-16")).toBe("# héllo ✓");
  });

  it("utf-16 with a big-endian byte order mark is read big-endian, as the Encoding standard decodes it", async () => {
    const be = (text: string) => utf16le(text).map((_, i, bytes) => bytes[i ^ 1] as number);
    expect(await read(new Uint8Array([0xfe, 0xff, ...be("# hi ✓")]), "text/markdown; charset=utf-16")).toBe("# hi ✓");
  });

  it("utf-16le, iso-8859-1 and a quoted label are decoded by their names", async () => {
    expect(await read(utf16le("# hi"), "text/markdown; charset=UTF-16LE")).toBe("# hi");
    expect(await read(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), 'text/markdown; charset="iso-8859-1"')).toBe("café");
  });

  it("windows-1252 (and the labels that name it: latin1, iso-8859-1, ascii) reads 0x80-0x9F as the Encoding standard maps them", async () => {
    // Node 20's decoder reads these bytes as C1 controls; every label of windows-1252 must give the same text.
    const bytes = new Uint8Array([0x80, 0x20, 0x93, 0x71, 0x94, 0x20, 0x85, 0x81, 0x8d, 0x8f, 0x90, 0x9d, 0x9f, 0xe9]);
    const text = "\u20ac \u201cq\u201d \u2026\u0081\u008d\u008f\u0090\u009d\u0178\u00e9";
    for (const label of ["windows-1252", "latin1", "iso-8859-1", "us-ascii"]) {
      expect(await read(bytes, `text/markdown; charset=${label}`)).toBe(text);
    }
    // iso-8859-2 is another decoder: its 0x80-0x9F are C1 controls, untouched.
    expect(await read(new Uint8Array([0x80]), "text/markdown; charset=iso-8859-2")).toBe("\u0080");
  });

  it("drops a text answer's UTF-8 byte order mark (a JSON body keeps it: core/strict-decoding.test.ts)", async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("# ✓")]);
    expect(await read(bom, "text/markdown")).toBe("# ✓");
    expect(await read(bom, "text/markdown; charset=utf-8")).toBe("# ✓");
  });

  it("no charset, or utf-8, is strict UTF-8", async () => {
    expect(await read("# ✓", "text/markdown")).toBe("# ✓");
    expect(await read(new Uint8Array([0xc3]), "text/markdown; charset=utf-8")).toBeInstanceOf(InvalidResponseError);
  });

  it.each(["x-made-up-7", "utf-7"])(
    "a charset no decoder knows (%s) is an InvalidResponseError that says so and does not quote it",
    async (label) => {
      const error = await read("# hi", `text/markdown; charset=${label}`);
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect((error as Error).message).toContain("names a charset this runtime cannot decode");
      expect((error as Error).message).not.toContain(label);
    },
  );

  it("bytes that are not valid in the named charset are refused", async () => {
    expect(await read(new Uint8Array([0x00, 0xd8]), "text/markdown; charset=utf-16le")).toBeInstanceOf(
      InvalidResponseError,
    );
  });
});

describe("charsetOf", () => {
  it.each([
    ["text/plain", null],
    ["text/plain; charset=UTF-16", "utf-16"],
    ['text/plain;charset="latin1"', "latin1"],
    ["text/plain; format=flowed; charset=utf-8", "utf-8"],
    ["text/plain; charset=", null],
    ['text/plain; charset=" utf-16"', "utf-16"],
    ['text/markdown; note="; charset=utf-16le"', null],
    ['text/markdown; note="a \\" ; charset=utf-16le"; charset=UTF-8', "utf-8"],
  ])("%j -> %j", (type, charset) => expect(charsetOf(type)).toBe(charset));
});
