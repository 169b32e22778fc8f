/**
 * probe27 C-F4: a `bench-bounty lock` killed while its `createAndFund` was pending left a Funded bounty on
 * the benchmark's root that the benchmark did not know, and running `lock` again (the obvious retry)
 * answered only a raw `RootBoundToLiveBounty` revert (or, the pool gone from the author's balance, "pool
 * exceeds the author's balance"), never naming the way out. Now the lock finds the author's live bounty
 * on the root: the same terms, Funded, it is attached and nothing is sent; other terms are 409
 * `bounty_exists` naming it and the differing term, and the CLI prints the `attach` command, which works
 * when pasted.
 * probe38 V-N1: the CLI printed that attach command also for a bounty the attach refuses for good (an award
 * window under MIN_AWARD_WINDOW_SECONDS, or a close not after the next block), and "reclaim it first", which
 * the contract refuses until its award deadline. Now the refusal says it can never be attached
 * (`details.attachable: false`, `reason`), that the root is bound until its award deadline and when it may be
 * reclaimed, and the CLI prints no attach command for it.
 * probe38 V-N3: a re-run with under LOCK_CLOSE_LEAD_SECONDS of the close left was refused for the close
 * before it looked for the funded bounty: now the author's live bounty on the root is adopted or named first.
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ChainGateway } from "../src/chain.js";
import type { PlatformError } from "../src/errors.js";
import {
  chainConfig,
  cities,
  devChainArgs,
  latestBlockTime,
  openAt,
  openTemp,
  runCli,
  tempDir,
  useDevChain,
  type Harness,
} from "./helpers.js";

const devChain = useDevChain();
const BIN = resolve(__dirname, "../../../bin/bench-bounty");

/**
 * A published benchmark whose author `dc.accounts[author]` "crashed" in its lock: its commitment anchored
 * and its bounty created and funded on the root (the lock's transactions), nothing recorded.
 * @returns the slug, the unrecorded bounty's id and the lock's terms
 */
async function crashedLock(
  h: Harness,
  dc: ReturnType<typeof devChain>,
  operator: number,
  author: number,
  tag: string,
  awardWindow = 86_400,
) {
  const ds = await h.createDataset(cities(6, tag));
  const { slug } = await h.publish(ds.dataset_id, {
    title: `Lock ${tag}`,
    prompt_template: "Answer for {payload.city}?",
    grader_type: "exact",
  });
  await h.anchorCommitment(slug); // the lock anchors it before it sends anything
  const b = await h.real.getBenchmark(slug);
  const key = dc.accounts[author]!;
  await dc.mintUsdc(key.address, 5_000_000n); // one pool: the crashed lock takes all of it
  const closesAt = (await latestBlockTime(dc)) + 3600;
  const terms = {
    authorPrivateKey: key.privateKey,
    pool: 5_000_000n,
    closesAt,
    awardDeadline: closesAt + awardWindow,
    thresholdBps: 5000,
    payoutRule: "top_n_split" as const,
  };
  // what the killed lock sent (approve + createAndFund, awarder the platform account), never attached
  const gateway = ChainGateway.connect(chainConfig(dc, operator));
  const { bountyId } = await gateway.lockBounty({
    authorPrivateKey: key.privateKey,
    pool: terms.pool,
    testSetRoot: b.commit_root,
    leafCount: b.leaf_count,
    closesAt: BigInt(closesAt),
    awardDeadline: BigInt(terms.awardDeadline),
    thresholdBps: terms.thresholdBps,
    splitsBps: [5000, 3000, 2000],
  });
  expect((await h.real.getBenchmark(slug)).bounty).toBeNull();
  return { slug, bountyId, terms, author: key.address };
}

/**
 * `bench-bounty lock` of `slug` by the CLI, as the author (`terms`' key) with the operator `dc.accounts[17]`'s
 * key, at the crashed lock's close with a one-day window, `pool` USDC and top_n_split: its exit and stderr.
 */
async function lockByCli(
  dc: ReturnType<typeof devChain>,
  dir: string,
  slug: string,
  terms: { authorPrivateKey: string; closesAt: number },
  pool: string,
) {
  const saved = { ...process.env };
  process.env.BENCH_BOUNTY_AUTHOR_KEY = terms.authorPrivateKey;
  process.env.BENCH_BOUNTY_PRIVATE_KEY = dc.accounts[17]!.privateKey;
  process.env.BENCH_BOUNTY_INVOKED_AS = BIN;
  delete process.env.BENCH_BOUNTY_RPC_URL;
  try {
    return await runCli(
      "lock",
      slug,
      "--store",
      dir,
      ...devChainArgs(dc, { usdc: true }),
      "--pool",
      pool,
      "--closes-at",
      String(terms.closesAt),
      "--award-window",
      "86400",
      "--threshold-bps",
      "5000",
      "--payout-rule",
      "top_n_split",
    );
  } finally {
    process.env = saved;
  }
}

