import { defineConfig } from "vitest/config";

/**
 * Two projects: `sqlite` runs every test; `postgres` runs the tests that exercise the store again on
 * PostgreSQL (`BB_TEST_ENGINE=postgres`, one fresh schema per store in `TEST_DATABASE_URL`). The
 * PostgreSQL project runs when `TEST_DATABASE_URL` is set, and also when `CI` is set without it, so
 * that a CI without a database fails loudly instead of skipping the leg.
 */
const STORE_TESTS = [
  "test/store.test.ts",
  "test/verification-jobs.test.ts",
  "test/author-agents.test.ts",
  "test/award.test.ts",
  "test/dataset.test.ts",
  "test/detail.test.ts",
  "test/identity.test.ts",
  "test/publish.test.ts",
  "test/runs.test.ts",
  "test/secrecy.test.ts",
  "test/task-scores.test.ts",
];
const withPostgres = Boolean(process.env.TEST_DATABASE_URL || process.env.CI);

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 240_000,
    projects: [
      { extends: true, test: { name: "sqlite", env: { BB_TEST_ENGINE: "sqlite" } } },
      ...(withPostgres
        ? [{ extends: true, test: { name: "postgres", include: STORE_TESTS, env: { BB_TEST_ENGINE: "postgres" } } }]
        : []),
    ],
  },
});
