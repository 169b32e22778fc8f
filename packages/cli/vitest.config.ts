import { defineConfig } from "vitest/config";

/**
 * Every test spawns the bin (a few seconds each on a loaded 2-core machine); `test/postgres-store.test.ts`
 * runs when `TEST_DATABASE_URL` (or `CI`) is set, in parallel with the others.
 */
export default defineConfig({
  test: { testTimeout: 60_000, hookTimeout: 60_000 },
});
