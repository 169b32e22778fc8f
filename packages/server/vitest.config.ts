import { defineConfig } from "vitest/config";
import { engineProjects } from "@bench-bounty/platform/testing";

/**
 * Projects `sqlite` (every test) and `postgres` (the store-heavy server tests, again on PostgreSQL): `engineProjects` of
 * `@bench-bounty/platform/testing`, shared by the platform and the server.
 */
const POSTGRES_TESTS = [
  "test/rest-walk.test.ts",
  "test/publish-quota.test.ts",
  "test/dataset-quota.test.ts",
  "test/network-share.test.ts",
  "test/access.test.ts",
  "test/squat.test.ts",
  "test/parallel.test.ts",
  "test/crash.test.ts",
  "test/no-leak.test.ts",
  "test/multi-serve.test.ts",
  "test/mcp.test.ts",
  "test/award-faults.test.ts",
  "test/finalize-fault.test.ts",
  "test/task-scores.test.ts",
  "test/buyer-only.test.ts",
  "test/registration.test.ts",
  "test/public-reads.test.ts",
  "test/late-run.test.ts",
  "test/runs-mine-page.test.ts",
  "test/benchmarks-page.test.ts",
  "test/nul-text.test.ts",
  "test/write-lock-wait.test.ts",
  "test/start-pages.test.ts",
  "test/account-keys.test.ts",
  "test/revoked-key-acts.test.ts",
  "test/run-id.test.ts",
  "test/publish-seed.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 240_000,
    projects: engineProjects(POSTGRES_TESTS),
  },
});
