#!/usr/bin/env node
// powercontext-codegen: runs the built generator (dist/cli.js) with plain node.
// Inside this repository `npm run build` builds it; `npm run generate` runs the
// TypeScript sources through tsx instead, so generating never needs a build.
import { runCli } from "../dist/cli.js";

process.exitCode = await runCli(process.argv.slice(2));
