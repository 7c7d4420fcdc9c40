// Which entry of @powercontext/runtime a consumer gets (ADR 0008): Node's
// "node" condition selects the undici default; a browser bundle (and Bun,
// Deno) get the fetch build, which imports neither undici nor node: modules.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkFile, repoRoot, requireTools } from "../real/tools.js";

const enabled = requireTools(
  "test/package/exports.test.ts",
  checkFile(join(repoRoot, "packages", "runtime", "dist", "index.node.js"), "run: npm run build"),
);

describe.runIf(enabled)("the runtime package's conditional exports", () => {
  it("on Node, resolve to the entry whose default transport is undici", () => {
    const script = `import("@powercontext/runtime").then((m) => console.log(typeof m.undiciTransport, m.resolveConfig({ baseUrl: "http://127.0.0.1:1" }).transport === m.NODE_PLATFORM.defaultTransport()))`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    expect(out.trim()).toBe("function true");
  });

  it("serve the test doubles as @powercontext/runtime/testing, without a connection", () => {
    const script = `import("@powercontext/runtime/testing").then(async (m) => { const fake = m.scripted(m.json(200, { ok: true }), m.connectError()); const first = await fake.fetch("http://x.test/a", { method: "GET", headers: {}, body: undefined, redirect: "manual" }); const second = await fake.fetch("http://x.test/b", { method: "POST", headers: {}, body: "{}", redirect: "manual" }).catch((e) => e.cause.code); console.log(first.status, second, fake.seen.map((r) => r.method + " " + r.url).join(",")); })`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    expect(out.trim()).toBe("200 ECONNREFUSED GET http://x.test/a,POST http://x.test/b");
  });

  it.each(["browser", "bun", "deno"])(
    "for %s, resolve to the fetch build, without undici or node: modules",
    async (condition) => {
      const { build } = await import("esbuild");
      const result = await build({
        stdin: { contents: `export * from "@powercontext/runtime";`, resolveDir: repoRoot },
        bundle: true,
        format: "esm",
        platform: "neutral",
        // Bun and Deno match "node" too; their own condition must come first.
        conditions: condition === "browser" ? ["browser"] : [condition, "node"],
        mainFields: ["module", "main"],
        write: false,
        logLevel: "silent",
        metafile: true,
      });
      const inputs = Object.keys(result.metafile.inputs);
      expect(inputs.some((input) => input.includes("undici") || input.startsWith("node:"))).toBe(false);
      expect(inputs.some((input) => input.endsWith("runtime/dist/index.js"))).toBe(true);
    },
  );
});
