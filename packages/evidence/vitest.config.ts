import { defineConfig } from "vitest/config";

// Every test runs with the default Keccak-256 backend (native when the `keccak` binding
// loads); the files that check hashes against the shared vectors run a second time with
// the pure-JS fallback (`@noble/hashes`), so both backends are held to the same vectors.
export default defineConfig({
  test: {
    // the property tests (3,000 documents, 20,000 fuzz cases, 5 MiB hashes) take 1-3 s idle
    // and over 5 s (vitest's default limit) when the shared 2-core machine is at load 20+
    testTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: "keccak-auto", env: { BENCH_BOUNTY_KECCAK: "auto" } },
      },
      {
        extends: true,
        test: {
          name: "keccak-js",
          env: { BENCH_BOUNTY_KECCAK: "js" },
          include: [
            "test/canonical-json.test.ts",
            "test/commitment.test.ts",
            "test/receipts.test.ts",
            "test/pack.test.ts",
            "test/canonical-spans.test.ts",
            "test/keccak.test.ts",
          ],
        },
      },
    ],
  },
});
