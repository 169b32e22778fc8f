import { defineConfig } from "vitest/config";

/**
 * Two projects: `sqlite` runs every test; `postgres` runs the store-heavy server tests again on
 * PostgreSQL (`BB_TEST_ENGINE=postgres`: a fresh schema of `TEST_DATABASE_URL` per server). The
 * PostgreSQL project runs when `TEST_DATABASE_URL` is set, and also under `CI` without it, so that
 * the leg fails loudly instead of being skipped.
 */
const POSTGRES_TESTS = [
  "test/rest-walk.test.ts",
  "test/access.test.ts",
  "test/parallel.test.ts",
  "test/crash.test.ts",
  "test/no-leak.test.ts",
  "test/multi-serve.test.ts",
  "test/mcp.test.ts",
  "test/award-faults.test.ts",
  "test/finalize-fault.test.ts",
  "test/task-scores.test.ts",
  "test/buyer-only.test.ts",
];
const withPostgres = Boolean(process.env.TEST_DATABASE_URL || process.env.CI);

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 240_000,
    projects: [
      { extends: true, test: { name: "sqlite", env: { BB_TEST_ENGINE: "sqlite" } } },
      ...(withPostgres
        ? [{ extends: true, test: { name: "postgres", include: POSTGRES_TESTS, env: { BB_TEST_ENGINE: "postgres" } } }]
        : []),
    ],
  },
});
