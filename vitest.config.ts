import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

const source = (file: string) => fileURLToPath(new URL(file, import.meta.url));
// Another undici for the runtime (its install folder), for the lane that runs the suites on undici 8.
const undici = process.env.POWERCONTEXT_UNDICI_DIR;

// Tests import the workspace packages from their sources, so `npm test` needs no
// build step and never runs against a stale dist/.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@powercontext\/runtime$/, replacement: source("./packages/runtime/src/index.node.ts") },
      { find: /^@powercontext\/runtime\/node$/, replacement: source("./packages/runtime/src/node.ts") },
      { find: /^@powercontext\/runtime\/validation$/, replacement: source("./packages/runtime/src/validation.ts") },
      { find: /^@powercontext\/runtime\/testing$/, replacement: source("./packages/runtime/src/testing/index.ts") },
      { find: /^@powercontext\/sdk$/, replacement: source("./packages/sdk/src/index.ts") },
      { find: /^@powercontext\/sdk\/node$/, replacement: source("./packages/sdk/src/node.ts") },
      { find: /^@powercontext\/sdk\/validators$/, replacement: source("./packages/sdk/src/generated/validators.js") },
      { find: /^@powercontext\/msw$/, replacement: source("./packages/msw/src/index.ts") },
      { find: /^@powercontext\/msw\/server$/, replacement: source("./packages/msw/src/server/index.ts") },
      ...(undici === undefined ? [] : [{ find: /^undici$/, replacement: `${undici}/node_modules/undici/index.js` }]),
    ],
  },
  test: {
    include: [
      "codegen/test/**/*.test.ts",
      "packages/*/test/**/*.test.ts",
      "test/**/*.test.ts",
      "examples/**/*.test.ts",
    ],
    // The tarball test's application, run inside its own temp project only.
    exclude: [...configDefaults.exclude, "test/package/consumer/**"],
    // Type tests (`*.test-d.ts`): tsc checks them; an unused @ts-expect-error or a failed expectTypeOf fails the run.
    typecheck: {
      enabled: true,
      include: ["packages/*/test/**/*.test-d.ts"],
      tsconfig: "tsconfig.typecheck.json",
    },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
