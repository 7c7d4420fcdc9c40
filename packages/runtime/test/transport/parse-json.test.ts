import { describe, expect, it } from "vitest";
import { InvalidResponseError } from "../../src/errors.js";
import { findUnsafeInteger, parseJson } from "../../src/transport/parse-json.js";
import { readBody } from "../../src/transport/read-body.js";
import { viaPort } from "../helpers/port.js";

const context = { statusCode: 200, requestId: "r" };

describe("parseJson", () => {
  it.each([
    ['{"n":9007199254740991}', { n: 9007199254740991 }],
    ['{"n":-9007199254740991}', { n: -9007199254740991 }],
    ['{"s":"12345678901234567890"}', { s: "12345678901234567890" }],
    ['{"s":"quote \\" 12345678901234567890"}', { s: 'quote " 12345678901234567890' }],
    ['{"f":12345678901234567890.5}', { f: 12345678901234567890.5 }],
    ['{"e":1e300}', { e: 1e300 }],
  ])("keeps %s", (text, value) => {
    expect(parseJson(text, context)).toEqual(value);
  });

  it.each([
    '{"n":9007199254740992}',
    '{"n":-9007199254740992}',
    "[1,2,123456789012345678901234567890]",
    '{"a":"x","b":[{"c":18446744073709551615}]}',
  ])("rejects %s", (text) => {
    expect(() => parseJson(text, context)).toThrow(InvalidResponseError);
  });

  it("finds the literal itself", () => {
    expect(findUnsafeInteger('{"id":"9007199254740993","n":9007199254740993}')).toBe("9007199254740993");
  });

  it.each([
    ['{"s":"ends with a backslash \\\\","n":12345678901234567890}', "12345678901234567890"],
    ['{"s":"12345678901234567890","n":-12345678901234567890}', "-12345678901234567890"],
    ['{"f":0.8450000000000001234,"e":1.5e12345678901234567}', null],
    ['{"e":12345678901234567890E-3,"s":"99999999999999999"}', null],
  ])("scans %s outside strings only", (text, literal) => {
    expect(findUnsafeInteger(text)).toBe(literal);
  });

  it("reports an unsafe integer before a syntax error or a lone surrogate", () => {
    expect(() => parseJson("[12345678901234567890,", context)).toThrow(/integer 12345678901234567890 is outside/);
    expect(() => parseJson('["\\ud800",12345678901234567890]', context)).toThrow(
      /integer 12345678901234567890 is outside/,
    );
    expect(() => parseJson('["\\ud800",1]', context)).toThrow(/not valid JSON/);
  });

  it("keeps large floats and scans a value too deep to walk", () => {
    expect(parseJson('{"f":1.5e300,"g":-12345678901234567.5,"n":9007199254740991}', context)).toEqual({
      f: 1.5e300,
      g: -12345678901234567.5,
      n: 9007199254740991,
    });
    const depth = 200_000;
    const deep = (inner: string) => `${"[".repeat(depth)}${inner}${"]".repeat(depth)}`;
    expect(Array.isArray(parseJson(deep("1"), context))).toBe(true);
    expect(() => parseJson(deep("9007199254740993"), context)).toThrow(/integer 9007199254740993 is outside/);
  });

  it("reports syntax errors as InvalidResponseError with the request id", () => {
    expect(() => parseJson("{", context)).toThrow(expect.objectContaining({ requestId: "r", statusCode: 200 }));
  });
});

describe("readBody", () => {
  it("refuses a declared Content-Length above the cap without reading", async () => {
    const response = new Response("x".repeat(20), { headers: { "content-length": "20" } });
    await expect(readBody(await viaPort(response), context, 10)).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it("counts streamed bytes and stops past the cap", async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x61));
        if (pulled > 1000) controller.close();
      },
    });
    await expect(readBody(await viaPort(new Response(stream)), context, 256 * 1024)).rejects.toBeInstanceOf(
      InvalidResponseError,
    );
    expect(pulled).toBeLessThan(10);
  });

  it("decodes multi-byte characters split across chunks", async () => {
    const bytes = new TextEncoder().encode('"ünï"');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    expect(await readBody(await viaPort(new Response(stream)), context)).toBe('"ünï"');
  });
});

describe("readBody decodes UTF-8 strictly", () => {
  const bom = [0xef, 0xbb, 0xbf, 0x7b, 0x7d];
  const streamed = (bytes: number[]) =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
          controller.close();
        },
      }),
    );
  const declared = (bytes: number[]) =>
    new Response(new Uint8Array(bytes), { headers: { "content-length": String(bytes.length) } });

  it.each([
    ["streamed", streamed],
    ["with Content-Length", declared],
  ])("keeps a leading byte order mark (%s)", async (_, make) => {
    expect(await readBody(await viaPort(make(bom)), context)).toBe("\ufeff{}");
  });

  it.each([
    ["streamed, invalid byte", streamed, [0x22, 0xff, 0x22]],
    ["streamed, truncated sequence at the end", streamed, [0x22, 0xc3]],
    ["streamed, encoded surrogate", streamed, [0x22, 0xed, 0xa0, 0x80, 0x22]],
    ["with Content-Length, invalid byte", declared, [0x22, 0xff, 0x22]],
  ] as const)("refuses malformed UTF-8 (%s)", async (_, make, bytes) => {
    await expect(readBody(await viaPort(make([...bytes])), context)).rejects.toMatchObject({
      issues: ["body is not valid UTF-8"],
      requestId: "r",
    });
  });
});

describe("parseJson refuses lone surrogates", () => {
  it.each(['"\\ud800"', '"\\uDBFF x"', '["\\udc00"]', '{"a":{"\\ud800":1}}', '"\\ude00\\ud83d"'])(
    "rejects %s",
    (text) => {
      expect(() => parseJson(text, context)).toThrow(InvalidResponseError);
    },
  );

  it.each([
    ['"\\ud83d\\ude00"', "\u{1F600}"],
    ['"\\\\ud800"', "\\ud800"],
    ['{"\\uD83D\\uDE00":"\\u00e9"}', { "\u{1F600}": "\u00e9" }],
  ])("keeps %s", (text, value) => {
    expect(parseJson(text, context)).toEqual(value);
  });
});

describe("findUnsafeInteger candidates", () => {
  it.each([
    ['{"score":0.9850000000000001}', null],
    ['{"f":12345678901234567.5}', null],
    ['{"e":1.2345678901234567e+30}', null],
    ['{"e":12345678901234567890e2}', null],
    ['{"s":"12345678901234567890"}', null],
    ['{"n":1234567890123456}', null],
    ['{"s":"12345678901234567890","n":12345678901234567890}', "12345678901234567890"],
    ["[-12345678901234567890]", "-12345678901234567890"],
  ])("%s -> %s", (text, expected) => {
    expect(findUnsafeInteger(text)).toBe(expected);
  });
});
