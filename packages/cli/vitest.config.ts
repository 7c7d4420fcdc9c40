import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Runs this package's tests on their own (`npm test -w @powercontext/cli`):
 * the workspace packages resolve to their TypeScript sources, so no build is
 * needed. The repository's root config runs the same files.
 */
const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@powercontext\/sdk$/, replacement: source("../sdk/src/index.ts") },
      { find: /^@powercontext\/msw\/server$/, replacement: source("../msw/src/server/index.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
