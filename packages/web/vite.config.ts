import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // Relative asset URLs: dist/ can be served from any folder or origin.
  base: "./",
  resolve: {
    // Under vitest the tests run in Node, where the package root works (and the verifier needs it).
    alias: process.env.VITEST
      ? {}
      : {
          // The browser needs only the chain table of @bench-bounty/contracts (CHAINS, USDC_DECIMALS).
          // Its package root also loads the address book with node:fs at import time, which cannot run
          // in a browser, so the web build takes chains.ts itself: the same single source, one module.
          "@bench-bounty/contracts": fileURLToPath(new URL("../contracts/src/chains.ts", import.meta.url)),
        },
  },
  build: { outDir: "dist", emptyOutDir: true, target: "es2022", sourcemap: false },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
