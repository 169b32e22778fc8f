import { defineConfig } from "vitest/config";

// CLI tests spawn the bin (tsx start-up ~2 s on a busy machine); the devchain test starts a Hardhat node.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 240_000,
  },
});
