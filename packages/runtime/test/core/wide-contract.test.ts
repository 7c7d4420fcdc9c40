// What the runtime does with the facts the wide IR writes into a descriptor:
// header and cookie parameters, query styles, every declared 2xx, a declared
// 304, responses without content, text and binary bodies, Accept, and the query
// of a polled Location.
import { describe, expect, it } from "vitest";
import { createRuntime } from "../../src/core/runtime.js";
import { runOperation } from "../../src/core/run-operation.js";
import { InvalidRequestError, InvalidResponseError, ServerResponseError } from "../../src/errors.js";
import { callOperation } from "../../src/operations/submit.js";
import { buildRequest } from "../../src/transport/build-request.js";
import { asyncOf, descriptor, getOperation } from "../helpers/descriptors.js";
import { json, scripted } from "@powercontext/runtime/testing";

const BASE = "https://pc.example.com";
const fast = { retry: { baseDelayMs: 0, maxDelayMs: 0 }, minPollIntervalMs: 1, maxPollIntervalMs: 1 };
const runtimeWith = (fetch: ReturnType<typeof scripted>["fetch"]) =>
  createRuntime(
    { baseUrl: BASE, fetch, ...fast },
    { operations: { get_operation: getOperation, flush: descriptor({ operationId: "flush", async: asyncOf() }) } },
  );

const replaceArtifact = descriptor({
  operationId: "replace_artifact",
  method: "PUT",
  path: "/v1/artifacts/{artifact_id}",
  pathParameters: ["artifact_id"],
  headerParameters: ["If-Match"],
  cookieParameters: ["session"],
  retryClass: "never",
});

const listArtifacts = descriptor({
  operationId: "list_artifacts",
  method: "GET",
  requestLocation: "query",
  queryParameters: ["tags", "kind", "filter"],
  parameterStyles: { tags: { style: "form", explode: false }, filter: { style: "deepObject", explode: true } },
});

