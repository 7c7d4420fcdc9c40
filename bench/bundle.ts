/**
 * How an app's bundle of the SDK is measured, for `bench:sdk` and the bundle
 * tests alike: the entry `contents` (TypeScript importing from `./index.js` of
 * the SDK's sources), bundled by esbuild for the browser (minified ESM,
 * es2022) with the runtime's sources as an app's bundler would see its
 * published build, then gzip level 9.
 */
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const SDK_SRC = fileURLToPath(new URL("../packages/sdk/src/", import.meta.url));
const RUNTIME_ENTRY = fileURLToPath(new URL("../packages/runtime/src/index.ts", import.meta.url));
const VALIDATION_ENTRY = fileURLToPath(new URL("../packages/runtime/src/validation.ts", import.meta.url));

/** The minified bundle of `contents`. Rejects when esbuild cannot build it. */
export async function bundleApp(contents: string): Promise<Uint8Array> {
  const { build } = await import("esbuild");
  const result = await build({
    stdin: { contents, resolveDir: SDK_SRC, loader: "ts" },
    alias: { "@powercontext/runtime": RUNTIME_ENTRY, "@powercontext/runtime/validation": VALIDATION_ENTRY },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]?.contents ?? new Uint8Array();
}

/** Bytes of {@link bundleApp}'s output after gzip -9. */
export async function gzipSize(contents: string): Promise<number> {
  return gzipSync(await bundleApp(contents), { level: 9 }).byteLength;
}

const BASE = `{ baseUrl: "https://pc.example.com" }`;

/** One app whose bundle issue 13 (section 4) limits: its source and its limit (kB, min+gzip). */
export interface BundleApp {
  readonly label: string;
  readonly source: string;
  readonly targetKb: number;
}

/** The three apps of issue 13's bundle limits, for `bench:sdk` and the bundle budget test. */
export const BUNDLE_APPS: readonly BundleApp[] = [
  {
    label: "one operation, no validators",
    source: `import { createCaller, getLivenessDescriptor } from "./index.js";
       const getLiveness = createCaller(${BASE}, getLivenessDescriptor);
       getLiveness(undefined).then((body) => console.log(body));`,
    targetKb: 6.5,
  },
  {
    label: "one operation with its validators",
    source: `import { createCaller, searchMemoryDescriptor, searchMemoryValidators } from "./index.js";
       const searchMemory = createCaller(${BASE}, searchMemoryDescriptor, { validators: searchMemoryValidators });
       searchMemory({ scope_id: "s", query: "q" }).then((body) => console.log(body));`,
    targetKb: 8,
  },
  {
    label: "five operations with validators (functions)",
    source: `import { createCaller, getLivenessDescriptor, getLivenessValidators, searchMemoryDescriptor, searchMemoryValidators,
         rememberMemoryDescriptor, rememberMemoryValidators, getMemoryEntryDescriptor, getMemoryEntryValidators,
         listMemoryEntriesDescriptor, listMemoryEntriesValidators } from "./index.js";
       const options = ${BASE};
       const calls = [
         createCaller(options, getLivenessDescriptor, { validators: getLivenessValidators }),
         createCaller(options, searchMemoryDescriptor, { validators: searchMemoryValidators }),
         createCaller(options, rememberMemoryDescriptor, { validators: rememberMemoryValidators }),
         createCaller(options, getMemoryEntryDescriptor, { validators: getMemoryEntryValidators }),
         createCaller(options, listMemoryEntriesDescriptor, { validators: listMemoryEntriesValidators }),
       ];
       for (const call of calls) call({}).then((body) => console.log(body));`,
    targetKb: 14,
  },
];
