import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/simulator/clock.js";
import { createPowerContextSimulator, type PowerContextSimulator } from "../../src/simulator/simulator.js";
import { adminJson as send } from "../support/world.js";
import { TEST_SCOPES } from "../support/scopes.js";

/**
 * Managed Skill content as a 1.4.1 server reads it, measured against the release: its
 * domain model first (trimmed texts, instructions without trailing whitespace and, with
 * no package, not blank and with a validation item), then, for content without a
 * package, the package it builds (a lowercase hyphenated name of at most 64 characters,
 * a description of at most 1,024). A proposal's unbuildable package fails unhandled.
 */
function simulator(): PowerContextSimulator {
  return createPowerContextSimulator({ scopes: TEST_SCOPES, clock: new ManualClock(), seed: 9 });
}

const skill = (changes: Record<string, unknown>) => ({
  name: "release-checklist",
  description: "Runs the release checklist.",
  instructions: "Follow the checklist.",
  validation: ["The checklist is complete."],
  ...changes,
});

const create = (sim: PowerContextSimulator, content: unknown) =>
  send(sim, "create_artifact", { params: { scope_id: "s1" }, body: { family: "skill", content } });

const MODEL = { code: "invalid_request", details: { field: "content", reason: "does not match the skill model" } };
const PACKAGE = { code: "invalid_request", details: { field: "content.package", reason: "is unavailable or invalid" } };

describe("Skill content written as an Artifact", () => {
  it.each([
    ["no validation item", { validation: [] }, MODEL],
    ["blank instructions", { instructions: "" }, MODEL],
    ["instructions ending in whitespace", { instructions: "Follow it.\n" }, MODEL],
    ["an untrimmed license", { license: " MIT" }, MODEL],
    ["an untrimmed metadata value", { metadata: { team: " docs" } }, MODEL],
    ["a name with a space", { name: "Release checklist" }, PACKAGE],
    ["a name of 65 characters", { name: "a".repeat(65) }, PACKAGE],
    ["a description of 1,025 characters", { description: "d".repeat(1025) }, PACKAGE],
    ["a name of 65 characters and no validation item", { name: "a".repeat(65), validation: [] }, MODEL],
  ])("refuses %s", (_name, changes, error) => {
    expect(create(simulator(), skill(changes))).toMatchObject({ status: 422, body: { error } });
  });

  it("accepts a hyphenated lowercase name, digits included", () => {
    expect(create(simulator(), skill({ name: "release-2" })).status).toBe(201);
    expect(create(simulator(), skill({ name: "123" })).status).toBe(201);
  });

  it("answers a proposal's domain fault as an issue, and its unbuildable package as an unhandled failure", () => {
    const propose = (proposal: unknown) =>
      send(simulator(), "propose_skill", {
        body: { scope_id: "s1", proposal, source_refs: [], artifact_refs: [] },
      });
    expect(propose(skill({ validation: [] }))).toMatchObject({
      status: 422,
      body: { error: { code: "invalid_request", details: { errors: [{ type: "value_error", loc: [] }] } } },
    });
    expect(propose(skill({ license: " MIT" }))).toMatchObject({
      status: 422,
      body: { error: { details: { errors: [{ loc: ["license"] }] } } },
    });
    expect(propose(skill({ name: "Release checklist" }))).toMatchObject({
      status: 500,
      body: { error: { code: "internal_error" } },
    });
  });
});

describe("a Skill written with its package", () => {
  it("takes only a package the server built, with the content it was built from, and writes nothing else", () => {
    const sim = simulator();
    const made = create(sim, skill({}));
    expect(made.status).toBe(201);
    const stored = send(sim, "get_artifact", {
      params: { scope_id: "s1", family: "skill", artifact_id: made.body.artifact_id },
    }).body.content as Record<string, unknown> & { package: Record<string, unknown> };
    const sources = () =>
      (send(sim, "list_sources", { params: { scope_id: "s1" }, query: { limit: "100" } }).body.items as unknown[])
        .length;
    const before = sources();
    const mismatch = {
      ...PACKAGE,
      details: { ...PACKAGE.details, reason: "cached Skill fields do not match the exact package" },
    };
    for (const changed of [{ description: "Another description." }, { validation: ["Another check."] }]) {
      const content = JSON.parse(JSON.stringify({ ...stored, ...changed }));
      expect(create(sim, content).body.error).toMatchObject(mismatch);
    }
    for (const named of [
      { ...stored.package, tree_digest: "0".repeat(64) },
      { ...stored.package, archive_size: Number(stored.package.archive_size) + 1 },
    ])
      expect(create(sim, { ...stored, package: named }).body.error).toMatchObject(PACKAGE);
    // A refused write leaves nothing behind: no Source journals it.
    expect(sources()).toBe(before);
    // The content as read back, package and all, is written again; left-out optional members are at their defaults.
    expect(create(sim, stored).status).toBe(201);
    const { license: _l, compatibility: _c, metadata: _m, allowed_tools: _a, ...required } = stored;
    expect(create(sim, required).status).toBe(201);
  });
});
