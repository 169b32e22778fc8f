/**
 * probe24 C-F4: `bench-bounty evidence` said a prepared award's state "cannot be read without a chain
 * (--rpc-url)"; run again with `--rpc-url` as told, it demanded BENCH_BOUNTY_PRIVATE_KEY (the operator's
 * signing key) just to read where the award is. Now it prints the command that reads the chain, and that
 * command, pasted through bash with no key in the environment, answers the chain's state (the bounty
 * reclaimed: `reclaimed_never_reveals`).
 */
import { benchmarkBountyAbi } from "@bench-bounty/contracts";
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ChainGateway } from "../src/chain.js";
import { DOOR_WAIT_MS } from "../src/award/door.js";
import { delayingProxy } from "./rpc-proxy.js";
import {
  chainClock,
  chainConfig,
  crashOnce,
  devChainArgs,
  openAt,
  publishLockAndRun,
  runCli,
  tempDir,
  useDevChain,
} from "./helpers.js";

const devChain = useDevChain();
const BIN = resolve(__dirname, "../../../bin/bench-bounty");

/**
 * `bench-bounty evidence SLUG --store DIR` with the devchain's contract addresses and `extra`, run with no
 * signing key nor RPC URL in the environment and the program named as `bin/bench-bounty` (what it prints).
 */
async function keylessEvidence(
  dc: ReturnType<typeof devChain> | null,
  slug: string,
  dir: string,
  ...extra: string[]
) {
  // null: no contract options at all (the store's own read, as the probe ran it: probe26 C-F8)
  const contracts = dc ? devChainArgs(dc, { rpc: false }) : [];
  const saved = { ...process.env };
  delete process.env.BENCH_BOUNTY_PRIVATE_KEY;
  delete process.env.BENCH_BOUNTY_RPC_URL;
  process.env.BENCH_BOUNTY_INVOKED_AS = BIN;
  try {
    return await runCli("evidence", slug, "--store", dir, ...extra, ...contracts);
  } finally {
    process.env = saved;
  }
}

/**
 * A store whose benchmark's award is confirmed on the chain but whose pack was never minted (the process died
 * before it, `awardBeforeMint`), its platform account `dc.accounts[operator]`: the store's directory and slug.
 */
async function awardedUnminted(dc: ReturnType<typeof devChain>, operator: number, tag: string) {
  const { now: chainNow, clock } = await chainClock(dc);
  const dir = tempDir(`bb-${tag}-`);
  const platform = await openAt({
    dir,
    clock: clock.now,
    chain: chainConfig(dc, operator),
    faults: crashOnce("awardBeforeMint"),
  });
  const { slug } = await publishLockAndRun(platform, dc, {
    chainNow,
    clock,
    account: operator,
    tag,
    title: `Evidence ${tag}`,
  });
  await expect(platform.award(slug)).rejects.toThrow(/injected crash at awardBeforeMint/);
  await platform.close();
  return { dir, slug };
}

