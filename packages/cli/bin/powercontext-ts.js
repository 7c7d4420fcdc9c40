#!/usr/bin/env node
// powercontext-ts: runs the built CLI (dist/cli.js). In a workspace checkout
// that has not been built yet, or when POWERCONTEXT_CLI_FROM_SOURCE=1 (the
// end-to-end tests set it so that a stale build is never what they test), it
// runs the TypeScript sources through tsx instead, resolving the workspace
// packages to their sources (tsconfig.source.json).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const built = new URL("../dist/cli.js", import.meta.url);
const sdkBuilt = new URL("../../sdk/dist/index.js", import.meta.url);
const sdkInWorkspace = new URL("../../sdk/src/index.ts", import.meta.url);

let cli;
const fromSource = process.env.POWERCONTEXT_CLI_FROM_SOURCE === "1";
if (!fromSource && existsSync(built) && (existsSync(sdkBuilt) || !existsSync(sdkInWorkspace))) {
  cli = await import(built.href);
} else {
  let register;
  try {
    ({ register } = await import("tsx/esm/api"));
  } catch {
    process.stderr.write(
      "error: powercontext-ts is not built; run `npm run build` (or install tsx to run from source)\n",
    );
    process.exit(2);
  }
  register({ tsconfig: fileURLToPath(new URL("../tsconfig.source.json", import.meta.url)) });
  cli = await import(new URL("../src/cli.ts", import.meta.url).href);
}
process.exitCode = await cli.main(process.argv.slice(2));
