/**
 * The peer of the bundle targets (issue 26): @hey-api/openapi-ts with its fetch
 * client, its SDK and its zod plugin (zod 4), every request and response
 * validated (`validator: true`), generated from the released 1.4.1 contract
 * (read from the installed PyPI package at bench time, never committed) into
 * `bench/.tmp/`, then the same three apps as ours bundled with the same esbuild
 * settings: one operation, five, and the whole SDK.
 */
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { releaseContractPath, releaseContractTool } from "../test/real/release-contract.js";
import { bundleSize } from "./bundle.js";

const OUT = fileURLToPath(new URL(".tmp/hey-api-zod/", import.meta.url));
const BASE = `client.setConfig({ baseUrl: "https://pc.example.com" });`;

/** The peer's three apps, keyed like `BundleApp.peer`. */
const APPS = {
  one: `import { client } from "./client.gen.js";
    import { searchMemory } from "./sdk.gen.js";
    ${BASE}
    searchMemory({ body: { scope_id: "s", query: "q" } }).then((r) => console.log(r.data));`,
  five: `import { client } from "./client.gen.js";
    import { getLiveness, searchMemory, rememberMemory, getMemoryEntry, listMemoryEntries } from "./sdk.gen.js";
    ${BASE}
    const calls = [getLiveness, searchMemory, rememberMemory, getMemoryEntry, listMemoryEntries];
    for (const call of calls) call({ body: {} } as never).then((r) => console.log(r.data));`,
  whole: `export * from "./index.js";`,
} as const;

/** The peer's sizes in bytes (min+gzip), or why there are none. */
export type PeerSizes =
  | { readonly ok: true; readonly sizes: Readonly<Record<keyof typeof APPS, number>> }
  | { readonly ok: false; readonly missing: string };

/** Generates the peer's SDK and measures its three apps. */
export async function peerSizes(): Promise<PeerSizes> {
  const release = releaseContractTool();
  if (!release.ok) return { ok: false, missing: `the released contract (${release.missing})` };
  const { createClient } = await import("@hey-api/openapi-ts");
  rmSync(OUT, { recursive: true, force: true });
  await createClient({
    input: releaseContractPath(),
    output: OUT,
    plugins: ["@hey-api/client-fetch", "zod", { name: "@hey-api/sdk", validator: true }],
    logs: { level: "silent" },
  } as never);
  const sizes = {} as Record<keyof typeof APPS, number>;
  for (const [name, source] of Object.entries(APPS) as [keyof typeof APPS, string][])
    sizes[name] = await bundleSize(source, OUT);
  return { ok: true, sizes };
}
