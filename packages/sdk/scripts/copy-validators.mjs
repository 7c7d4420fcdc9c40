// The generated validators are plain JavaScript with hand-off declarations written by
// the generator (validators.d.ts). tsc would derive `any`-typed declarations from the
// JavaScript instead, so the build compiles only TypeScript and copies this pair as is.
import { copyFileSync, mkdirSync } from "node:fs";

const from = new URL("../src/generated/", import.meta.url);
const to = new URL("../dist/generated/", import.meta.url);
mkdirSync(to, { recursive: true });
for (const name of ["validators.js", "validators.d.ts"]) copyFileSync(new URL(name, from), new URL(name, to));
