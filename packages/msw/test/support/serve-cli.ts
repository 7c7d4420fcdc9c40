import { main } from "../../src/server/cli.js";

// Runs `powercontext-mock serve ...` from the sources (tests spawn it with `node --import tsx`).
await main(process.argv);