describe("requests", () => {
  it("sends header parameters as headers and cookie parameters in one Cookie header, not in the body", () => {
    const prepared = buildRequest({
      baseUrl: BASE,
      descriptor: replaceArtifact,
      request: { artifact_id: "a1", "If-Match": '"v3"', session: "s 1", title: "t" },
      token: "",
    });
    expect(prepared.headers["if-match"]).toBe('"v3"');
    expect(prepared.headers.cookie).toBe("session=s%201");
    expect(JSON.parse(prepared.body ?? "{}")).toEqual({ title: "t" });
  });

  it("refuses a header parameter with a line break before anything is sent", async () => {
    const server = scripted(json(200, {}));
    const error = await runOperation(runtimeWith(server.fetch), replaceArtifact, {
      artifact_id: "a1",
      "If-Match": "x\r\nInjected: 1",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(server.seen).toHaveLength(0);
  });

  it("serialises query parameters by style and explode", () => {
    const prepared = buildRequest({
      baseUrl: BASE,
      descriptor: listArtifacts,
      request: { tags: ["a,b", "c"], kind: ["x", "y"], filter: { owner: "me" } },
      token: "",
    });
    expect(new URL(prepared.url).search).toBe("?tags=a%2Cb,c&kind=x&kind=y&filter%5Bowner%5D=me");
  });

  it("builds Accept from the descriptor", () => {
    const report = descriptor({
      operationId: "get_report",
      method: "GET",
      requestLocation: null,
      accept: "application/json, text/markdown;q=0.9",
    });
    expect(buildRequest({ baseUrl: BASE, descriptor: report, request: undefined, token: "" }).headers.accept).toBe(
      "application/json, text/markdown;q=0.9",
    );
  });
});

describe("responses", () => {
  const createRun = descriptor({
    operationId: "create_dream_run",
    successStatus: 200,
    successStatuses: [200, 202],
    keyedResult: true,
  });

  it("any declared 2xx is a success, and several success statuses give a result keyed by status", async () => {
    const server = scripted(json(202, { run_id: "r1" }, { etag: "e" }), json(200, { done: true }));
    const runtime = runtimeWith(server.fetch);
    const first = (await callOperation(runtime, createRun, {})) as { status: number; body: unknown; headers: Headers };
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ run_id: "r1" });
    expect(first.headers.get("etag")).toBe("e");
    expect(await callOperation(runtime, createRun, {})).toMatchObject({ status: 200, body: { done: true } });
  });

  it("an undeclared 2xx is still an error", async () => {
    const server = scripted(json(201, {}));
    const error = await runOperation(runtimeWith(server.fetch), descriptor({ operationId: "plain" }), {}).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServerResponseError);
  });

  it("a declared 304 is a not-modified outcome, not an error", async () => {
    const getArtifact = descriptor({
      operationId: "get_artifact",
      method: "GET",
      requestLocation: null,
      notModifiedStatus: 304,
      keyedResult: true,
    });
    const server = scripted(new Response(null, { status: 304, headers: { etag: '"v3"' } }));
    const result = (await callOperation(runtimeWith(server.fetch), getArtifact, undefined)) as {
      status: number;
      body: unknown;
      headers: Headers;
    };
    expect(result.status).toBe(304);
    expect(result.body).toBeUndefined();
    expect(result.headers.get("etag")).toBe('"v3"');
  });

  it.each([200, 202, 205])("a %i declared without content resolves to undefined, whatever the body", async (status) => {
    const reset = descriptor({ operationId: "reset", successStatus: status, responseMedia: { [status]: {} } });
    const server = scripted(new Response(status === 205 ? null : "", { status }));
    expect(await callOperation(runtimeWith(server.fetch), reset, {})).toBeUndefined();
  });

  it("a JSON response that arrives empty is still refused", async () => {
    const server = scripted(new Response("", { status: 200 }));
    const error = await runOperation(runtimeWith(server.fetch), descriptor({ operationId: "plain" }), {}).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidResponseError);
  });

  it("a row that declares responseMedia without its readMedia is refused before anything is sent", async () => {
    const { readMedia, ...row } = descriptor({
      operationId: "get_report",
      responseMedia: { 200: { "text/markdown": "text" } },
    });
    expect(readMedia).toBeTypeOf("function");
    const server = scripted(new Response("# Title\n", { status: 200, headers: { "content-type": "text/markdown" } }));
    // Left out, or set to something that is no function (from untyped code): nothing is sent either way.
    for (const broken of [row, { ...row, readMedia: null } as unknown as typeof row]) {
      const error = await callOperation(runtimeWith(server.fetch), broken, {}).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect((error as Error).message).toBe("get_report: the descriptor declares responseMedia but has no readMedia");
    }
    expect(server.seen).toHaveLength(0);
  });

  it("a media reader that answers no body is a decoding failure of the answer, never re-sent", async () => {
    for (const answered of [null, undefined, "# Title"]) {
      const row = descriptor({
        operationId: "get_report",
        retryClass: "safe",
        responseMedia: { 200: { "text/markdown": "text" } },
        readMedia: async () => answered as never,
      });
      const markdown = () => new Response("# Title\n", { status: 200, headers: { "content-type": "text/markdown" } });
      const server = scripted(markdown(), markdown(), markdown());
      const error = await callOperation(runtimeWith(server.fetch), row, {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect((error as Error).message).toBe("response 200 could not be decoded (TypeError)");
      expect(server.seen).toHaveLength(1);
    }
  });

  it("a row without responseMedia reads JSON alone: another type is refused, no type is read as JSON", async () => {
    const plain = descriptor({ operationId: "get_plain" });
    const server = scripted(
      new Response("# Title\n", { status: 200, headers: { "content-type": "Text/Markdown; charset=utf-8" } }),
      // Bytes, so that the Response sets no Content-Type of its own.
      new Response(new TextEncoder().encode('{"ok":true}'), { status: 200 }),
      new Response('{"ok":true}', { status: 200, headers: { "content-type": "Application/JSON; charset=utf-8" } }),
    );
    const runtime = runtimeWith(server.fetch);
    await expect(callOperation(runtime, plain, {})).rejects.toThrow(
      "200 has content type Text/Markdown, which the contract does not declare (it declares application/json)",
    );
    expect(await callOperation(runtime, plain, {})).toEqual({ ok: true });
    expect(await callOperation(runtime, plain, {})).toEqual({ ok: true });
  });

  it("text bodies resolve to a string and binary bodies to bytes", async () => {
    const text = descriptor({ operationId: "get_report", responseMedia: { 200: { "text/markdown": "text" } } });
    const binary = descriptor({
      operationId: "get_archive",
      responseMedia: { 200: { "application/octet-stream": "binary" } },
    });
    const server = scripted(
      new Response("# Title\n", { status: 200, headers: { "content-type": "text/markdown" } }),
      new Response(new Uint8Array([0, 255, 7]), { status: 200 }),
    );
    const runtime = runtimeWith(server.fetch);
    expect(await callOperation(runtime, text, {})).toBe("# Title\n");
    const bytes = await callOperation(runtime, binary, {});
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect([...(bytes as Uint8Array)]).toEqual([0, 255, 7]);
  });
});

