import { describe, expect, it } from "vitest";
import { buildIr } from "../../src/ir/build-ir.js";
import { checkHouseRules } from "../../src/ir/house-rules.js";
import { loadSpecText } from "../../src/load/load-spec.js";

type Json = Record<string, any>;

const envelope = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message", "details"],
      properties: { code: { type: "string" }, message: { type: "string" }, details: { nullable: true } },
    },
  },
};

/** A one-operation spec whose 200 declares no headers, with optional document members. */
async function findings(extra: Json) {
  const document = {
    openapi: "3.0.3",
    info: { title: "t", version: "1" },
    paths: {
      "/v1/x": {
        get: {
          operationId: "get_x",
          "x-powercontext-retry-class": "safe",
          responses: {
            "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } },
            "404": { description: "no", content: { "application/json": { schema: envelope } } },
          },
        },
      },
    },
    ...extra,
  };
  const spec = await loadSpecText(JSON.stringify(document), "spec.json", { lint: "upstream" });
  return checkHouseRules(buildIr(spec, "strict"), "strict").errors.map((e) => e.code);
}

describe("house rules: the request-id header", () => {
  it("a response without the header is an error when the document does not name it", async () => {
    expect(await findings({})).toEqual(["request_id_header", "request_id_header"]);
  });

  it("naming the header once on the document (x-powercontext-request-id-header) satisfies every response", async () => {
    expect(await findings({ "x-powercontext-request-id-header": "X-PowerContext-Request-ID" })).toEqual([]);
  });
});
