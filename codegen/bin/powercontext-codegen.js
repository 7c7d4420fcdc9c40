#!/usr/bin/env node
// Runs the generator's TypeScript sources directly through tsx (no build step).
import { register } from "tsx/esm/api";

register();
const { runCli } = await import("../src/cli.ts");
process.exitCode = await runCli(process.argv.slice(2));
