import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { EXIT } from "../../src/cli.js";
import { OPERATION, minimalSpec, operationOf, runIn, snapshot, type Json } from "../helpers/minimal-spec.js";
import { scratchDir } from "../helpers/paths.js";

const base = minimalSpec;
const op = operationOf;
const P = OPERATION;

const cases: { name: string; spec: (s: Json) => Json | string; pointer: string; message: RegExp }[] = [
  {
    name: "invalid YAML",
    spec: () => "openapi: 3.0.3\ninfo:\n  title: [unclosed\n",
    pointer: "#",
    message: /line \d+, column \d+/,
  },
  {
    name: "dangling $ref",
    spec: (s) => ((op(s).requestBody.content["application/json"].schema = { $ref: "#/components/schemas/Nope" }), s),
    pointer: `#${P}/requestBody/content/application~1json/schema/$ref`,
    message: /does not resolve/,
  },
  {
    name: "not OpenAPI 3.0",
    spec: (s) => ((op(s).responses["200"].description = 5), s),
    pointer: `#${P}/responses/200`,
    message: /OpenAPI 3\.0 schema/,
  },
  {
    name: "missing operationId",
    spec: (s) => (delete op(s).operationId, s),
    pointer: `#${P}`,
    message: /no operationId/,
  },
  {
    name: "duplicate operationId",
    spec: (s) => ((s.paths["/v1/other"] = { post: structuredClone(op(s)) }), s),
    pointer: "#/paths/~1v1~1other/post/operationId",
    message: /already used/,
  },
  {
    name: "zero success statuses",
    spec: (s) => (delete op(s).responses["200"], s),
    pointer: `#${P}/responses`,
    message: /no success/,
  },
  {
    name: "a response range instead of a status",
    spec: (s) => ((op(s).responses["4XX"] = structuredClone(op(s).responses["404"])), s),
    pointer: `#${P}/responses/4XX`,
    message: /explicit status codes/,
  },
  {
    name: "unsupported media type",
    spec: (s) => ((op(s).requestBody.content = { "text/plain": { schema: { type: "string" } } }), s),
    pointer: `#${P}/requestBody/content/text~1plain`,
    message: /not supported/,
  },
  {
    name: "unknown retry class",
    spec: (s) => ((op(s)["x-powercontext-retry-class"] = "sometimes"), s),
    pointer: `#${P}/x-powercontext-retry-class`,
    message: /unknown retry class/,
  },
  {
    name: "missing retry class",
    spec: (s) => (delete op(s)["x-powercontext-retry-class"], s),
    pointer: `#${P}`,
    message: /no x-powercontext-retry-class/,
  },
  {
    name: "error response without the envelope",
    spec: (s) => ((op(s).responses["404"].content["application/json"].schema = { type: "string" }), s),
    pointer: `#${P}/responses/404`,
    message: /error envelope/,
  },
  {
    name: "response without the request id header",
    spec: (s) => (delete op(s).responses["200"].headers, s),
    pointer: `#${P}/responses/200`,
    message: /X-PowerContext-Request-ID/,
  },
];

// the Python models (datamodel-code-generator) are covered by python-layer.test.ts
const run = (args: string[], cwd: string) => runIn(cwd, [...args, "--python-models", "skip"]);

describe("spec errors", () => {
  it("the base spec itself generates", async () => {
    const dir = scratchDir("ok");
    writeFileSync(path.join(dir, "openapi.yaml"), stringify(base()));
    const result = await run(["--root", "out"], dir);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(EXIT.ok);
    // 8 TypeScript and JSON files, the hosts' table, 4 Python files (models.py skipped), the mock's 5 (it uses the SDK's validators)
    expect(result.stdout).toMatch(/generated: 1 operations, 2 schemas, 19 files/);
  });

  it.each(cases)("$name: exit 2, names the pointer, leaves output untouched", async ({ spec, pointer, message }) => {
    const dir = scratchDir("bad");
    const out = path.join(dir, "out");
    mkdirSync(path.join(out, "packages/sdk/src/generated"), { recursive: true });
    writeFileSync(path.join(out, "packages/sdk/src/generated/operations.ts"), "// previous output\n");
    const before = snapshot(out);
    const text = spec(base());
    writeFileSync(path.join(dir, "openapi.yaml"), typeof text === "string" ? text : stringify(text));
    const result = await run(["--root", "out"], dir);
    expect(result.code).toBe(EXIT.badInput);
    expect(result.stderr).toContain(`${pointer}`);
    expect(result.stderr).toMatch(message);
    expect(snapshot(out)).toEqual(before);
  });

  it("the upstream profile downgrades envelope and header findings to warnings", async () => {
    const dir = scratchDir("upstream");
    const spec = base();
    delete op(spec).responses["200"].headers;
    delete op(spec)["x-powercontext-retry-class"];
    writeFileSync(path.join(dir, "openapi.yaml"), stringify(spec));
    const result = await run(["--root", "out", "--lint", "upstream"], dir);
    expect(result.code).toBe(EXIT.ok);
    expect(result.stderr).toContain(`warning: #${P}/responses/200`);
  });

  it("reports every dangling $ref at once, each with its pointer", async () => {
    const dir = scratchDir("refs");
    const spec = base();
    op(spec).requestBody.content["application/json"].schema = { $ref: "#/components/schemas/Nope" };
    op(spec).responses["200"].content["application/json"].schema = { $ref: "#/components/schemas/AlsoNope" };
    writeFileSync(path.join(dir, "openapi.yaml"), stringify(spec));
    const result = await run(["--root", "out"], dir);
    expect(result.code).toBe(EXIT.badInput);
    expect(result.stderr).toContain(`error: #${P}/requestBody/content/application~1json/schema/$ref`);
    expect(result.stderr).toContain(`error: #${P}/responses/200/content/application~1json/schema/$ref`);
    expect(result.stderr).toContain("2 problem(s) in openapi.yaml; nothing was written");
  });

  it("points a spec without retry classes at the upstream profile", async () => {
    const dir = scratchDir("hint");
    const spec = base();
    delete op(spec)["x-powercontext-retry-class"];
    delete op(spec).responses["200"].headers;
    writeFileSync(path.join(dir, "openapi.yaml"), stringify(spec));
    const result = await run(["--root", "out"], dir);
    expect(result.code).toBe(EXIT.badInput);
    expect(result.stderr.match(/^error: /gm)).toHaveLength(2);
    expect(result.stderr).toContain(
      "hint: a published contract without x-powercontext-* extensions needs --lint upstream",
    );
  });

  it("usage errors exit 2", async () => {
    const dir = scratchDir("usage");
    expect((await run(["--spec", "missing.yaml"], dir)).code).toBe(EXIT.badInput);
    expect((await run(["--lint", "lenient"], dir)).code).toBe(EXIT.badInput);
  });
});
