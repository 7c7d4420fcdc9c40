#!/usr/bin/env node
import { main } from "../dist/cli.js";

main().catch((error) => {
  process.stderr.write(`powercontext-mock: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
