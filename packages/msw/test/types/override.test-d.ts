import { describe, expectTypeOf, it } from "vitest";
import type { components } from "@powercontext/types";
import { createPowerContextSimulator, type OverrideHandler } from "../../src/index.js";

/**
 * Type tests of `sim.override()` (vitest typecheck): a handler must return a
 * status the operation declares with the body its schema allows for that
 * status. Each `@ts-expect-error` below fails the run if the wrong answer
 * ever compiles.
 */
type ScopeDescriptor = components["schemas"]["ScopeDescriptor"];
const scope: ScopeDescriptor = {
  scope_id: "team",
  title: "Team",
  summary: "",
  context_references: [],
  external_references: [],
  version: 1,
};
const envelope = { error: { code: "scope_not_found", message: "No such scope.", details: null } };
const sim = createPowerContextSimulator();

describe("sim.override", () => {
  it("accepts a declared status with its schema's body", () => {
    sim.override("get_scope", () => ({ status: 200, body: scope }));
    sim.override("get_scope", () => ({ status: 404, body: envelope, headers: { "X-Trace": "1" } }));
    expectTypeOf<ReturnType<OverrideHandler<"get_scope">>>().toMatchTypeOf<{ status: number }>();
    expectTypeOf(sim.override("get_scope", () => ({ status: 200, body: scope }))).toEqualTypeOf<() => void>();
  });

  it("refuses a body the status does not allow", () => {
    const withoutVersion = {
      scope_id: "team",
      title: "Team",
      summary: "",
      context_references: [],
      external_references: [],
    };
    // @ts-expect-error a ScopeDescriptor without its required version
    sim.override("get_scope", () => ({ status: 200, body: withoutVersion }));
    // @ts-expect-error the error envelope is not the 200 body
    sim.override("get_scope", () => ({ status: 200, body: envelope }));
    // @ts-expect-error a ScopeDescriptor is not the 404 body
    sim.override("get_scope", () => ({ status: 404, body: scope }));
    // @ts-expect-error version is an integer, not a string
    sim.override("get_scope", () => ({ status: 200, body: { ...scope, version: "1" } }));
  });

  it("refuses a status the operation does not declare, and an unknown operation", () => {
    // @ts-expect-error get_scope declares no 201
    sim.override("get_scope", () => ({ status: 201, body: scope }));
    // @ts-expect-error no operation has this id
    sim.override("get_scopes", () => ({ status: 200, body: scope }));
  });

  it("types a 304 without a body", () => {
    expectTypeOf<
      Extract<ReturnType<OverrideHandler<"get_artifact_tags">>, { status: 304 }>["body"]
    >().toEqualTypeOf<undefined>();
  });
});
