import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The end-to-end test starts a Hardhat node, `ponder start`, Hardhat tasks and the agents.
    testTimeout: 120_000,
    hookTimeout: 600_000,
    fileParallelism: false,
  },
});
