/**
 * probe27 C-F6: `bench-bounty award SLUG` without `--public-url` froze every `rank_derivation.rows[].receipt_url`
 * of the pack with the library's placeholder `http://127.0.0.1:8787`, hashed into the ranking digest sent
 * in `award()` (so never correctable), and printed no warning. Now the CLI's award takes `--public-url`
 * (env `BENCH_BOUNTY_PUBLIC_URL`), else the base `serve` recorded on the store; with neither it is refused
 * naming `--public-url`, nothing prepared or sent.
 */
import { describe, expect, it } from "vitest";
import {
  chainClock,
  chainConfig,
  openAt,
  publishLockAndRun,
  runCli,
  tempDir,
  useDevChain,
} from "./helpers.js";

const devChain = useDevChain();

describe("the CLI's award and the receipt URLs it freezes (probe27 C-F6)", { timeout: 180_000 }, () => {
  it("without --public-url and none recorded: refused naming it, nothing prepared; then with serve's recorded base, the pack names it", async () => {
    const dc = devChain();
    const operator = 10;
    const { now: chainNow, clock } = await chainClock(dc);
    const dir = tempDir("bb-award-url-");
    const open = () => openAt({ dir, clock: clock.now, chain: chainConfig(dc, operator) });
    let platform = await open();
    const { slug } = await publishLockAndRun(platform, dc, {
      chainNow,
      clock,
      account: operator,
      tag: "award-url",
      title: "Award URL",
    });
    await platform.close();

    const args = [
      "award",
      slug,
      "--store",
      dir,
      "--rpc-url",
      dc.rpcUrl,
      "--bounty-contract",
      dc.contracts.benchmarkBounty,
      "--anchor-registry",
      dc.contracts.anchorRegistry,
      "--usdc",
      dc.contracts.usdc,
    ];
    const saved = { ...process.env };
    process.env.BENCH_BOUNTY_PRIVATE_KEY = dc.accounts[operator]!.privateKey;
    delete process.env.BENCH_BOUNTY_PUBLIC_URL;
    delete process.env.BENCH_BOUNTY_API_KEY;
    try {
      const refused = await runCli(...args);
      expect(refused.code, refused.err).toBe(1);
      expect(refused.err).toMatch(/--public-url is required for an award \(or set BENCH_BOUNTY_PUBLIC_URL\)/);
      expect(refused.err).toMatch(/"field": "public-url"/);
      platform = await open();
      expect(await platform.real.awardPrepared(slug)).toBe(false);
      // what serve does at start-up: its public base URL recorded on the store
      await platform.real.recordPublicBaseUrl("https://bench.example/door/");
      await platform.close();

      const awarded = await runCli(...args);
      expect(awarded.code, awarded.err).toBe(0);
      expect(awarded.err).toContain(
        `receipt URLs of the award of ${slug}: https://bench.example/door/api/v1/benchmarks/${slug}/runs/<run>/receipt`,
      );
    } finally {
      process.env = saved;
    }
    platform = await open();
    try {
      const pack = await platform.awardEvidence(slug);
      expect(pack.kind).toBe("pack");
      const parsed = JSON.parse(new TextDecoder().decode((pack as { bytes: Uint8Array }).bytes)) as {
        rank_derivation: { rows: { receipt_url: string }[] };
      };
      expect(parsed.rank_derivation.rows.length).toBeGreaterThan(0);
      for (const row of parsed.rank_derivation.rows)
        expect(row.receipt_url).toMatch(
          new RegExp(`^https://bench\\.example/door/api/v1/benchmarks/${slug}/runs/run-[0-9a-f]+/receipt$`),
        );
    } finally {
      await platform.close();
    }
  });

  it("a --public-url that is not the base serve recorded is named beside it on stderr (probe34 C-N2: silent)", async () => {
    const dc = devChain();
    const operator = 11;
    const { now: chainNow, clock } = await chainClock(dc);
    const dir = tempDir("bb-award-url-other-");
    const open = () => openAt({ dir, clock: clock.now, chain: chainConfig(dc, operator) });
    let platform = await open();
    const { slug } = await publishLockAndRun(platform, dc, {
      chainNow,
      clock,
      account: operator,
      tag: "award-url-other",
      title: "Award URL other",
    });
    await platform.real.recordPublicBaseUrl("https://bench.example/door/");
    await platform.close();
    const saved = { ...process.env };
    process.env.BENCH_BOUNTY_PRIVATE_KEY = dc.accounts[operator]!.privateKey;
    delete process.env.BENCH_BOUNTY_PUBLIC_URL;
    delete process.env.BENCH_BOUNTY_API_KEY;
    try {
      const awarded = await runCli(
        ...["award", slug, "--store", dir, "--rpc-url", dc.rpcUrl, "--public-url", "https://other.example"],
        ...[
          "--bounty-contract",
          dc.contracts.benchmarkBounty,
          "--anchor-registry",
          dc.contracts.anchorRegistry,
        ],
        ...["--usdc", dc.contracts.usdc],
      );
      expect(awarded.code, awarded.err).toBe(0);
      expect(awarded.err).toContain(
        `receipt URLs of the award of ${slug}: https://other.example/api/v1/benchmarks/${slug}/runs/<run>/receipt (--public-url), not the base serve recorded on this store (https://bench.example/door): the pack and its on-chain ranking digest freeze them for good`,
      );
    } finally {
      process.env = saved;
    }
    platform = await open();
    try {
      const pack = await platform.awardEvidence(slug);
      expect(pack.kind).toBe("pack");
      const rows = (
        JSON.parse(new TextDecoder().decode((pack as { bytes: Uint8Array }).bytes)) as {
          rank_derivation: { rows: { receipt_url: string }[] };
        }
      ).rank_derivation.rows;
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.receipt_url.startsWith("https://other.example/api/v1/")).toBe(true);
    } finally {
      await platform.close();
    }
  });
});
