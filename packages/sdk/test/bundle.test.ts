// The cost of the SDK follows what an app imports: one operation's
// validators bundle without the others (issue 13, section 4; the sizes
// themselves are printed by `npm run bench:sdk`).
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

const SDK_SRC = fileURLToPath(new URL("../src/", import.meta.url));
const RUNTIME_ENTRY = fileURLToPath(new URL("../../runtime/src/index.ts", import.meta.url));

async function bundle(contents: string): Promise<Uint8Array> {
  const { build } = await import("esbuild");
  const result = await build({
    stdin: { contents, resolveDir: SDK_SRC, loader: "ts" },
    alias: { "@powercontext/runtime": RUNTIME_ENTRY },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]?.contents ?? new Uint8Array();
}

async function gzipSize(contents: string): Promise<number> {
  return gzipSync(await bundle(contents), { level: 9 }).byteLength;
}

describe("bundle size follows the operations used", () => {
  it("one operation with its validators carries a small share of the validators", async () => {
    const base = `{ baseUrl: "https://pc.example.com" }`;
    const none = await gzipSize(`import { createCaller, searchMemoryDescriptor } from "./index.js";
      createCaller(${base}, searchMemoryDescriptor)({}).then(console.log);`);
    const one = await gzipSize(`import { createCaller, searchMemoryDescriptor, searchMemoryValidators } from "./index.js";
      createCaller(${base}, searchMemoryDescriptor, { validators: searchMemoryValidators })({}).then(console.log);`);
    const all = await gzipSize(`import { createCaller, searchMemoryDescriptor, validatorMap } from "./index.js";
      createCaller(${base}, searchMemoryDescriptor, { validators: validatorMap.search_memory })({}).then(console.log);`);
    // Every validator is about 8 kB; search_memory's, with the helpers it uses, well under half.
    expect(one - none).toBeLessThan((all - none) / 2);
  });

  it("carries the error-code table once, however many descriptors point at it, and no contract class unless asked", async () => {
    const text = new TextDecoder().decode(
      await bundle(`import { createCaller, searchMemoryDescriptor, getServerInfoDescriptor } from "./index.js";
        createCaller({ baseUrl: "https://pc.example.com" }, searchMemoryDescriptor)({}).then(console.log);
        createCaller({ baseUrl: "https://pc.example.com" }, getServerInfoDescriptor)({}).then(console.log);`),
    );
    expect(text.split("inference_unavailable").length - 1).toBe(1);
    expect(text).not.toContain("VersionConflictError");
  });
});
