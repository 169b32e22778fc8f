import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The scenario spawns a Hardhat node and `ponder start`: generous per-test limits.
    testTimeout: 180_000,
    hookTimeout: 240_000,
    // One scenario at a time on 2 cores.
    fileParallelism: false,
  },
});
