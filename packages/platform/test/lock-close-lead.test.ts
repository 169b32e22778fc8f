/**
 * probe38 C-F2: `lock` judged the close by the latest block's time, but `createAndFund` lands after the
 * approve, at least two blocks later; on an idle node (the latest block minutes old) a close "in 120 s"
 * was already past when it landed. The approve was sent and mined, then `createAndFund` reverted
 * `ClosesAtNotInFuture`: gas spent on two transactions, the allowance left, answered as a bare chain_error.
 * Now the close is judged by the pending block's time plus a lead (`LOCK_CLOSE_LEAD_SECONDS`): a close
 * too near is refused `invalid_option` naming `closes_at` (the CLI's `--closes-in`), nothing sent;
 * `--closes-in` counts from that block; a refusal after the approve names it and the allowance left.
 */
import { createWalletClient, http, parseTransaction, type Hex } from "viem";
import { startLossyRpcProxy, type RpcCall } from "@bench-bounty/devchain/stubs";
import { privateKeyToAccount } from "viem/accounts";
import { testUsdcAbi } from "@bench-bounty/contracts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LOCK_CLOSE_LEAD_SECONDS } from "../src/award/bounty.js";
import { ChainGateway } from "../src/chain.js";
import {
  chainConfig,
  cities,
  devChainArgs,
  latestBlockTime,
  openAt,
  openTemp,
  rejection,
  runCli,
  tempDir,
  useDevChain,
  type Harness,
} from "./helpers.js";

const devChain = useDevChain();

afterEach(() => {
  vi.restoreAllMocks();
});

/** A published benchmark, its commitment anchored, and its author `dc.accounts[author]` holding 5 USDC. */
async function published(h: Harness, dc: ReturnType<typeof devChain>, author: number, tag: string) {
  const ds = await h.createDataset(cities(6, tag));
  const { slug } = await h.publish(ds.dataset_id, {
    title: `Lead ${tag}`,
    prompt_template: "Answer for {payload.city}?",
    grader_type: "exact",
  });
  await h.anchorCommitment(slug); // before the idle minutes: the lock sends nothing of its own first
  const key = dc.accounts[author]!;
  await dc.mintUsdc(key.address, 5_000_000n);
  return { slug, key };
}

/** The author's nonce, its allowance to BenchmarkBounty, and the latest block number. */
async function sent(dc: ReturnType<typeof devChain>, author: Hex) {
  const [nonce, allowance, block] = await Promise.all([
    dc.publicClient.getTransactionCount({ address: author }),
    dc.publicClient.readContract({
      address: dc.contracts.usdc,
      abi: testUsdcAbi,
      functionName: "allowance",
      args: [author, dc.contracts.benchmarkBounty],
    }),
    dc.publicClient.getBlockNumber({ cacheTime: 0 }),
  ]);
  return { nonce, allowance, block };
}

/** The node idle for `seconds`: its clock moves, no block is mined (the latest block grows old). */
async function idle(dc: ReturnType<typeof devChain>, seconds: number) {
  await dc.publicClient.request({ method: "evm_increaseTime" as never, params: [seconds] as never });
}

async function pendingTime(dc: ReturnType<typeof devChain>): Promise<number> {
  return Number((await dc.publicClient.getBlock({ blockTag: "pending" })).timestamp);
}