describe("evidence reads the chain without the operator's key (probe24 C-F4)", { timeout: 180_000 }, () => {
  it("an award prepared, the bounty reclaimed: the printed command, pasted without a key, says reclaimed_never_reveals", async () => {
    const dc = devChain();
    const operator = 10;
    const { now: chainNow, clock } = await chainClock(dc);
    const dir = tempDir("bb-evidence-ro-");
    const platform = await openAt({ dir, clock: clock.now, chain: chainConfig(dc, operator) });
    const { slug, bountyId } = await publishLockAndRun(platform, dc, {
      chainNow,
      clock,
      account: operator,
      tag: "evidence-ro",
      title: "Evidence read-only",
    });
    // the award is prepared, then refused for want of gas: nothing sent, the row stays `prepared`
    const op = dc.accounts[operator]!.address;
    await dc.publicClient.request({ method: "hardhat_setBalance" as never, params: [op, "0x0"] as never });
    const refused = await platform.award(slug).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "chain_error" });
    await dc.publicClient.request({
      method: "hardhat_setBalance" as never,
      params: [op, "0x3635C9ADC5DEA00000"] as never,
    });
    await platform.close();
    // past the award deadline the author takes the pool back
    await dc.increaseTime(86_400 + 3_600);
    const author = dc.wallet(operator + 1);
    const hash = await author.writeContract({
      address: dc.contracts.benchmarkBounty,
      abi: benchmarkBountyAbi,
      functionName: "reclaim",
      args: [bountyId, author.account.address],
    });
    await dc.publicClient.waitForTransactionReceipt({ hash });

    // without any chain option: the printed command names the attached bounty's chain and contract and the
    // commitment's registry from the store (probe26 C-F8: pasted, it was refused "no contract addresses
    // for chain id 8453")
    const first = await keylessEvidence(null, slug, dir);
    expect(first.code).toBe(1);
    expect(JSON.parse(first.out).error.reason).toBe("award_pending");
    const printed = /no signing key needed\) with:\n {4}(.+)\n/.exec(first.err)?.[1];
    expect(printed, first.err).toBeDefined();
    expect(printed).not.toContain("--rpc-url"); // read from BENCH_BOUNTY_RPC_URL, never argv (probe34 B-F3)
    expect(printed).toContain(
      `--chain-id 8453 --bounty-contract ${dc.contracts.benchmarkBounty.toLowerCase()}`,
    );
    expect(printed).toContain(`--anchor-registry ${dc.contracts.anchorRegistry.toLowerCase()}`);
    expect(first.err).toMatch(/first set BENCH_BOUNTY_RPC_URL/);

    // pasted through bash as printed, the RPC URL set as told and no key anywhere
    const env: NodeJS.ProcessEnv = { ...process.env, BENCH_BOUNTY_RPC_URL: dc.rpcUrl };
    delete env.BENCH_BOUNTY_PRIVATE_KEY;
    delete env.DATABASE_URL;
    const run = await promisify(execFile)("bash", ["-c", printed!], { env }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(run.stderr).not.toMatch(/PRIVATE_KEY/);
    expect(run.code).toBe(1); // no pack: the bounty was reclaimed
    expect(JSON.parse(run.stdout).error).toMatchObject({
      code: "award_evidence_unavailable",
      reason: "reclaimed_never_reveals",
    });
  });

  it("a confirmed award whose pack is not minted: the printed award command, pasted with the key, mints it (probe25 B-F6)", async () => {
    const dc = devChain();
    const operator = 13;
    // the award is confirmed on the chain, then the process dies before it mints the pack
    const { dir, slug } = await awardedUnminted(dc, operator, "evidence-mint");

    const first = await keylessEvidence(dc, slug, dir, "--rpc-url", dc.rpcUrl);
    expect(first.code).toBe(1);
    expect(JSON.parse(first.out).error.reason).toBe("pack_pending");
    const printed = /mint its pack with:\n {4}(.+)\n/.exec(first.err)?.[1];
    expect(printed, first.err).toBeDefined();
    expect(first.err).toMatch(/with BENCH_BOUNTY_PRIVATE_KEY set to the platform account's key/);

    // pasted through bash as printed, with the platform account's key set as the line says
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      BENCH_BOUNTY_PRIVATE_KEY: dc.accounts[operator]!.privateKey,
    };
    delete env.BENCH_BOUNTY_RPC_URL;
    delete env.DATABASE_URL;
    const minted = await promisify(execFile)("bash", ["-c", printed!], { env }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(minted.code, minted.stderr).toBe(0);

    // the pack is served now, without a key
    const after = await keylessEvidence(dc, slug, dir, "--rpc-url", dc.rpcUrl);
    expect(after.code, after.err).toBe(0);
    const pack = JSON.parse(after.out) as { benchmark: { slug: string }; pack_hash: string };
    expect(pack.benchmark.slug).toBe(slug);
    expect(pack.pack_hash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  // probe38 C-N2: with the RPC URL (credentials in it) read from BENCH_BOUNTY_RPC_URL, the printed command
  // has no --rpc-url (the secret-hiding rule) and said only to set BENCH_BOUNTY_PRIVATE_KEY: pasted in a
  // shell without the RPC variable it answered "no chain configured"
  it("the mint command for an RPC URL with credentials, read from BENCH_BOUNTY_RPC_URL, says to set that variable; pasted with both set it mints", async () => {
    const dc = devChain();
    const operator = 16;
    const { dir, slug } = await awardedUnminted(dc, operator, "evidence-mint-env");

    const secretUrl = dc.rpcUrl.replace("http://", "http://alice:s3cretpass@") + "/v2/abcdefKEY123456";
    const saved = { ...process.env };
    delete process.env.BENCH_BOUNTY_PRIVATE_KEY;
    process.env.BENCH_BOUNTY_RPC_URL = secretUrl;
    process.env.BENCH_BOUNTY_INVOKED_AS = BIN;
    let first: Awaited<ReturnType<typeof runCli>>;
    try {
      first = await runCli("evidence", slug, "--store", dir, ...devChainArgs(dc, { rpc: false }));
    } finally {
      process.env = saved;
    }
    expect(first.code).toBe(1);
    expect(JSON.parse(first.out).error.reason).toBe("pack_pending");
    expect(first.err + first.out).not.toMatch(/s3cretpass|abcdefKEY123456/);
    const printed = /mint its pack with:\n {4}(.+)\n/.exec(first.err)?.[1];
    expect(printed, first.err).toBeDefined();
    expect(printed).not.toContain("--rpc-url");
    expect(first.err).toContain(
      `(the command reads the JSON-RPC URL from BENCH_BOUNTY_RPC_URL, as this one did for ${dc.rpcUrl}: where you paste it, set that variable to the same URL; it is not printed, it may carry a key)`,
    );
    expect(first.err).toMatch(/with BENCH_BOUNTY_PRIVATE_KEY set to the platform account's key/);

    // pasted through bash as printed, with the two variables the lines name
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      BENCH_BOUNTY_PRIVATE_KEY: dc.accounts[operator]!.privateKey,
      BENCH_BOUNTY_RPC_URL: secretUrl,
    };
    delete env.DATABASE_URL;
    const minted = await promisify(execFile)("bash", ["-c", printed!], { env }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(minted.code, minted.stderr).toBe(0);
    const after = await keylessEvidence(dc, slug, dir, "--rpc-url", dc.rpcUrl);
    expect(after.code, after.err).toBe(0);
    expect((JSON.parse(after.out) as { benchmark: { slug: string } }).benchmark.slug).toBe(slug);
  });

  // probe39 C-F1: the chain RPC too slow for the door's deadline, `evidence` said `not_awarded` "closed but
  // not awarded yet" (or `withheld_live_contest`) for a bounty the awarder's key Awarded outside the store
  it("no award prepared, the bounty awarded outside the store, the RPC's eth_call slower than the door's deadline: bounty_status_unknown, never not_awarded; answering in time, awarded_elsewhere (probe39 C-F1)", async () => {
    const dc = devChain();
    const operator = 14;
    const { now: chainNow, clock } = await chainClock(dc);
    const dir = tempDir("bb-evidence-slow-");
    const platform = await openAt({ dir, clock: clock.now, chain: chainConfig(dc, operator) });
    const { slug, bountyId, winner } = await publishLockAndRun(platform, dc, {
      chainNow,
      clock,
      account: operator,
      tag: "evidence-slow",
      title: "Evidence slow RPC",
    });
    await platform.close();
    const tx = await dc.wallet(operator).writeContract({
      address: dc.contracts.benchmarkBounty,
      abi: benchmarkBountyAbi,
      functionName: "award",
      args: [bountyId, [winner], `0x${"cf".repeat(32)}`],
    });
    await dc.publicClient.waitForTransactionReceipt({ hash: tx });
    const proxy = await delayingProxy(dc.rpcUrl, dc.contracts.benchmarkBounty);
    try {
      proxy.delay.byMethod.eth_call = DOOR_WAIT_MS + 3000;
      const slow = await keylessEvidence(dc, slug, dir, "--rpc-url", proxy.url);
      expect(slow.code, slow.err).toBe(1);
      expect(JSON.parse(slow.out).error).toEqual({
        code: "award_evidence_unavailable",
        reason: "bounty_status_unknown",
        message: expect.stringMatching(/could not be read from the chain just now.*ask again in a moment/),
        details: { bounty_id: bountyId.toString(), retry_after_seconds: 5, reason: "bounty_status_unknown" },
      });
      proxy.delay.byMethod = {};
      const answered = await keylessEvidence(dc, slug, dir, "--rpc-url", proxy.url);
      expect(answered.code, answered.err).toBe(1);
      expect(JSON.parse(answered.out).error).toMatchObject({
        reason: "awarded_elsewhere",
        details: { bounty_id: bountyId.toString(), prepared_ranking_digest: null },
      });
    } finally {
      await proxy.close();
    }
  });

  it("a chain opened read-only refuses every write of the platform account before it signs, nothing sent", async () => {
    const dc = devChain();
    const { privateKey: _, ...rest } = chainConfig(dc, 12);
    const chain = ChainGateway.connect({ ...rest, readAs: dc.accounts[12]!.address });
    expect(chain.readOnly).toBe(true);
    expect(chain.address).toBe(dc.accounts[12]!.address.toLowerCase());
    const before = await dc.publicClient.getTransactionCount({ address: dc.accounts[12]!.address });
    const e = await chain.anchor(`0x${"ab".repeat(32)}`, "pack").catch((x: unknown) => x);
    expect(e).toMatchObject({ code: "chain_error", details: { read_only: true } });
    expect((e as Error).message).toMatch(/needs the platform account's signing key.*nothing was sent/);
    expect(await dc.publicClient.getTransactionCount({ address: dc.accounts[12]!.address })).toBe(before);
  });
});
