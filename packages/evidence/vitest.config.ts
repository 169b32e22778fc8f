import { defineConfig } from "vitest/config";

// Every test runs with the default Keccak-256 backend (native when the `keccak` binding
// loads); the files that check hashes against the shared vectors run a second time with
// the pure-JS fallback (`@noble/hashes`), so both backends are held to the same vectors.
export default defineConfig({
  test: {
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
