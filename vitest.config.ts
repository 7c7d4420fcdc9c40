import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "codegen/test/**/*.test.ts",
      "packages/*/test/**/*.test.ts",
      "test/**/*.test.ts",
      "examples/test/**/*.test.ts",
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
