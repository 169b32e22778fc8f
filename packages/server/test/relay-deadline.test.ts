/**
 * probe24 C-F2: the relay ran every claim through one queue per process and waited for its transaction
 * with viem's 180 s default, neither bounded by the request: one slow claim blocked every other relayed
 * claim, both callers were answered 503 `request_timeout` at 60 s, and the queued claim's `claimWithSig`
 * was sent about 2 s after its caller's answer. On the devchain with automine off (a chain slow to mine):
 * two winners' claims queued with a short deadline; the first is sent and answered `claim_pending` with
 * its transaction's hash when its wait ends at the deadline, the second is answered `server_busy` and is
 * never sent (the node's pool holds one claim, and still does after both answers).
 */
import {
  benchmarkBountyAbi,
  CLAIM_PRIMARY_TYPE,
  CLAIM_TYPES,
  claimDomain,
  testUsdcAbi,
} from "@bench-bounty/contracts";
import { startDevChain, type DevChain } from "@bench-bounty/devchain";
import {
  ChainGateway,
  checkWithdrawalAddressOnChain,
  PlatformError,
  turnQueue,
  type AwardedPlace,
  type Platform,
  type PlatformContext,
  type Turns,
} from "@bench-bounty/platform";
import type { Address, Hash, Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { relayClaimOp } from "../src/claims/relay.js";
import { gatewayOf } from "./helpers.js";

let dc: DevChain;
let gateway: ChainGateway;
let bountyId: bigint;
let relay: ReturnType<typeof relayClaimOp>;
/** Called when a claim of `relay` has passed its checks and asks for its turn. */
let turnAsked = (): void => undefined;
let relayFailingWait: ReturnType<typeof relayClaimOp>;

const rpc = async (method: string, params: unknown[] = []): Promise<unknown> => {
  const r = await fetch(dc.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return ((await r.json()) as { result: unknown }).result;
};

/** The operator's claimWithSig transactions in the node's pool (sent, not mined). */
async function pooledClaims(): Promise<Hash[]> {
  const block = await dc.publicClient.getBlock({ blockTag: "pending", includeTransactions: true });
  return block.transactions
    .filter(
      (t) =>
        t.from.toLowerCase() === dc.accounts[0]!.address.toLowerCase() &&
        t.to?.toLowerCase() === dc.contracts.benchmarkBounty.toLowerCase(),
    )
    .map((t) => t.hash);
}

const creditOf = (account: Address, id = bountyId) =>
  dc.publicClient.readContract({
    address: dc.contracts.benchmarkBounty,
    abi: benchmarkBountyAbi,
    functionName: "creditOf",
    args: [id, account],
  });

beforeAll(async () => {
  dc = await startDevChain();
  gateway = gatewayOf(dc);
  const author = dc.accounts[1]!;
  const pool = 10_000_000n;
  await dc.mintUsdc(author.address, pool);
  const now = (await dc.publicClient.getBlock()).timestamp;
  const closesAt = now + 100n;
  ({ bountyId } = await gateway.lockBounty({
    authorPrivateKey: author.privateKey,
    pool,
    testSetRoot: `0x${"11".repeat(32)}`,
    leafCount: 4,
    closesAt,
    awardDeadline: closesAt + 86_400n,
    thresholdBps: 5000,
    splitsBps: [5000, 2500, 2500],
  }));
  await dc.increaseTime(200);
  await gateway.award(
    bountyId,
    [dc.accounts[2]!.address, dc.accounts[3]!.address, dc.accounts[4]!.address],
    `0x${"22".repeat(32)}`,
  );
  // the same gateway whose receipt reads fail once a claim is sent (an RPC down during the wait)
  const failingWait = Object.create(gateway, {
    waitWithin: {
      value: () =>
        Promise.reject(
          new PlatformError(
            "chain_error",
            "wait for claimWithSig failed: HTTP request failed. (the chain RPC)",
            {},
          ),
        ),
    },
  }) as ChainGateway;
  relayFailingWait = relayClaimOp(platformOf(failingWait));
  // the relays' turns, told to a test waiting for a claim past its checks (`turnAsked`)
  const turns = turnQueue();
  relay = relayClaimOp(platformOf(gateway), (fn, bound) => {
    turnAsked();
    return turns(fn, bound);
  });
}, 240_000);

/**
 * The relay's view of the platform: the benchmark's attached bounty (`id()`, by default the current
 * `bountyId`) on the operator's chain `chain`, and the platform's own withdrawal-address rule.
 */
function platformOf(chain: ChainGateway, id: () => bigint = () => bountyId): Platform {
  const ctx = { chain } as unknown as PlatformContext;
  return {
    chain,
    // the store's award as mined: a test sets `placesOf` (none by default)
    awardedPlaces: (_slug: string, address: string) => Promise.resolve(placesOf(address)),
    checkWithdrawalAddress: () => undefined,
    checkWithdrawalAddressOnChain: (a: unknown, field?: string) =>
      checkWithdrawalAddressOnChain(ctx, a, field),
    // read at each call: a test moves `bountyId` to another bounty
    attachedChain: () =>
      Promise.resolve({
        chain,
        bounty: {
          bounty_contract: dc.contracts.benchmarkBounty,
          bounty_id: id().toString(),
          chain_id: dc.chainId,
          token: dc.contracts.usdc,
        },
      }),
  } as unknown as Platform;
}

/** The places an account holds in the store's award as mined (`Platform.awardedPlaces`), as a test sets them. */
let placesOf = (_address: string): AwardedPlace[] => [];

let roots = 0;
/** A new bounty of 1 USDC (its own test-set root) awarded to `winner` alone; its id. */
async function awardedTo(winner: Address): Promise<bigint> {
  const bountyId = await fundedBounty();
  await dc.increaseTime(200);
  await gateway.award(bountyId, [winner], `0x${"77".repeat(32)}`);
  return bountyId;
}

/** A bounty locked by account 1 (1 USDC, closing in 100 s), Funded, not awarded. */
async function fundedBounty(): Promise<bigint> {
  roots++;
  const author = dc.accounts[1]!;
  await dc.mintUsdc(author.address, 1_000_000n);
  const closesAt = (await dc.publicClient.getBlock()).timestamp + 100n;
  const locked = await gateway.lockBounty({
    authorPrivateKey: author.privateKey,
    pool: 1_000_000n,
    testSetRoot: `0x${"66".repeat(31)}${roots.toString(16).padStart(2, "0")}`,
    leafCount: 4,
    closesAt,
    awardDeadline: closesAt + 86_400n,
    thresholdBps: 5000,
    splitsBps: [10_000],
  });
  return locked.bountyId;
}
afterAll(async () => {
  await dc?.stop();
});

async function signedClaim(i: number, to: Address, deadline?: bigint, bounty = bountyId) {
  const account = dc.accounts[i]!.address;
  deadline ??= (await dc.publicClient.getBlock()).timestamp + 3600n;
  const signature = await dc.wallet(i).signTypedData({
    domain: claimDomain(dc.chainId, dc.contracts.benchmarkBounty),
    types: CLAIM_TYPES,
    primaryType: CLAIM_PRIMARY_TYPE,
    message: { bountyId: bounty, account, to, nonce: 0n, deadline },
  });
  return { account, to, deadline, signature };
}

const principal = { account_id: "acct-relay", role: "user" } as never;

// probe26 C-F1: a claim whose deadline passes between the latest block and the next one was answered 502
// chain_error "An internal error was received. (the chain RPC)": the gas estimate at the pending block
// reverted ClaimSignatureExpired undecoded
describe(
  "a relayed claim whose deadline passes before the next block (probe26 C-F1)",
  { timeout: 120_000 },
  () => {
    it("a deadline equal to the latest block's time is 422 claim_expired, nothing sent", async () => {
      const latest = (await dc.publicClient.getBlock()).timestamp;
      const c = await signedClaim(2, dc.accounts[5]!.address, latest);
      const before = await dc.publicClient.getTransactionCount({ address: dc.accounts[0]!.address });
      const e = await relay(principal, "slug", c, { answerBy: Date.now() + 30_000 }).catch((x: unknown) => x);
      expect(e).toMatchObject({
        code: "claim_expired",
        details: { path: "$.deadline", deadline: latest.toString(), block: "latest" },
      });
      expect(await dc.publicClient.getTransactionCount({ address: dc.accounts[0]!.address })).toBe(before);
    });

    it("a deadline after the latest block but before the pending block's time is 422 claim_expired naming the pending block, nothing sent", async () => {
      const latest = (await dc.publicClient.getBlock()).timestamp;
      const c = await signedClaim(2, dc.accounts[5]!.address, latest + 3n);
      await rpc("evm_increaseTime", [10]); // the next block's time moves on, no block mined
      const before = await dc.publicClient.getTransactionCount({ address: dc.accounts[0]!.address });
      const e = await relay(principal, "slug", c, { answerBy: Date.now() + 30_000 }).catch((x: unknown) => x);
      expect(e).toMatchObject({
        code: "claim_expired",
        details: { path: "$.deadline", deadline: (latest + 3n).toString(), block: "pending" },
      });
      expect((e as Error).message).toMatch(/the pending block/);
      expect(await dc.publicClient.getTransactionCount({ address: dc.accounts[0]!.address })).toBe(before);
      expect(await creditOf(c.account)).toBe(5_000_000n); // untouched
    });
  },
);

// probe27 C-F7: a claim to an address the token blacklists was answered 502 chain_error "claimWithSig
// reverted: Error", the token's reason only in details.args and no `$.to`
describe("a relayed claim to an address the token blacklists (probe27 C-F7)", { timeout: 120_000 }, () => {
  it("is 422 invalid_withdrawal_address naming $.to and the token's reason, nothing sent", async () => {
    const blacklisted = "0x00000000000000000000000000000000000b1ac0" as Address;
    const hash = await dc.wallet(0).writeContract({
      address: dc.contracts.usdc,
      abi: testUsdcAbi,
      functionName: "blacklist",
      args: [blacklisted],
    });
    await dc.publicClient.waitForTransactionReceipt({ hash });
    const c = await signedClaim(2, blacklisted);
    const before = await dc.publicClient.getTransactionCount({ address: dc.accounts[0]!.address });
    const e = await relay(principal, "slug", c, { answerBy: Date.now() + 30_000 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PlatformError);
    expect(e).toMatchObject({
      code: "invalid_withdrawal_address",
      details: {
        path: "$.to",
        reason: "token_blacklisted",
        token_reason: "Blacklistable: account is blacklisted",
        to: blacklisted,
      },
    });
    expect((e as Error).message).toMatch(
      /^to: .*blacklists 0x0+b1ac0.*Blacklistable: account is blacklisted/,
    );
    expect(await dc.publicClient.getTransactionCount({ address: dc.accounts[0]!.address })).toBe(before);
    expect(await creditOf(c.account)).toBe(5_000_000n); // untouched
  });
});

/** Sends `functionName(args)` to the test USDC from node account 0 and waits for it. */
async function usdcCall(
  functionName: "blacklist" | "unBlacklist" | "pause" | "unpause" | "updatePauser",
  args: unknown[] = [],
) {
  const hash = await dc.wallet(0).writeContract({
    address: dc.contracts.usdc,
    abi: testUsdcAbi,
    functionName,
    args,
  } as never);
  await dc.publicClient.waitForTransactionReceipt({ hash });
}

// probe31 C-F4: a token refusal that is not `to`'s blacklist (the bounty contract blacklisted, the token paused)
// was answered 502 chain_error "claimWithSig reverted: ...", not naming whom the token refuses: a client was
// told the chain failed, and a winner re-signed with another `to`, which cannot help
describe(
  "a relayed claim the token refuses for another reason than `to` (probe31 C-F4)",
  { timeout: 120_000 },
  () => {
    it("the bounty contract blacklisted: 409 token_refused naming it, no other `to` helps, nothing sent", async () => {
      const c = await signedClaim(2, dc.accounts[2]!.address);
      const before = await dc.publicClient.getTransactionCount({ address: dc.accounts[0]!.address });
      await usdcCall("blacklist", [dc.contracts.benchmarkBounty]);
      let e: unknown;
      try {
        e = await relay(principal, "slug", c, { answerBy: Date.now() + 30_000 }).catch((x: unknown) => x);
      } finally {
        await usdcCall("unBlacklist", [dc.contracts.benchmarkBounty]);
      }
      expect(e).toMatchObject({
        code: "token_refused",
        details: {
          token_reason: "Blacklistable: account is blacklisted",
          bounty_contract: dc.contracts.benchmarkBounty.toLowerCase(),
          blacklisted: ["bounty_contract"],
        },
      });
      expect((e as Error).message).toMatch(
        /blacklists the bounty contract 0x[0-9a-f]{40}, which sends every claim.*no other `to` helps; the credit stays/,
      );
      // the test's own two transactions (blacklist, unBlacklist) from account 0, no claim among them
      expect(await dc.publicClient.getTransactionCount({ address: dc.accounts[0]!.address })).toBe(
        before + 2,
      );
      expect(await creditOf(c.account)).toBe(5_000_000n);
    });

    it("a paused token: 409 token_refused with its reason, nobody blacklisted, nothing sent", async () => {
      const c = await signedClaim(2, dc.accounts[2]!.address);
      await usdcCall("updatePauser", [dc.accounts[0]!.address]);
      await usdcCall("pause");
      const before = await dc.publicClient.getTransactionCount({ address: dc.accounts[0]!.address });
      let e: unknown;
      try {
        e = await relay(principal, "slug", c, { answerBy: Date.now() + 30_000 }).catch((x: unknown) => x);
      } finally {
        await usdcCall("unpause");
      }
      expect(e).toMatchObject({
        code: "token_refused",
        details: { token_reason: "Pausable: paused", blacklisted: [] },
      });
      expect((e as Error).message).toMatch(/refused the transfer \("Pausable: paused"\).*the credit stays/);
      expect(await dc.publicClient.getTransactionCount({ address: dc.accounts[0]!.address })).toBe(
        before + 1,
      );
      expect(await creditOf(c.account)).toBe(5_000_000n);
    });
  },
);

describe("a relayed claim is bounded by its request's deadline (probe24 C-F2)", { timeout: 120_000 }, () => {
  it("two claims queued on a chain that does not mine: the first answers claim_pending with its hash, the second server_busy and is never sent", async () => {
    const a = await signedClaim(2, dc.accounts[5]!.address);
    const b = await signedClaim(3, dc.accounts[6]!.address);
    await rpc("evm_setAutomine", [false]);
    try {
      const answerBy = Date.now() + 3_000;
      const started = Date.now();
      const answered: Record<string, number> = {};
      const settle = (name: string, p: Promise<unknown>) =>
        p.then(
          (v) => ((answered[name] = Date.now() - started), { ok: v }),
          (e: unknown) => ((answered[name] = Date.now() - started), { error: e }),
        );
      // a past its checks and queued first (turns go in the order the checks end, probe28 A-F3), then b
      const asked = new Promise<void>((r) => (turnAsked = r));
      const settledA = settle("a", relay(principal, "slug", a, { answerBy }));
      await asked;
      turnAsked = () => undefined;
      const [first, second] = await Promise.all([
        settledA,
        settle("b", relay(principal, "slug", b, { answerBy })),
      ]);
      expect(first).toMatchObject({ error: { code: "claim_pending" } });
      const hash = (first as { error: { details: { tx_hash: Hash } } }).error.details.tx_hash;
      expect((first as { error: Error }).error.message).toMatch(
        /sent and is not mined yet.*do not sign again/,
      );
      expect(second).toMatchObject({ error: { code: "server_busy" } });
      expect((second as { error: Error }).error.message).toMatch(/nothing was sent/);
      // both answered by the deadline (with the slack of a receipt poll), not at viem's 180 s
      expect(answered.a!).toBeLessThan(3_000 + 2_500);
      expect(answered.b!).toBeLessThan(3_000 + 2_500);
      expect(await pooledClaims()).toEqual([hash]);
      // nothing runs after the answers: the second claim is still not sent a while later
      await new Promise((r) => setTimeout(r, 2_000));
      expect(await pooledClaims()).toEqual([hash]);
      // the same signed claim posted again while the first is pending (probe25 A-F3: 502 chain_error
      // "internal error (the chain RPC)"): 409 no_credit naming the pending claim, nothing more sent
      const again = await relay(principal, "slug", a, { answerBy: Date.now() + 5_000 }).catch(
        (e: unknown) => e,
      );
      expect(again).toMatchObject({ code: "no_credit" });
      expect((again as Error).message).toMatch(/a claim of it is pending, not yet mined/);
      expect(await pooledClaims()).toEqual([hash]);
      await dc.mine();
      expect(await creditOf(a.account)).toBe(0n); // the first claim was paid once mined
      expect(await creditOf(b.account)).toBe(2_500_000n); // the second never was
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
  });

  it("a claim whose deadline has passed when its turn comes is never sent; one in time is relayed", async () => {
    const b = await signedClaim(3, dc.accounts[6]!.address);
    const before = await dc.publicClient.getTransactionCount({ address: dc.accounts[0]!.address });
    const late = await relay(principal, "slug", b, { answerBy: Date.now() - 1 }).catch((e: unknown) => e);
    expect(late).toMatchObject({ code: "server_busy", headers: { "retry-after": "5" } });
    expect(await dc.publicClient.getTransactionCount({ address: dc.accounts[0]!.address })).toBe(before);
    const paid = await relay(principal, "slug", b, { answerBy: Date.now() + 30_000 });
    expect(paid).toMatchObject({ account: b.account.toLowerCase(), amount_base_units: "2500000" });
    expect(await creditOf(b.account)).toBe(0n);
  });

  it("a claim sent while the chain then cannot be read is answered claim_pending with its hash, never a bare chain_error (probe25 A-F7)", async () => {
    const c = await signedClaim(4, dc.accounts[9]!.address);
    const answer = await relayFailingWait(principal, "slug", c, { answerBy: Date.now() + 30_000 }).catch(
      (e: unknown) => e,
    );
    expect(answer).toMatchObject({ code: "claim_pending" });
    expect((answer as Error).message).toMatch(/was sent and is not mined yet \(the chain could not be read/);
    const hash = (answer as { details: { tx_hash: Hash } }).details.tx_hash;
    // the hash is the claim's: mined (automine), it paid the credit
    expect((await dc.publicClient.getTransactionReceipt({ hash })).status).toBe("success");
    expect(await creditOf(c.account)).toBe(0n);
  });

  it("a relayed claim takes its turn among the gateway's own writes: it waits for an anchor being mined, and past its deadline is never sent", async () => {
    // a second bounty whose one winner is account 7 (the first bounty's credits are all claimed above)
    const author = dc.accounts[1]!;
    await dc.mintUsdc(author.address, 1_000_000n);
    const closesAt = (await dc.publicClient.getBlock()).timestamp + 100n;
    const second = await gateway.lockBounty({
      authorPrivateKey: author.privateKey,
      pool: 1_000_000n,
      testSetRoot: `0x${"33".repeat(32)}`,
      leafCount: 4,
      closesAt,
      awardDeadline: closesAt + 86_400n,
      thresholdBps: 5000,
      splitsBps: [10_000],
    });
    await dc.increaseTime(200);
    await gateway.award(second.bountyId, [dc.accounts[7]!.address], `0x${"44".repeat(32)}`);
    const previous = bountyId;
    bountyId = second.bountyId;
    try {
      const d = await signedClaim(7, dc.accounts[8]!.address);
      const operator = dc.accounts[0]!.address;
      await rpc("evm_setAutomine", [false]);
      let anchored: Promise<unknown> | undefined;
      try {
        // the platform's own write: sent, then waited for while the chain does not mine
        anchored = gateway.anchorMany([`0x${"5a".repeat(32)}`], "receipt");
        const sentBy = Date.now() + 20_000;
        while (
          (await dc.publicClient.getTransactionCount({ address: operator, blockTag: "pending" })) ===
            (await dc.publicClient.getTransactionCount({ address: operator })) &&
          Date.now() < sentBy
        )
          await new Promise((r) => setTimeout(r, 100));
        const nonceAfterAnchor = await dc.publicClient.getTransactionCount({
          address: operator,
          blockTag: "pending",
        });
        const late = await relay(principal, "slug", d, { answerBy: Date.now() + 3_000 }).catch(
          (e: unknown) => e,
        );
        expect(late).toMatchObject({ code: "server_busy" });
        expect((late as Error).message).toMatch(
          /the platform's own chain writes before it took until the request's deadline; nothing was sent/,
        );
        expect(await pooledClaims()).toEqual([]);
        expect(await dc.publicClient.getTransactionCount({ address: operator, blockTag: "pending" })).toBe(
          nonceAfterAnchor,
        );
        await dc.mine();
        expect(await anchored).toHaveLength(1);
      } finally {
        await rpc("evm_setAutomine", [true]);
        await anchored?.catch(() => undefined);
      }
      // once the anchor's turn has ended, the claim in time is sent and paid
      const paid = await relay(principal, "slug", d, { answerBy: Date.now() + 30_000 });
      expect(paid).toMatchObject({ account: d.account.toLowerCase(), amount_base_units: "1000000" });
      expect(await creditOf(d.account)).toBe(0n);
    } finally {
      bountyId = previous;
    }
  });

  it("an anchor transaction the node dropped does not hold the turn: the claim behind it is sent and paid at once (probe34 A-F1)", async () => {
    // probe34 A-F1: the anchor's wait for a transaction the node no longer knew was viem's 180 s, inside
    // the gateway's one write turn: every relay behind it was answered 503 server_busy
    const winner = dc.accounts[18]!.address;
    const id = await awardedTo(winner);
    const relayHere = relayClaimOp(platformOf(gateway, () => id));
    const claim = await signedClaim(18, dc.accounts[19]!.address, undefined, id);
    const operator = dc.accounts[0]!.address;
    const registry = dc.contracts.anchorRegistry.toLowerCase();
    await rpc("evm_setAutomine", [false]);
    let anchored: Promise<unknown> | undefined;
    try {
      anchored = gateway.anchorMany([`0x${"5b".repeat(32)}`, `0x${"5c".repeat(32)}`], "receipt");
      // it may reject (its transaction dropped) while the relay below is awaited: handled from now on (CI61:
      // an unhandled rejection), its rejection asserted once the relay is answered
      anchored.catch(() => undefined);
      let pooled: Hash[] = [];
      for (let i = 0; i < 200 && pooled.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const block = await dc.publicClient.getBlock({ blockTag: "pending", includeTransactions: true });
        pooled = block.transactions.filter((t) => t.to?.toLowerCase() === registry).map((t) => t.hash);
      }
      expect(pooled).toHaveLength(1);
      // the node forgets it (an eviction) and mines again at once
      await rpc("hardhat_dropTransaction", [pooled[0]]);
      await rpc("evm_setAutomine", [true]);
      const nonce = await dc.publicClient.getTransactionCount({ address: operator, blockTag: "pending" });
      const t0 = Date.now();
      const paid = await relayHere(principal, "slug", claim, { answerBy: t0 + 30_000 });
      expect(paid).toMatchObject({ account: winner.toLowerCase(), amount_base_units: "1000000" });
      expect(Date.now() - t0).toBeLessThan(20_000);
      expect(await creditOf(winner, id)).toBe(0n);
      expect(await dc.publicClient.getTransactionCount({ address: operator, blockTag: "pending" })).toBe(
        nonce + 1,
      );
      // the anchoring let its dropped transaction go: nothing recorded, the caller sends it anew
      await expect(anchored).rejects.toMatchObject({ txHash: pooled[0], state: "unknown" });
    } finally {
      await rpc("evm_setAutomine", [true]);
      await anchored?.catch(() => undefined);
    }
  });

  it("a wait whose deadline has passed looks once at the receipt, never waits for ever (viem reads 0 as no timeout)", async () => {
    await rpc("evm_setAutomine", [false]);
    try {
      const hash = await dc.wallet(7).sendTransaction({ to: dc.accounts[8]!.address, value: 1n });
      const started = Date.now();
      expect(await gateway.waitWithin(hash, 0)).toEqual({ state: "pending" });
      expect(await gateway.waitWithin(hash, -5)).toEqual({ state: "pending" });
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
  });
});

// probe28 A-F3: the read-only checks (block, creditOf, nonces, signature) ran inside the relay's turn, so
// fifty claims of free accounts that had no credit were answered one after another, each holding the
// process's one turn, and a winner's claim posted after them waited behind them all
describe("a refused relay never takes the relay's turn (probe28 A-F3)", { timeout: 120_000 }, () => {
  /**
   * A turn queue that counts the turns asked for, and runs none before the second is asked for (both
   * relays of a pair past their checks before anything is sent: the test does not race the chain).
   */
  function countedTurns(): { turns: Turns; taken: () => number } {
    const inner = turnQueue();
    let taken = 0;
    let open = (): void => undefined;
    const two = new Promise<void>((r) => (open = r));
    return {
      turns: (fn, bound) => {
        if (++taken === 2) open();
        return inner(async () => (await two, fn()), bound);
      },
      taken: () => taken,
    };
  }

  it("twenty claims without credit posted before a winner's take no turn; the winner's is paid, its duplicate refused in its turn", async () => {
    const winner = dc.accounts[10]!.address;
    const id = await awardedTo(winner);
    const { turns, taken } = countedTurns();
    const relayHere = relayClaimOp(
      platformOf(gateway, () => id),
      turns,
    );
    const deadline = (await dc.publicClient.getBlock()).timestamp + 3600n;
    // accounts that never won, a well-formed low-s signature (the probe's)
    const junk = Array.from({ length: 20 }, (_, i) => ({
      account: privateKeyToAccount(`0x${(i + 1).toString(16).padStart(64, "0")}`).address,
      to: dc.accounts[11]!.address,
      deadline,
      signature: `0x${"11".repeat(32)}${"22".repeat(32)}1b` as Hex,
    }));
    const good = await signedClaim(10, dc.accounts[11]!.address, deadline, id);
    const operator = dc.accounts[0]!.address;
    const sent = await dc.publicClient.getTransactionCount({ address: operator });
    const answerBy = Date.now() + 60_000;
    const answers = await Promise.all(
      [...junk, good, good].map((c) =>
        relayHere(principal, "slug", c, { answerBy }).catch((e: unknown) => e),
      ),
    );
    for (const a of answers.slice(0, 20)) expect(a).toMatchObject({ code: "no_credit" });
    // the winner's claim and its duplicate, in the order their checks ended: one paid, the other passed
    // the checks before the turns and its turn re-read the credit: 0, nothing sent
    const pair = answers.slice(20);
    const paid = pair.find((a) => !(a instanceof Error));
    const again = pair.find((a) => a instanceof Error);
    expect(paid).toMatchObject({ account: winner.toLowerCase(), amount_base_units: "1000000" });
    expect(again).toMatchObject({ code: "no_credit", details: { path: "$.account" } });
    expect(taken()).toBe(2); // the winner's claim and its duplicate; no refused claim took a turn
    expect(await dc.publicClient.getTransactionCount({ address: operator })).toBe(sent + 1);
    expect(await creditOf(winner, id)).toBe(0n);
  });

  it("a claim on a bounty not awarded yet says so, not 'never won, or already claimed' (probe28 C-F12)", async () => {
    const id = await fundedBounty();
    const relayHere = relayClaimOp(platformOf(gateway, () => id));
    const claim = await signedClaim(14, dc.accounts[11]!.address, undefined, id);
    const early = await relayHere(principal, "slug", claim, { answerBy: Date.now() + 60_000 }).catch(
      (e: unknown) => e,
    );
    expect(early).toMatchObject({ code: "no_credit" });
    // before the close no award can come (probe33 C-F10: "its award may be pending" was said then)
    expect((early as Error).message).toMatch(
      /is Funded on-chain and its contest is still open: it closes at \d+ \(unix seconds; the latest block's time is \d+\), and no award comes before then/,
    );
    expect((early as Error).message).not.toMatch(/never won|may be pending/);
    // closed and not awarded yet: the award may be pending
    await dc.increaseTime(200);
    const closed = await relayHere(principal, "slug", claim, { answerBy: Date.now() + 60_000 }).catch(
      (e: unknown) => e,
    );
    expect((closed as Error).message).toMatch(
      /is Funded on-chain, not awarded yet: its award may be pending/,
    );
    // once awarded to someone else, the same claim is the plain case
    await gateway.award(id, [dc.accounts[15]!.address], `0x${"77".repeat(32)}`);
    const late = await relayHere(principal, "slug", claim, { answerBy: Date.now() + 60_000 }).catch(
      (e: unknown) => e,
    );
    expect((late as Error).message).toMatch(/never won, or already claimed/);
  });

  it("a winner whose place was credited 0 base units (a 1-unit pool) is told so, not 'never won' (probe29 C-F4)", async () => {
    roots++;
    const author = dc.accounts[1]!;
    await dc.mintUsdc(author.address, 1n);
    const closesAt = (await dc.publicClient.getBlock()).timestamp + 100n;
    const { bountyId: id } = await gateway.lockBounty({
      authorPrivateKey: author.privateKey,
      pool: 1n,
      testSetRoot: `0x${"66".repeat(31)}${roots.toString(16).padStart(2, "0")}`,
      leafCount: 4,
      closesAt,
      awardDeadline: closesAt + 86_400n,
      thresholdBps: 5000,
      splitsBps: [5000, 3000, 2000],
    });
    await dc.increaseTime(200);
    const [first, second] = [dc.accounts[16]!.address, dc.accounts[17]!.address];
    await gateway.award(id, [first, second], `0x${"78".repeat(32)}`);
    expect([await creditOf(first, id), await creditOf(second, id)]).toEqual([1n, 0n]);
    // the store's award as mined names place 2 with 0 base units
    placesOf = (a) =>
      a.toLowerCase() === second.toLowerCase()
        ? [{ place: 2, amount_base_units: "0" }]
        : a.toLowerCase() === first.toLowerCase()
          ? [{ place: 1, amount_base_units: "1" }]
          : [];
    try {
      const relayHere = relayClaimOp(platformOf(gateway, () => id));
      const claim = await signedClaim(17, dc.accounts[18]!.address, undefined, id);
      const e = await relayHere(principal, "slug", claim, { answerBy: Date.now() + 60_000 }).catch(
        (x: unknown) => x,
      );
      expect(e).toMatchObject({ code: "no_credit", details: { path: "$.account" } });
      expect((e as Error).message).toBe(
        `${second} has no credit in bounty ${id} (its place 2 of the award was credited 0 base units (the pool's split rounds it down, SPEC 6): there is nothing to claim)`,
      );
      // a winner paid more than 0 who claimed, or an account that never won: the plain case
      placesOf = () => [];
      const stranger = await relayHere(principal, "slug", claim, { answerBy: Date.now() + 60_000 }).catch(
        (x: unknown) => x,
      );
      expect((stranger as Error).message).toMatch(/never won, or already claimed/);
    } finally {
      placesOf = () => [];
    }
  });

  it("a claim whose nonce a claim relayed before its turn used is refused in its turn, nothing sent", async () => {
    const winner = dc.accounts[12]!.address;
    const [x, y] = [await awardedTo(winner), await awardedTo(winner)];
    const { turns, taken } = countedTurns();
    // two benchmarks' relays, one process's turns
    const relayX = relayClaimOp(
      platformOf(gateway, () => x),
      turns,
    );
    const relayY = relayClaimOp(
      platformOf(gateway, () => y),
      turns,
    );
    const deadline = (await dc.publicClient.getBlock()).timestamp + 3600n;
    const cx = await signedClaim(12, dc.accounts[13]!.address, deadline, x);
    const cy = await signedClaim(12, dc.accounts[13]!.address, deadline, y); // both over nonce 0
    const operator = dc.accounts[0]!.address;
    const sent = await dc.publicClient.getTransactionCount({ address: operator });
    const answerBy = Date.now() + 60_000;
    const answers = await Promise.all([
      relayX(principal, "slug", cx, { answerBy }).catch((e: unknown) => e),
      relayY(principal, "slug", cy, { answerBy }).catch((e: unknown) => e),
    ]);
    // turns go in the order the checks end: whichever came first is paid, the other refused in its turn
    const paidIndex = answers.findIndex((a) => !(a instanceof Error));
    const [paidId, refusedId] = paidIndex === 0 ? [x, y] : [y, x];
    expect(answers[paidIndex]).toMatchObject({ bounty_id: paidId.toString(), amount_base_units: "1000000" });
    const refused = answers[1 - paidIndex];
    expect(refused).toMatchObject({
      code: "invalid_claim_signature",
      details: { path: "$.signature", nonce: "0", current_nonce: "1", bounty_id: refusedId.toString() },
    });
    expect((refused as Error).message).toMatch(/sign the claim again over nonce 1; nothing was sent/);
    expect(taken()).toBe(2);
    expect(await dc.publicClient.getTransactionCount({ address: operator })).toBe(sent + 1);
    expect(await creditOf(winner, refusedId)).toBe(1_000_000n); // untouched: claimable with a new signature
  });
});
