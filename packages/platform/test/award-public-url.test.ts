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
  devChainArgs,
  openAt,
  publishLockAndRun,
  runCli,
  tempDir,
  useDevChain,
} from "./helpers.js";

const devChain = useDevChain();

/**
 * A store in a fresh temp folder holding a published, locked benchmark with a finished run (the operator
 * `dc.accounts[operator]`), its clock at the chain's time and past the close.
 */
async function awardableStore(operator: number, tag: string) {
  const dc = devChain();
  const { now: chainNow, clock } = await chainClock(dc);
  const dir = tempDir(`bb-${tag}-`);
  const open = () => openAt({ dir, clock: clock.now, chain: chainConfig(dc, operator) });
  const platform = await open();
  const { slug } = await publishLockAndRun(platform, dc, {
    chainNow,
    clock,
    account: operator,
    tag,
    title: tag,
  });
  await platform.close();
  /** `bench-bounty award SLUG --store DIR` on the devchain, with `extra` options, as the operator. */
  const award = async (...extra: string[]) => {
    const saved = { ...process.env };
    process.env.BENCH_BOUNTY_PRIVATE_KEY = dc.accounts[operator]!.privateKey;
    delete process.env.BENCH_BOUNTY_PUBLIC_URL;
    delete process.env.BENCH_BOUNTY_API_KEY;
    try {
      return await runCli(...["award", slug, "--store", dir, ...extra], ...devChainArgs(dc, { usdc: true }));
    } finally {
      process.env = saved;
    }
  };
  /** The receipt URLs of the rows of the award's evidence pack. */
  const receiptUrls = async (): Promise<string[]> => {
    const again = await open();
    try {
      const pack = await again.awardEvidence(slug);
      expect(pack.kind).toBe("pack");
      const parsed = JSON.parse(new TextDecoder().decode((pack as { bytes: Uint8Array }).bytes)) as {
        rank_derivation: { rows: { receipt_url: string }[] };
      };
      return parsed.rank_derivation.rows.map((row) => row.receipt_url);
    } finally {
      await again.close();
    }
  };
  return { slug, open, award, receiptUrls };
}

describe("the CLI's award and the receipt URLs it freezes (probe27 C-F6)", { timeout: 180_000 }, () => {
  it("without --public-url and none recorded: refused naming it, nothing prepared; then with serve's recorded base, the pack names it", async () => {
    const { slug, open, award, receiptUrls } = await awardableStore(10, "award-url");
    const refused = await award();
    expect(refused.code, refused.err).toBe(1);
    expect(refused.err).toMatch(/--public-url is required for an award \(or set BENCH_BOUNTY_PUBLIC_URL\)/);
    expect(refused.err).toMatch(/"field": "public-url"/);
    const platform = await open();
    expect(await platform.real.awardPrepared(slug)).toBe(false);
    // what serve does at start-up: its public base URL recorded on the store
    await platform.real.recordPublicBaseUrl("https://bench.example/door/");
    await platform.close();

    const awarded = await award();
    expect(awarded.code, awarded.err).toBe(0);
    expect(awarded.err).toContain(
      `receipt URLs of the award of ${slug}: https://bench.example/door/api/v1/benchmarks/${slug}/runs/<run>/receipt`,
    );
    const urls = await receiptUrls();
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls)
      expect(url).toMatch(
        new RegExp(`^https://bench\\.example/door/api/v1/benchmarks/${slug}/runs/run-[0-9a-f]+/receipt$`),
      );
  });

  it("a --public-url that is not the base serve recorded is named beside it on stderr (probe34 C-N2: silent)", async () => {
    const { slug, open, award, receiptUrls } = await awardableStore(11, "award-url-other");
    const platform = await open();
    await platform.real.recordPublicBaseUrl("https://bench.example/door/");
    await platform.close();
    const awarded = await award("--public-url", "https://other.example");
    expect(awarded.code, awarded.err).toBe(0);
    expect(awarded.err).toContain(
      `receipt URLs of the award of ${slug}: https://other.example/api/v1/benchmarks/${slug}/runs/<run>/receipt (--public-url), not the base serve recorded on this store (https://bench.example/door): the pack and its on-chain ranking digest freeze them for good`,
    );
    const urls = await receiptUrls();
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url.startsWith("https://other.example/api/v1/")).toBe(true);
  });
});
