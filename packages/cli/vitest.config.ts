// `npm test -w @powercontext/cli` runs this package's tests on their own with the
// repository's settings (workspace packages resolved to their sources); of the
// root config's include patterns, `test/**/*.test.ts` is the one that applies here.
export { default } from "../../vitest.config.js";
