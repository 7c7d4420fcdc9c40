/**
 * A deterministic synthetic PowerContext-style spec of N operations, for the
 * generator benchmark. Each operation has its own request and response schema
 * (objects with scalar, enum, nullable, array and nested fields, plus a reference to
 * one of a few shared schemas), the error envelope on 404/409/422 and the request
 * id header on every response; every tenth operation is a GET with query
 * parameters. The same N always gives the same bytes.
 */
import { stringify } from "yaml";

type Json = Record<string, unknown>;

const header = { "X-PowerContext-Request-ID": { $ref: "#/components/headers/RequestId" } };

export function syntheticSpec(operationCount: number): string {
  const paths: Json = {};
  const schemas: Json = {
    ErrorResponse: {
      type: "object",
      required: ["error"],
      properties: {
        error: {
          type: "object",
          required: ["code", "message", "details"],
          properties: {
            code: { type: "string" },
            message: { type: "string" },
            details: { type: "object", additionalProperties: true },
          },
        },
      },
    },
  };
  for (let s = 0; s < 20; s += 1) {
    schemas[`Shared${s}`] = {
      type: "object",
      required: ["id", "kind"],
      properties: {
        id: { type: "string", format: "uuid" },
        kind: { type: "string", enum: ["alpha", "beta", "gamma"] },
        created_at: { type: "string", format: "date-time" },
        count: { type: "integer", format: "int64", minimum: 0 },
      },
    };
  }
  for (let i = 0; i < operationCount; i += 1) {
    const name = `op${String(i).padStart(5, "0")}`;
    const pascal = `Op${String(i).padStart(5, "0")}`;
    const shared = { $ref: `#/components/schemas/Shared${i % 20}` };
    schemas[`${pascal}Request`] = {
      type: "object",
      required: ["scope_id", "name"],
      additionalProperties: false,
      properties: {
        scope_id: { type: "string", minLength: 1, maxLength: 256 },
        name: { type: "string", pattern: "^[a-z][a-z0-9_-]*$" },
        limit: { type: "integer", minimum: 1, maximum: 500, default: 50 },
        tags: { type: "array", items: { type: "string" }, maxItems: 16 },
        filter: { type: "object", properties: { since: { type: "string", format: "date-time", nullable: true } } },
      },
    };
    schemas[`${pascal}Response`] = {
      type: "object",
      required: ["items", "next_cursor"],
      properties: {
        items: { type: "array", items: shared },
        next_cursor: { type: "string", nullable: true },
        summary: { type: "object", additionalProperties: { type: "integer" } },
        state: { type: "string", enum: ["idle", "pending", "blocked"] },
      },
    };
    const responses: Json = {
      "200": {
        description: "ok",
        headers: header,
        content: { "application/json": { schema: { $ref: `#/components/schemas/${pascal}Response` } } },
      },
      "404": { $ref: "#/components/responses/Error" },
      "409": { $ref: "#/components/responses/Error" },
      "422": { $ref: "#/components/responses/Error" },
    };
    const get = i % 10 === 0;
    paths[`/v1/synthetic/${name}`] = {
      [get ? "get" : "post"]: {
        operationId: name,
        summary: `Synthetic operation ${i}`,
        "x-powercontext-retry-class": get ? "safe" : ["replay", "never", "safe"][i % 3],
        "x-powercontext-permission": i % 2 === 0 ? "scope.read" : "scope.admin",
        ...(get
          ? {
              parameters: [
                { name: "scope_id", in: "query", required: true, schema: { type: "string" } },
                { name: "cursor", in: "query", required: false, schema: { type: "string" } },
              ],
            }
          : {
              requestBody: {
                required: true,
                content: { "application/json": { schema: { $ref: `#/components/schemas/${pascal}Request` } } },
              },
            }),
        responses,
      },
    };
  }
  return stringify(
    {
      openapi: "3.0.3",
      info: { title: "Synthetic", version: "1.0.0" },
      paths,
      components: {
        headers: { RequestId: { schema: { type: "string" } } },
        responses: {
          Error: {
            description: "error",
            headers: header,
            content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorResponse" } } },
          },
        },
        schemas,
      },
    },
    { aliasDuplicateObjects: false },
  );
}
