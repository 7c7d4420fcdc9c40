/**
 * The suite's entry on runtimes with a command line (Node, Deno, Bun):
 * `<runtime> cli.mjs <front url> <refused url> <runtime name>`; prints one
 * JSON line of results. Arguments, not environment variables: Deno reads no
 * environment without --allow-env, which the suite runs without.
 */
import { conformanceChecks } from "./checks.js";
import { runChecks } from "./harness.js";

const args: string[] =
  (globalThis as { Deno?: { args: string[] } }).Deno?.args ??
  (globalThis as unknown as { process: { argv: string[] } }).process.argv.slice(2);
const [url = "", refusedUrl = "", runtime = "unknown"] = args;

const results = await runChecks(conformanceChecks({ loadNodeEntry: () => import("@powercontext/sdk/node") }), {
  url,
  refusedUrl,
  runtime,
});
console.log(`CONFORMANCE ${JSON.stringify(results)}`);
