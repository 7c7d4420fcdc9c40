// scripts/contract/sync-release.mjs: the release's prose is dropped, the overlay adds but
// never replaces, a missing or stale overlay entry stops the run, and openapi.yaml is
// exactly what the script writes for the installed release.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import yaml from "js-yaml";
import { afterEach, describe, expect, it } from "vitest";
import { mergeContract } from "../../scripts/contract/merge.mjs";
import { OverlayError, loadOverlay } from "../../scripts/contract/overlay.mjs";
import { repoRoot } from "../real/tools.js";
import { releaseAvailable } from "./documents.js";

/** A two-operation release with prose everywhere, including a schema member named description. */
function release() {
  return {
    openapi: "3.0.3",
    info: { title: "Their API", description: "Their words about it.", version: "9.9.9" },
    paths: {
      "/v1/things": {
        get: {
          tags: ["things"],
          summary: "Their summary",
          description: "Their description of listing things.",
          operationId: "list_things",
          responses: {
            "200": {
              description: "Their OK",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
            },
          },
        },
        post: {
          tags: ["things"],
          summary: "Their other summary",
          operationId: "create_thing",
          responses: { "201": { description: "Their Created" }, "409": { $ref: "#/components/responses/Conflict" } },
        },
      },
    },
    components: {
      schemas: {
        Thing: {
          type: "object",
          description: "Their schema text.",
          properties: { description: { type: "string", maxLength: 10, description: "Their member text." } },
        },
      },
      responses: { Conflict: { description: "Their conflict text." } },
    },
  };
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function overlay(
  operations: Record<string, unknown>,
  document: Record<string, unknown> = {},
  additions?: Record<string, unknown>,
  modelRules?: Record<string, unknown>,
) {
  const dir = mkdtempSync(join(tmpdir(), "overlay-"));
  dirs.push(dir);
  mkdirSync(join(dir, "operations"));
  mkdirSync(join(dir, "additions"));
  writeFileSync(
    join(dir, "document.yaml"),
    yaml.dump({
      info: { title: "Ours", version: "1" },
      responses: { Conflict: "Our conflict." },
      "response-defaults": { "200": "Fine." },
      ...document,
    }),
  );
  writeFileSync(join(dir, "operations", "things.yaml"), yaml.dump(operations));
  if (additions) writeFileSync(join(dir, "additions", "seed.yaml"), yaml.dump(additions));
  if (modelRules) writeFileSync(join(dir, "model-rules.yaml"), yaml.dump(modelRules));
  return loadOverlay(dir, dir);
}

const both = {
  list_things: { summary: "List our things", "x-powercontext-retry-class": "safe" },
  create_thing: { summary: "Make a thing", "x-powercontext-retry-class": "never", responses: { "201": "Made." } },
};

describe("mergeContract", () => {
  it("drops the release's prose, keeps schema members named description, and puts ours in", () => {
    const out = mergeContract(release(), overlay(both));
    const text = JSON.stringify(out);
    expect(text).not.toMatch(/Their/);
    const list = out.paths["/v1/things"].get;
    expect(Object.keys(list)).toEqual(["tags", "summary", "operationId", "x-powercontext-retry-class", "responses"]);
    expect(list.responses["200"].description).toBe("Fine.");
    expect(out.paths["/v1/things"].post.responses["201"]).toEqual({ description: "Made." });
    expect(out.components.schemas.Thing.properties.description).toEqual({ type: "string", maxLength: 10 });
    expect(out.components.responses.Conflict.description).toBe("Our conflict.");
    expect(out.info).toEqual({ title: "Ours", version: "1" });
  });

  it("refuses an overlay that would replace a release value, naming the pointer", () => {
    const replacing = {
      ...both,
      create_thing: { ...both.create_thing, add: { responses: { "409": { $ref: "#/components/responses/Other" } } } },
    };
    expect(() => mergeContract(release(), overlay(replacing))).toThrow(
      /\/operations\/create_thing\/responses\/409\/\$ref exists in the release/,
    );
    const schema = { components: { schemas: { Thing: { type: "object" } } } };
    expect(() => mergeContract(release(), overlay(both, {}, schema))).toThrow(
      /\/components\/schemas\/Thing\/type exists in the release/,
    );
  });

  it("stops on an operation without an entry, an entry without an operation, and a foreign extension", () => {
    expect(() => mergeContract(release(), overlay({ list_things: both.list_things }))).toThrow(
      /create_thing .* has no entry/,
    );
    expect(() => mergeContract(release(), overlay({ ...both, gone: { summary: "Old" } }))).toThrow(
      /operations the contract does not have: gone/,
    );
    expect(() =>
      overlay({ ...both, list_things: { ...both.list_things, "x-powercontext-permission": "scope.read" } }),
    ).toThrow(OverlayError);
  });

  it("writes model rules onto their schema, and stops on a marked schema without rules or rules naming nothing", () => {
    const rules = { Thing: [{ rule: "trim", members: ["description"] }] };
    expect(
      mergeContract(release(), overlay(both, {}, undefined, rules)).components.schemas.Thing["x-powercontext-rules"],
    ).toEqual(rules.Thing);
    const marked = release();
    (marked.components.schemas.Thing as Record<string, unknown>)["x-powercontext-code-validation"] = "operation";
    expect(() => mergeContract(marked, overlay(both))).toThrow(
      /marks schema Thing with x-powercontext-code-validation/,
    );
    expect(
      mergeContract(marked, overlay(both, {}, undefined, rules)).components.schemas.Thing[
        "x-powercontext-code-validation"
      ],
    ).toBe("operation");
    expect(() => mergeContract(release(), overlay(both, {}, undefined, { Nope: rules.Thing }))).toThrow(
      /schema Nope, which does not exist/,
    );
    expect(() =>
      mergeContract(release(), overlay(both, {}, undefined, { Thing: [{ rule: "trim", members: ["zz"] }] })),
    ).toThrow(/names member zz/);
    expect(() => overlay(both, {}, undefined, { Thing: ["trim"] })).toThrow(OverlayError);
  });

  it("applies a listed correction and nothing else", () => {
    const corrected = mergeContract(
      release(),
      overlay(both, {
        corrections: [{ pointer: "/components/schemas/Thing/properties/description", set: { maxLength: 12 } }],
      }),
    );
    expect(corrected.components.schemas.Thing.properties.description.maxLength).toBe(12);
    expect(() =>
      mergeContract(
        release(),
        overlay(both, { corrections: [{ pointer: "/components/schemas/Nope", set: { a: 1 } }] }),
      ),
    ).toThrow(/names no object/);
  });
});

describe.runIf(releaseAvailable("test/contract/sync.test.ts"))("openapi.yaml and the sync script", () => {
  it("is exactly what the script writes for the installed release", () => {
    const run = () =>
      execFileSync(process.execPath, [join(repoRoot, "scripts/contract/sync-release.mjs"), "--check"], {
        encoding: "utf8",
        stdio: "pipe",
      });
    expect(run()).toContain("up to date");
  });
});
