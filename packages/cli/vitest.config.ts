import { defineConfig } from "vitest/config";

/**
 * Every test here starts the bin (a Node process that loads the whole CLI): on a loaded machine one
 * start alone takes seconds, so the default 5 s timeout failed tests that were right.
 */
export default defineConfig({
  test: {
    testTimeout: 60_000,
  },
});