describe("answers read by the media type their status declares", () => {
  const report = descriptor({
    operationId: "get_report",
    responseMedia: { 200: { "application/json": "json", "text/markdown": "text" } },
  });
  const validators = {
    responses: {
      200: Object.assign((value: unknown) => typeof value === "object" && value !== null && "title" in value, {
        errors: [{ instancePath: "", message: "must have title" }],
      }),
    },
  };
  // Bytes, not a string: a Response made from a string gets text/plain unless told otherwise.
  const answer = (body: string, contentType: string | null) =>
    new Response(new TextEncoder().encode(body), {
      status: 200,
      headers: contentType === null ? {} : { "content-type": contentType },
    });
  const call = (d: ReturnType<typeof descriptor>, response: Response) => {
    const server = scripted(response);
    return runOperation(runtimeWith(server.fetch), d, {}, {}, validators).then(
      (result) => result.data,
      (error: unknown) => error,
    );
  };

  it("a status declaring JSON and Markdown: text/markdown is a string, application/json the validated object", async () => {
    expect(await call(report, answer("# Report\n\n- one\n", "text/markdown; charset=utf-8"))).toBe(
      "# Report\n\n- one\n",
    );
    expect(await call(report, answer('{"title":"t"}', "Application/JSON"))).toEqual({ title: "t" });
    // The JSON answer is validated; the Markdown one is text, never parsed.
    const invalid = await call(report, answer('{"other":1}', "application/json"));
    expect(invalid).toBeInstanceOf(InvalidResponseError);
    expect(await call(report, answer("{not json", "text/markdown"))).toBe("{not json");
  });

  it("an answer of a type its status does not declare is an InvalidResponseError naming both", async () => {
    const error = (await call(report, answer("<html>", "text/html"))) as InvalidResponseError;
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toBe(
      "response 200 has content type text/html, which the contract does not declare (it declares application/json, text/markdown)",
    );
    expect(error.issues).toEqual([
      "200 has content type text/html, which the contract does not declare (it declares application/json, text/markdown)",
    ]);
    // With several declared types, an answer without a content type does not say which one it is.
    const bare = (await call(report, answer("# r", null))) as InvalidResponseError;
    expect(bare.message).toBe(
      "response 200 has no content type, which the contract does not declare (it declares application/json, text/markdown)",
    );
  });

  it("a status declaring JSON alone (the default) refuses text, and reads an answer without a content type as JSON", async () => {
    const plain = descriptor({ operationId: "plain" });
    const error = (await call(plain, answer('{"title":"t"}', "text/plain"))) as InvalidResponseError;
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.message).toBe(
      "response 200 has content type text/plain, which the contract does not declare (it declares application/json)",
    );
    expect(await call(plain, answer('{"title":"t"}', null))).toEqual({ title: "t" });
  });

  it("a declared range holds every type under it, and a long content type is quoted cut", async () => {
    const anyText = descriptor({ operationId: "get_text", responseMedia: { 200: { "text/*": "text" } } });
    expect(await call(anyText, answer("plain", "text/plain"))).toBe("plain");
    const long = (await call(anyText, answer("x", `application/${"x".repeat(5000)}`))) as InvalidResponseError;
    expect(long.message).toBe(
      `response 200 has content type application/${"x".repeat(88)}, which the contract does not declare (it declares text/*)`,
    );
  });

  it("removes the token from a content type the error repeats", async () => {
    const server = scripted(answer("x", "text/s3cret-token"));
    const runtime = createRuntime({ baseUrl: BASE, token: "s3cret-token", fetch: server.fetch, ...fast });
    const error = (await runOperation(runtime, report, {}).catch((e: unknown) => e)) as InvalidResponseError;
    expect(error.message).not.toContain("s3cret-token");
    expect(error.message).toContain("[REDACTED]");
  });
});

