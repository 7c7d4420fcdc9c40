import { describe, expect, it } from "vitest";
import { implementedRoutes, type MockRoute } from "@powercontext/runtime/testing";

const routes: MockRoute[] = [
  {
    operationId: "read_note",
    method: "get",
    path: "/v1/notes/:id",
    hasBody: false,
    media: { 200: "text/markdown; charset=utf-8" },
  },
  { operationId: "write_note", method: "post", path: "/v1/notes", hasBody: true, media: {} },
  { operationId: "constructor", method: "get", path: "/v1/constructor", hasBody: false, media: {} },
];
const options = { baseUrl: "http://mock.test/api//", requestIdHeader: "X-Request-Id" };

describe("implementedRoutes", () => {
  it("binds only the operations with an own implementation, in the table's order, under the base URL", () => {
    const bound = implementedRoutes(
      routes,
      { write_note: () => ({ status: 201 }), read_note: () => ({ status: 200, body: "# hi" }) },
      options,
    );
    expect(bound.map((route) => [route.operationId, route.method, route.url])).toEqual([
      ["read_note", "get", "http://mock.test/api/v1/notes/:id"],
      ["write_note", "post", "http://mock.test/api/v1/notes"],
    ]);
  });

  it("answers text with the status's declared media type and JSON otherwise, with a request id unless one is given", async () => {
    const seen: unknown[] = [];
    const [read, write] = implementedRoutes(
      routes,
      {
        read_note: ({ params }) => (seen.push(params), { status: 200, body: "# hi" }),
        write_note: ({ body, bodyText, query }) => (
          seen.push(body, bodyText, query.get("x")),
          { status: 201, body: { ok: true }, headers: { "X-Request-Id": "given" } }
        ),
      },
      options,
    );
    const text = await read!.resolve({
      request: new Request("http://mock.test/api/v1/notes/n1"),
      params: { id: "n1" },
    });
    expect([text.status, text.headers.get("content-type"), await text.text()]).toEqual([
      200,
      "text/markdown; charset=utf-8",
      "# hi",
    ]);
    expect(text.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const json = await write!.resolve({
      request: new Request("http://mock.test/api/v1/notes?x=1", { method: "POST", body: '{"a":1}' }),
      params: {},
    });
    expect([
      json.status,
      json.headers.get("content-type"),
      json.headers.get("x-request-id"),
      await json.json(),
    ]).toEqual([201, "application/json", "given", { ok: true }]);
    expect(seen).toEqual([{ id: "n1" }, { a: 1 }, '{"a":1}', "1"]);
  });

  it("hands an unparseable body over as text with an undefined body, and answers no content without a body", async () => {
    let received: unknown[] = [];
    const [write] = implementedRoutes(
      routes,
      { write_note: ({ body, bodyText }) => ((received = [body, bodyText]), { status: 204 }) },
      options,
    );
    const answer = await write!.resolve({
      request: new Request("http://mock.test/api/v1/notes", { method: "POST", body: "{not json" }),
      params: {},
    });
    expect(received).toEqual([undefined, "{not json"]);
    expect([answer.status, await answer.text(), answer.headers.has("content-type")]).toEqual([204, "", false]);
  });
});
