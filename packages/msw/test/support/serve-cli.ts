import { main } from "../../src/cli.js";

// Runs `powercontext-mock serve ...` (or `verify ...`) from the sources (tests spawn it with `node --import tsx`).
await main(process.argv);