describe(
  "lock after a lock that died with its createAndFund pending (probe27 C-F4)",
  { timeout: 180_000 },
  () => {
    it("the same terms: the author's funded bounty on the root is attached, nothing sent", async () => {
      const dc = devChain();
      const h = await openTemp({ chain: chainConfig(dc, 14) });
      try {
        const { slug, bountyId, terms, author } = await crashedLock(h, dc, 14, 15, "lock-same");
        const nonce = () => dc.publicClient.getTransactionCount({ address: author });
        const before = await nonce();
        const attached = await h.lockBounty(slug, terms);
        expect(attached).toMatchObject({
          bounty_id: bountyId.toString(),
          status: "funded",
          pool_base_units: "5000000",
        });
        expect((await h.real.getBenchmark(slug)).bounty?.bounty_id).toBe(bountyId.toString());
        expect(await nonce()).toBe(before); // neither an approve nor a second bounty
      } finally {
        await h.close();
      }
    });

    it("other terms: 409 bounty_exists naming the bounty and the term, nothing sent nor attached", async () => {
      const dc = devChain();
      const h = await openTemp({ chain: chainConfig(dc, 14) });
      try {
        const { slug, bountyId, terms, author } = await crashedLock(h, dc, 14, 16, "lock-other");
        await dc.mintUsdc(author, 1_000_000n);
        const nonce = () => dc.publicClient.getTransactionCount({ address: author });
        const before = await nonce();
        const e = await h.lockBounty(slug, { ...terms, pool: 6_000_000n }).catch((x: unknown) => x);
        expect(e).toMatchObject({
          code: "bounty_exists",
          details: {
            bounty_id: bountyId.toString(),
            status: "funded",
            field: "pool_base_units",
            on_chain: "5000000",
            requested: "6000000",
          },
        });
        expect((e as Error).message).toMatch(new RegExp(`your live bounty ${bountyId} \\(funded\\)`));
        expect(await nonce()).toBe(before);
        expect((await h.real.getBenchmark(slug)).bounty).toBeNull();
      } finally {
        await h.close();
      }
    });

    it("the CLI prints the attach command for a bounty of other terms, and that command, pasted, attaches it", async () => {
      const dc = devChain();
      const dir = tempDir("bb-lock-recovery-");
      const h = await openAt({ dir, chain: chainConfig(dc, 17) });
      const { slug, bountyId, terms } = await crashedLock(h, dc, 17, 18, "lock-cli");
      await h.close();
      // other terms than the crashed lock's 5 USDC
      const r = await lockByCli(dc, dir, slug, terms, "4");
      expect(r.code, r.err).toBe(1);
      expect(r.err).toMatch(/bounty_exists|already bound to your live bounty/);
      const printed = new RegExp(`To attach bounty ${bountyId} to ${slug}:\\n {2}(.+)\\n`).exec(r.err)?.[1];
      expect(printed, r.err).toBeDefined();
      expect(printed).toContain(`attach ${slug} ${bountyId} --author 0x`);
      // pasted through bash as printed, with the operator's key as the lock had it
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        BENCH_BOUNTY_PRIVATE_KEY: dc.accounts[17]!.privateKey,
      };
      delete env.DATABASE_URL;
      delete env.BENCH_BOUNTY_API_KEY;
      const run = await promisify(execFile)("bash", ["-c", printed!], { env }).then(
        (x) => ({ code: 0, ...x }),
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ bounty_id: bountyId.toString(), status: "funded" });
    });

    it("a bounty of other terms whose award window is under MIN_AWARD_WINDOW_SECONDS: bounty_exists says it can never be attached and when it may be reclaimed (probe38 V-N1)", async () => {
      const dc = devChain();
      const h = await openTemp({ chain: chainConfig(dc, 14) });
      try {
        const { slug, bountyId, terms } = await crashedLock(h, dc, 14, 19, "lock-short", 3599);
        const e = (await h
          .lockBounty(slug, { ...terms, awardDeadline: terms.closesAt + 86_400 })
          .catch((x: unknown) => x)) as PlatformError;
        expect(e).toMatchObject({
          code: "bounty_exists",
          details: {
            bounty_id: bountyId.toString(),
            status: "funded",
            attachable: false,
            reason: "award_window_too_short",
            award_deadline: terms.closesAt + 3599,
          },
        });
        expect(e.message).toContain("can never be attached");
        expect(e.message).toContain(`until its award deadline ${terms.closesAt + 3599}`);
        expect(e.message).not.toContain("attach it, or reclaim it first");
        expect((await h.real.getBenchmark(slug)).bounty).toBeNull();
      } finally {
        await h.close();
      }
    });

    it("a bounty of other terms whose close is not after the next block: bounty_exists reason closed, never attachable (probe38 V-N1)", async () => {
      const dc = devChain();
      const h = await openTemp({ chain: chainConfig(dc, 14) });
      try {
        const { slug, bountyId, terms } = await crashedLock(h, dc, 14, 13, "lock-closed");
        await dc.increaseTime(3700); // its close passed
        const closesAt = (await latestBlockTime(dc)) + 3600;
        const e = (await h
          .lockBounty(slug, { ...terms, closesAt, awardDeadline: closesAt + 86_400 })
          .catch((x: unknown) => x)) as PlatformError;
        expect(e).toMatchObject({
          code: "bounty_exists",
          details: { bounty_id: bountyId.toString(), attachable: false, reason: "closed" },
        });
        expect(e.message).toContain("can never be attached");
      } finally {
        await h.close();
      }
    });

    it("a re-run near the close (under LOCK_CLOSE_LEAD_SECONDS left): the same terms adopt the funded bounty, other terms name it (probe38 V-N3)", async () => {
      const dc = devChain();
      const h = await openTemp({ chain: chainConfig(dc, 14) });
      try {
        const { slug, bountyId, terms, author } = await crashedLock(h, dc, 14, 11, "lock-near");
        await dc.increaseTime(terms.closesAt - (await latestBlockTime(dc)) - 15); // 15 s of the close left
        const nonce = () => dc.publicClient.getTransactionCount({ address: author });
        const before = await nonce();
        // other terms: the funded bounty is named, not "closes_at is only ... s after the next block"
        const other = (await h
          .lockBounty(slug, { ...terms, pool: 4_000_000n })
          .catch((x: unknown) => x)) as PlatformError;
        expect(other).toMatchObject({
          code: "bounty_exists",
          details: { bounty_id: bountyId.toString(), status: "funded", field: "pool_base_units" },
        });
        // the same terms: the lock's own bounty, attached (its close is still after the next block)
        const attached = await h.lockBounty(slug, terms);
        expect(attached).toMatchObject({ bounty_id: bountyId.toString(), status: "funded" });
        expect(await nonce()).toBe(before);
      } finally {
        await h.close();
      }
    });

    it("a re-run without a funded bounty on the root near the close is still refused naming closes_at (probe38 V-N3)", async () => {
      const dc = devChain();
      const h = await openTemp({ chain: chainConfig(dc, 14) });
      try {
        const ds = await h.createDataset(cities(6, "lock-near-none"));
        const { slug } = await h.publish(ds.dataset_id, {
          title: "Lock near none",
          prompt_template: "Answer for {payload.city}?",
          grader_type: "exact",
        });
        const key = dc.accounts[10]!;
        await dc.mintUsdc(key.address, 5_000_000n);
        const closesAt = (await latestBlockTime(dc)) + 15;
        const e = (await h
          .lockBounty(slug, {
            authorPrivateKey: key.privateKey,
            pool: 5_000_000n,
            closesAt,
            awardDeadline: closesAt + 86_400,
            thresholdBps: 0,
            payoutRule: "winner_take_all",
          })
          .catch((x: unknown) => x)) as PlatformError;
        expect(e).toMatchObject({ code: "invalid_option", details: { field: "closes_at" } });
        expect((await h.real.getBenchmark(slug)).bounty).toBeNull();
      } finally {
        await h.close();
      }
    });

    it("the CLI prints no attach command for a bounty that can never be attached (probe38 V-N1)", async () => {
      const dc = devChain();
      const dir = tempDir("bb-lock-recovery-");
      const h = await openAt({ dir, chain: chainConfig(dc, 17) });
      const { slug, bountyId, terms } = await crashedLock(h, dc, 17, 12, "lock-cli-short", 3599);
      await h.close();
      // other terms than the crashed lock's 3599 s window
      const r = await lockByCli(dc, dir, slug, terms, "5");
      expect(r.code, r.err).toBe(1);
      expect(r.err).toContain(`your live bounty ${bountyId}`);
      expect(r.err).toContain("can never be attached");
      expect(r.err).not.toContain("To attach bounty");
      expect(r.err).not.toMatch(/ attach \S+ \d+ --author/);
    });
  },
);
