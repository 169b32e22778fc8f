/**
 * probe34 C-F5: a relayed claim whose `claimWithSig` reached the node but whose answer was lost (the RPC
 * failing at that moment) was paid, or pending, while `POST /claims/relay` answered 409 `no_credit` ("a
 * claim of it is pending, not yet mined") without the transaction it had sent: the relay took its own lost
 * send for a refusal and re-read the credit at `pending`, 0 because of that very transaction. The send is
 * taken as sent (the platform's `sendOrLose`, the award's rule): mined, the answer is the paid claim; not
 * mined by the request's deadline, 409 `claim_pending` naming its hash.
 *
 * On the devchain behind a proxy that forwards `eth_sendRawTransaction` to the node and answers it 502.
 */
import { benchmarkBountyAbi, CLAIM_PRIMARY_TYPE, CLAIM_TYPES, claimDomain } from "@bench-bounty/contracts";
import { startDevChain, type DevChain } from "@bench-bounty/devchain";
import { startLossyRpcProxy, type LossyRpcProxy } from "@bench-bounty/devchain/stubs";
import {
  ChainGateway,
  checkWithdrawalAddressOnChain,
  type Platform,
  type PlatformContext,
} from "@bench-bounty/platform";
import type { Address, Hash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { relayClaimOp } from "../src/claims/relay.js";
import { gatewayOf } from "./helpers.js";

let dc: DevChain;
let bountyId: bigint;
let proxy: LossyRpcProxy;
let relay: ReturnType<typeof relayClaimOp>;

const rpc = async (method: string, params: unknown[] = []): Promise<unknown> => {
  const r = await fetch(dc.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return ((await r.json()) as { result: unknown }).result;
};

const creditOf = (account: Address) =>
  dc.publicClient.readContract({
    address: dc.contracts.benchmarkBounty,
    abi: benchmarkBountyAbi,
    functionName: "creditOf",
    args: [bountyId, account],
  });

/** The relay's view of the platform: the attached bounty on the operator's chain `chain`. */
function platformOf(chain: ChainGateway): Platform {
  const ctx = { chain } as unknown as PlatformContext;
  return {
    chain,
    awardedPlaces: () => Promise.resolve([]),
    checkWithdrawalAddress: () => undefined,
    checkWithdrawalAddressOnChain: (a: unknown, field?: string) =>
      checkWithdrawalAddressOnChain(ctx, a, field),
    attachedChain: () =>
      Promise.resolve({
        chain,
        bounty: {
          bounty_contract: dc.contracts.benchmarkBounty,
          bounty_id: bountyId.toString(),
          chain_id: dc.chainId,
          token: dc.contracts.usdc,
        },
      }),
  } as unknown as Platform;
}

beforeAll(async () => {
  dc = await startDevChain();
  const gateway = gatewayOf(dc);
  const author = dc.accounts[1]!;
  const pool = 10_000_000n;
  await dc.mintUsdc(author.address, pool);
  const closesAt = (await dc.publicClient.getBlock()).timestamp + 100n;
  ({ bountyId } = await gateway.lockBounty({
    authorPrivateKey: author.privateKey,
    pool,
    testSetRoot: `0x${"34".repeat(32)}`,
    leafCount: 4,
    closesAt,
    awardDeadline: closesAt + 86_400n,
    thresholdBps: 5000,
    splitsBps: [5000, 5000],
  }));
  await dc.increaseTime(200);
  await gateway.award(bountyId, [dc.accounts[2]!.address, dc.accounts[3]!.address], `0x${"35".repeat(32)}`);
  proxy = await startLossyRpcProxy(dc.rpcUrl);
  // the operator's gateway, reaching the chain through the proxy
  relay = relayClaimOp(
    platformOf(
      ChainGateway.connect({
        rpcUrl: proxy.url,
        chainId: dc.chainId,
        contracts: dc.contracts,
        privateKey: dc.accounts[0]!.privateKey,
      }),
    ),
  );
}, 240_000);

afterAll(async () => {
  await proxy?.close();
  await dc?.stop();
});

async function signedClaim(i: number) {
  const account = dc.accounts[i]!.address;
  const deadline = (await dc.publicClient.getBlock()).timestamp + 3600n;
  const signature = await dc.wallet(i).signTypedData({
    domain: claimDomain(dc.chainId, dc.contracts.benchmarkBounty),
    types: CLAIM_TYPES,
    primaryType: CLAIM_PRIMARY_TYPE,
    message: { bountyId, account, to: account, nonce: 0n, deadline },
  });
  return { account, to: account, deadline, signature };
}

const principal = { account_id: "acct-relay", role: "user" } as never;

/**
 * The relay of claim `c` with the proxy's `rule` on its `eth_sendRawTransaction` (`lose`: the answer lost;
 * `errorOn`: a JSON-RPC error object answered though the call was forwarded): its answer or its refusal.
 */
async function relayWith(
  rule: "lose" | "errorOn",
  c: Awaited<ReturnType<typeof signedClaim>>,
): Promise<unknown> {
  proxy.rules[rule] = ["eth_sendRawTransaction"];
  try {
    return await relay(principal, "slug", c, { answerBy: Date.now() + 30_000 }).catch((x: unknown) => x);
  } finally {
    proxy.reset();
  }
}

/** `out` is the paid claim of `amount` base units, its transaction mined and successful, `account`'s credit gone. */
async function expectPaid(out: unknown, account: string, amount: string) {
  expect(proxy.lost()).toBeGreaterThan(0);
  expect(out).not.toBeInstanceOf(Error);
  const paid = out as { tx_hash: Hash; amount_base_units: string; block_number: string };
  expect(paid.amount_base_units).toBe(amount);
  const receipt = await dc.publicClient.getTransactionReceipt({ hash: paid.tx_hash });
  expect(receipt.status).toBe("success");
  expect(await creditOf(account as never)).toBe(0n);
  return { paid, receipt };
}

describe("a relayed claim whose send's answer is lost (probe34 C-F5)", { timeout: 120_000 }, () => {
  it("mined: answered as the paid claim with the transaction it sent, never no_credit", async () => {
    const c = await signedClaim(2);
    const { paid, receipt } = await expectPaid(await relayWith("lose", c), c.account, "5000000");
    expect(receipt.from.toLowerCase()).toBe(dc.accounts[0]!.address.toLowerCase());
    expect(paid.block_number).toBe(receipt.blockNumber.toString());
  });

  it("not mined by the request's deadline: 409 claim_pending naming the transaction it sent", async () => {
    const c = await signedClaim(3);
    await rpc("evm_setAutomine", [false]);
    proxy.rules.lose = ["eth_sendRawTransaction"];
    let e: unknown;
    try {
      e = await relay(principal, "slug", c, { answerBy: Date.now() + 6_000 }).catch((x: unknown) => x);
    } finally {
      proxy.reset();
      await rpc("evm_setAutomine", [true]);
    }
    expect(e).toMatchObject({ code: "claim_pending" });
    const hash = (e as { details: { tx_hash: Hash } }).details.tx_hash;
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    await rpc("evm_mine");
    const receipt = await dc.publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe("success");
    expect(await creditOf(c.account)).toBe(0n);
  });

  it("answered a JSON-RPC error object (-32000 connection reset) though mined: looked up by its hash, the paid claim, never no_credit (probe39 B-F4)", async () => {
    // a bounty of its own, awarded to account 4 (the others' winners have claimed)
    const gateway = gatewayOf(dc);
    const author = dc.accounts[1]!;
    await dc.mintUsdc(author.address, 10_000_000n);
    const closesAt = (await dc.publicClient.getBlock()).timestamp + 100n;
    ({ bountyId } = await gateway.lockBounty({
      authorPrivateKey: author.privateKey,
      pool: 10_000_000n,
      testSetRoot: `0x${"36".repeat(32)}`,
      leafCount: 4,
      closesAt,
      awardDeadline: closesAt + 86_400n,
      thresholdBps: 0,
      splitsBps: [10000],
    }));
    await dc.increaseTime(200);
    await gateway.award(bountyId, [dc.accounts[4]!.address], `0x${"37".repeat(32)}`);
    const c = await signedClaim(4);
    await expectPaid(await relayWith("errorOn", c), c.account, "10000000");
  });
});
