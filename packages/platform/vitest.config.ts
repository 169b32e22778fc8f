import { defineConfig } from "vitest/config";
import { engineProjects } from "./src/testing.js";

/**
 * Projects `sqlite` (every test) and `postgres` (the tests that exercise the store, again on
 * PostgreSQL): `engineProjects` of `src/testing.ts`, shared with the server.
 */
const STORE_TESTS = [
  "test/store.test.ts",
  "test/compiled-queries.test.ts",
  "test/verification-jobs.test.ts",
  "test/author-agents.test.ts",
  "test/bounty-author-wallet.test.ts",
  "test/author-flag-race.test.ts",
  "test/dataset-library.test.ts",
  "test/award.test.ts",
  "test/award-recovery.test.ts",
  "test/award-target.test.ts",
  "test/anchor-reorg.test.ts",
  "test/receipt-squat.test.ts",
  "test/dataset.test.ts",
  "test/detail.test.ts",
  "test/identity.test.ts",
  "test/revoked-key-writes.test.ts",
  "test/publish.test.ts",
  "test/label-free.test.ts",
  "test/runs.test.ts",
  "test/secrecy.test.ts",
  "test/task-scores.test.ts",
  "test/task-scores-cache.test.ts",
  "test/pack-budget.test.ts",
  "test/registration.test.ts",
  "test/operator-spend.test.ts",
  "test/agent-quota.test.ts",
  "test/template-amplify.test.ts",
  "test/answer-storage.test.ts",
  "test/answer-totals.test.ts",
  "test/nul-text.test.ts",
  "test/chainless-on-chain-store.test.ts",
  "test/award-window-read.test.ts",
  "test/attach-once.test.ts",
  "test/lock-recovery.test.ts",
  "test/grade-slices.test.ts",
  "test/upload-slices.test.ts",
  "test/upload-stop.test.ts",
  "test/run-id.test.ts",
  "test/publish-oracle.test.ts",
  "test/prize-attach-rules.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 240_000,
    projects: engineProjects(STORE_TESTS),
  },
});