describe("polling", () => {
  it("a Location with a query keeps it on every poll", async () => {
    const flush = descriptor({ operationId: "flush", async: asyncOf() });
    const server = scripted(
      json(202, { operation_id: "op1", status: "queued" }, { location: "/v1/operations/op1?shard=7&sig=a%2Bb" }),
      json(200, { operation_id: "op1", status: "running" }),
      json(200, { operation_id: "op1", status: "succeeded", result: { ok: true } }),
    );
    expect(await callOperation(runtimeWith(server.fetch), flush, {})).toEqual({ ok: true });
    expect(server.seen.slice(1).map((r) => r.url)).toEqual([
      `${BASE}/v1/operations/op1?shard=7&sig=a%2Bb`,
      `${BASE}/v1/operations/op1?shard=7&sig=a%2Bb`,
    ]);
  });
});

describe("error bodies that are not the envelope", () => {
  it("keep their first 8 KiB as text, with code, serverMessage and details null", async () => {
    const page = `<html>${"x".repeat(20_000)}</html>`;
    const server = scripted(new Response(page, { status: 502, headers: { "content-type": "text/html" } }));
    const error = (await runOperation(
      runtimeWith(server.fetch),
      descriptor({ operationId: "plain", retryClass: "never" }),
      {},
    ).catch((e: unknown) => e)) as ServerResponseError;
    expect(error).toBeInstanceOf(ServerResponseError);
    expect(error.statusCode).toBe(502);
    expect(error.body).toBe(page.slice(0, 8 * 1024));
    expect([error.code, error.serverMessage, error.details]).toEqual([null, null, null]);
  });

  it("are redacted, and the envelope itself leaves body null", async () => {
    const runtime = createRuntime({
      baseUrl: BASE,
      token: "s3cret-token",
      fetch: scripted(new Response("echo s3cret-token", { status: 400 })).fetch,
      ...fast,
    });
    const error = (await runOperation(runtime, descriptor({ operationId: "plain", retryClass: "never" }), {}).catch(
      (e: unknown) => e,
    )) as ServerResponseError;
    expect(error.body).not.toContain("s3cret-token");
    const enveloped = scripted(json(404, { error: { code: "not_found", message: "m", details: null } }));
    const second = (await runOperation(runtimeWith(enveloped.fetch), descriptor({ operationId: "plain" }), {}).catch(
      (e: unknown) => e,
    )) as ServerResponseError;
    expect(second.code).toBe("not_found");
    expect(second.body).toBeNull();
  });
});
