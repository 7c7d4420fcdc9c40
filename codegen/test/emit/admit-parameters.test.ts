import { describe, expect, it } from "vitest";
import { admitParameters } from "../../src/emit/validator-code/admit-parameters.js";

// admitParameters rewrites only what applies to the root of the flat request object.
describe("admitParameters", () => {
  const definitions: Record<string, unknown> = {
    closed: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
    nested: { type: "object", properties: { inner: { $ref: "#/definitions/closed" } }, additionalProperties: false },
  };
  const definition = (key: string) => definitions[key] as Record<string, unknown> | undefined;

  it("admits the names in every closed schema reached at the root, through $ref and composition", () => {
    const out = admitParameters(
      {
        oneOf: [
          { $ref: "#/definitions/closed" },
          { if: { type: "object" }, then: { type: "object", additionalProperties: false } },
        ],
      },
      ["scope_id"],
      definition,
    );
    expect(out).toEqual({
      oneOf: [
        { type: "object", properties: { scope_id: true, a: { type: "string" } }, additionalProperties: false },
        {
          if: { type: "object" },
          then: { type: "object", properties: { scope_id: true }, additionalProperties: false },
        },
      ],
    });
  });

  it("leaves nested members, shared definitions and open schemas alone", () => {
    const out = admitParameters({ $ref: "#/definitions/nested" }, ["scope_id"], definition) as Record<string, any>;
    expect(out.properties.inner).toEqual({ $ref: "#/definitions/closed" });
    expect(definitions.closed).toEqual({
      type: "object",
      properties: { a: { type: "string" } },
      additionalProperties: false,
    });
    expect(admitParameters({ type: "object" }, ["scope_id"], definition)).toEqual({ type: "object" });
  });

  it("keeps a body member of the same name as it is", () => {
    const out = admitParameters(
      { type: "object", properties: { scope_id: { type: "integer" } }, additionalProperties: false },
      ["scope_id"],
      definition,
    );
    expect(out).toEqual({ type: "object", properties: { scope_id: { type: "integer" } }, additionalProperties: false });
  });
});