describe(
  "a lock's close is judged by the block createAndFund lands in (probe38 C-F2)",
  { timeout: 180_000 },
  () => {
    it("on an idle node a close past the next block's time, or too near it, is refused naming closes_at, nothing sent", async () => {
      const dc = devChain();
      const h = await openTemp({ chain: chainConfig(dc, 0) });
      try {
        const { slug, key } = await published(h, dc, 1, "idle");
        const latest = await latestBlockTime(dc);
        await idle(dc, 300);
        const before = await sent(dc, key.address);
        const terms = {
          authorPrivateKey: key.privateKey,
          pool: 5_000_000n,
          thresholdBps: 0,
          payoutRule: "winner_take_all" as const,
        };
        // "two minutes after the latest block": already past for the next block
        const past = await rejection(
          h.lockBounty(slug, { ...terms, closesAt: latest + 120, awardDeadline: latest + 86_400 }),
        );
        expect(past).toMatchObject({ code: "invalid_option", details: { field: "closes_at" } });
        expect(past.message).toMatch(new RegExp(`closes_at ${latest + 120} is not in the future`));
        expect(await sent(dc, key.address)).toEqual(before);
        // in the future of the next block, but not of createAndFund's (after the approve's)
        const next = await pendingTime(dc);
        const near = await rejection(
          h.lockBounty(slug, { ...terms, closesAt: next + 5, awardDeadline: next + 86_400 }),
        );
        expect(near).toMatchObject({
          code: "invalid_option",
          details: { field: "closes_at", closes_at: next + 5 },
        });
        expect(near.details.min_closes_at).toBe(
          Number(near.details.next_block_time) + LOCK_CLOSE_LEAD_SECONDS + 1,
        );
        expect(near.message).toMatch(/after the next block's time .* nothing was sent$/);
        expect(await sent(dc, key.address)).toEqual(before);
        // a close well after the next block: locked (approve + createAndFund)
        const locked = await h.lockBounty(slug, {
          ...terms,
          closesAt: next + 600,
          awardDeadline: next + 86_400,
        });
        expect(locked).toMatchObject({ status: "funded", closes_at: next + 600 });
        expect((await sent(dc, key.address)).nonce).toBe(before.nonce + 2);
      } finally {
        await h.close();
      }
    });

    it("the CLI: --closes-in counts from the next block; too short is refused naming --closes-in, nothing sent", async () => {
      const dc = devChain();
      const dir = tempDir("bb-lock-lead-");
      const h = await openAt({ dir, chain: chainConfig(dc, 0) });
      const { slug, key } = await published(h, dc, 2, "cli");
      await h.close();
      await idle(dc, 300);
      const before = await sent(dc, key.address);
      vi.stubEnv("BENCH_BOUNTY_AUTHOR_KEY", key.privateKey);
      vi.stubEnv("BENCH_BOUNTY_PRIVATE_KEY", dc.accounts[0]!.privateKey);
      vi.stubEnv("BENCH_BOUNTY_RPC_URL", "");
      const lock = (closesIn: string) =>
        runCli(
          "lock",
          slug,
          "--store",
          dir,
          ...devChainArgs(dc, { usdc: true }),
          "--pool",
          "3",
          "--closes-in",
          closesIn,
          "--threshold-bps",
          "0",
          "--payout-rule",
          "top_n_split",
        );
      const short = await lock("1");
      expect(short.code, short.err).toBe(1);
      expect(short.err).toMatch(
        /^error: --closes-in 1 puts the close at \d+: closes_at \d+ is only 1 s after the next block's time .*nothing was sent\n/,
      );
      const body = JSON.parse(short.err.slice(short.err.indexOf("\n") + 1)) as Record<string, unknown>;
      expect(body).toMatchObject({ code: "invalid_option", details: { field: "closes-in" } });
      expect(await sent(dc, key.address)).toEqual(before);
      // two minutes from the next block, though the latest is five minutes old: locked
      const next = await pendingTime(dc);
      const ok = await lock("120");
      expect(ok.code, ok.err).toBe(0);
      const attached = JSON.parse(ok.out) as { closes_at: number; status: string };
      expect(attached.status).toBe("funded");
      expect(attached.closes_at).toBeGreaterThanOrEqual(next + 120);
      expect((await sent(dc, key.address)).nonce).toBe(before.nonce + 2);
    });

    it("a createAndFund refused after the approve was mined says the approve was sent and the allowance is left", async () => {
      const dc = devChain();
      const h = await openTemp({ chain: chainConfig(dc, 0) });
      try {
        const { slug, key } = await published(h, dc, 3, "after-approve");
        const author = createWalletClient({
          account: privateKeyToAccount(key.privateKey),
          chain: dc.publicClient.chain,
          transport: http(dc.rpcUrl),
        });
        // between the approve's receipt and createAndFund the pool leaves the author's balance
        const proto = ChainGateway.prototype as unknown as { wait: (...a: unknown[]) => Promise<unknown> };
        const wait = proto.wait;
        vi.spyOn(proto, "wait").mockImplementation(async function (this: unknown, ...args: unknown[]) {
          const receipt = await wait.apply(this, args);
          if (args[1] === "approve") {
            const hash = await author.writeContract({
              address: dc.contracts.usdc,
              abi: testUsdcAbi,
              functionName: "transfer",
              args: [dc.accounts[4]!.address, 5_000_000n],
            });
            await dc.publicClient.waitForTransactionReceipt({ hash });
          }
          return receipt;
        });
        const next = await pendingTime(dc);
        const e = await rejection(
          h.lockBounty(slug, {
            authorPrivateKey: key.privateKey,
            pool: 5_000_000n,
            closesAt: next + 3600,
            awardDeadline: next + 86_400,
            thresholdBps: 0,
            payoutRule: "winner_take_all",
          }),
        );
        expect(e.code).toBe("chain_error");
        expect(e.details.approve_tx).toMatch(/^0x[0-9a-f]{64}$/);
        expect(e.details).toMatchObject({
          allowance_left: "5000000",
          spender: dc.contracts.benchmarkBounty,
        });
        expect(e.message).toContain(
          `The approve (transaction ${String(e.details.approve_tx)}) was sent and mined before: the author ${key.address} still allows BenchmarkBounty ${dc.contracts.benchmarkBounty} to take 5000000 base units`,
        );
        expect((await sent(dc, key.address)).allowance).toBe(5_000_000n);
        expect((await h.real.getBenchmark(slug)).bounty).toBeNull();
      } finally {
        await h.close();
      }
    });
  },
);

describe(
  "a createAndFund whose answer is lost: the chain is read before the lock answers (probe39 B-F5)",
  { timeout: 180_000 },
  () => {
    /** A platform whose chain RPC is a lossy proxy; `onCreate(rules)` runs when createAndFund is sent. */
    async function behindProxy(
      dc: ReturnType<typeof devChain>,
      onCreate: (rules: { errorOn: string[]; blindAfterSend: boolean }) => void,
    ) {
      const proxy = await startLossyRpcProxy(dc.rpcUrl);
      proxy.rules.before = (call: RpcCall) => {
        if (
          call.method === "eth_sendRawTransaction" &&
          parseTransaction(call.params[0] as Hex).to?.toLowerCase() ===
            dc.contracts.benchmarkBounty.toLowerCase()
        )
          onCreate(proxy.rules);
        return Promise.resolve();
      };
      const h = await openTemp({ chain: { ...chainConfig(dc, 0), rpcUrl: proxy.url } });
      return { proxy, h };
    }

    const terms = async (dc: ReturnType<typeof devChain>, key: { privateKey: Hex }) => {
      const next = await pendingTime(dc);
      return {
        authorPrivateKey: key.privateKey,
        pool: 5_000_000n,
        closesAt: next + 3600,
        awardDeadline: next + 86_400,
        thresholdBps: 0,
        payoutRule: "winner_take_all" as const,
      };
    };

    it("answered a JSON-RPC error object (-32000 connection reset) though mined: looked up by its hash, the lock goes on and attaches the bounty", async () => {
      const dc = devChain();
      const { proxy, h } = await behindProxy(dc, (rules) => {
        rules.errorOn = ["eth_sendRawTransaction"];
      });
      try {
        const { slug, key } = await published(h, dc, 5, "create-error");
        const attached = await h.lockBounty(slug, await terms(dc, key));
        expect(proxy.lost()).toBe(1);
        expect(attached.status).toBe("funded");
        expect((await h.real.getBenchmark(slug)).bounty?.bounty_id).toBe(attached.bounty_id);
        expect((await sent(dc, key.address)).allowance).toBe(0n);
      } finally {
        await h.close();
        await proxy.close();
      }
    });

    it("mined but its receipt never read: the error says the allowance read from the chain (0, used), never that the pool is still allowed", async () => {
      const dc = devChain();
      const { proxy, h } = await behindProxy(dc, (rules) => {
        rules.blindAfterSend = true;
      });
      try {
        const { slug, key } = await published(h, dc, 6, "create-blind");
        const e = await rejection(h.lockBounty(slug, await terms(dc, key)));
        expect(e.code).toBe("chain_error");
        expect(e.details).toMatchObject({ allowance_left: "0", spender: dc.contracts.benchmarkBounty });
        expect(e.message).not.toContain("still allows");
        expect(e.message).toContain(
          `the author ${key.address} allows BenchmarkBounty ${dc.contracts.benchmarkBounty} nothing of ${dc.contracts.usdc} any more (read after the failure`,
        );
        expect((await sent(dc, key.address)).allowance).toBe(0n);
      } finally {
        await h.close();
        await proxy.close();
      }
    });
  },
);
