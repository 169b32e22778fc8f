/**
 * Phase 3: the author locks the prize with their own key through `hardhat bounty:lock` (EIP-2612 permit;
 * the service never holds an author's key), then attaches it with `POST /benchmarks/:slug/bounty`, which
 * checks author, root, leaf count and pool on-chain.
 */
import { BenchBountyClient } from "@bench-bounty/client";
import { benchmarkBountyAbi } from "@bench-bounty/contracts";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { decodeFunctionData, type Hex } from "viem";
import { chainNow, checkTaskTarget, hardhatTask } from "../chain-tools.js";
import { need, type DemoPhase } from "../context.js";
import { formatUsdc, short } from "../table.js";
import {
  AUTHOR_INDEX,
  AWARD_WINDOW_SECONDS,
  CONTEST_SECONDS,
  PLATFORM_INDEX,
  THRESHOLD_BPS,
  TOP_N_SPLIT,
} from "../terms.js";

/** lock the prize (bounty:lock, EIP-2612 permit). */
export const lockPhase: DemoPhase = {
  name: "lock the prize (bounty:lock, EIP-2612 permit)",
  async run(ctx, p) {
    const { options, registry, result, storeDir } = ctx;
    const c = need(ctx.chain, "the chain");
    const pub = need(ctx.published, "the published benchmark");
    const addressBook = need(ctx.addressBook, "the address book");
    const doorUrl = need(ctx.serviceUrl, "the service URL");
    const authorApi = new BenchBountyClient({
      baseUrl: doorUrl,
      apiKey: need(ctx.authorKey, "the author's key"),
    });
    const slug = pub.slug;
    const author = c.accounts[AUTHOR_INDEX]!.address;
    const platformAccount = c.accounts[PLATFORM_INDEX]!.address;
    const pool = BigInt(options.prizeUsdc) * 1_000_000n;
    await c.mintUsdc(author, pool);
    p.note(`minted     ${formatUsdc(pool)} test USDC to the author ${author}`);
    const commitmentFile = join(storeDir, "commitment.json");
    writeFileSync(
      commitmentFile,
      JSON.stringify({ root: pub.commit_root, leafCount: pub.leaf_count }) + "\n",
    );
    const now = await chainNow(c);
    const closesAt = now + BigInt(CONTEST_SECONDS);
    const stdout = await hardhatTask(
      registry,
      c,
      addressBook,
      [
        "bounty:lock",
        "--network",
        "localhost",
        "--commitment",
        commitmentFile,
        "--pool",
        String(options.prizeUsdc),
        "--closes-at",
        String(closesAt),
        "--award-deadline",
        String(closesAt + BigInt(AWARD_WINDOW_SECONDS)),
        "--payout-rule",
        "top_n_split",
        "--threshold-bps",
        String(THRESHOLD_BPS),
        "--awarder",
        platformAccount,
        "--from",
        author,
      ],
      p.note,
    );
    const m = /Bounty (\d+) locked/.exec(stdout);
    const txm = /tx\s+(0x[0-9a-fA-F]{64})/.exec(stdout);
    if (!m || !txm) throw new Error(`bounty:lock did not report the bounty id and tx:\n${stdout}`);
    await checkTaskTarget(c, txm[1] as Hex, "bounty:lock");
    const bountyId = BigInt(m[1]!);
    ctx.bountyId = bountyId;
    ctx.closesAt = closesAt;
    result.bountyId = bountyId.toString();
    const tx = await c.publicClient.getTransaction({ hash: txm[1] as Hex });
    const call = decodeFunctionData({ abi: benchmarkBountyAbi, data: tx.input });
    if (call.functionName !== "createAndFundWithPermit") {
      throw new Error(`the lock was sent as ${call.functionName}, expected createAndFundWithPermit`);
    }
    const attached = await authorApi.attachBounty(slug, { bounty_id: bountyId.toString() });
    p.note(
      `attached   POST /benchmarks/:slug/bounty: bounty ${attached.bounty_id} (${attached.status}) to ${slug}: pool ${formatUsdc(attached.pool_base_units)} USDC, splits ${attached.splits_bps.join("/")}`,
    );
    const expected = `pool ${pool}, splits ${TOP_N_SPLIT.join("/")}, threshold ${THRESHOLD_BPS}, status funded`;
    const got = `pool ${attached.pool_base_units}, splits ${attached.splits_bps.join("/")}, threshold ${attached.threshold_bps}, status ${attached.status}`;
    if (got !== expected) throw new Error(`the locked bounty has ${got}; expected ${expected}`);
    const door = await fetch(`${doorUrl}/api/v1/benchmarks/${slug}/award-evidence`);
    const body = (await door.json()) as { error?: { reason?: string } };
    p.note(
      `door       GET award-evidence -> ${door.status} ${body.error?.reason ?? ""} (nothing revealed before the award)`,
    );
    if (door.status !== 404 || !["not_awarded", "withheld_live_contest"].includes(body.error?.reason ?? "")) {
      throw new Error(
        `the door answered ${door.status} ${JSON.stringify(body)} before the award; expected 404 not_awarded or withheld_live_contest`,
      );
    }
    p.summary(
      `bounty ${bountyId} Funded with ${formatUsdc(pool)} USDC by createAndFundWithPermit (tx ${short(txm[1]!)})`,
    );
  },
};
