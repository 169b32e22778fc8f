/**
 * probe34 (a34's note): viem's receipt wait answers a transaction REPLACED by another of the same
 * account and nonce (its own transaction dropped, the nonce used by the next send) with the
 * replacement's receipt. The gateway took it for its own: a leftover wait for a dropped anchor
 * "succeeded" with another transaction's block, so wrong evidence could be recorded. Now a receipt of
 * another transaction is the own transaction's end: `unknown` (dropped, never mined) for a bounded wait,
 * `chain_error` naming both hashes for a wait to the end.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Hash } from "viem";
import { ChainGateway } from "../src/chain.js";
import { chainConfig, useDevChain } from "./helpers.js";

const devChain = useDevChain();

async function rpc(method: string, params: unknown[]): Promise<unknown> {
  return devChain().publicClient.request({ method: method as never, params: params as never });
}

afterEach(async () => {
  await rpc("evm_setAutomine", [true]);
});

/**
 * Account 1 sends A (automine off), `watch` starts waiting for A and sees it pending, then A is dropped,
 * B (same nonce, another transfer) is sent and mined: what `watch` answers for A.
 */
async function replaced<T>(
  watch: (gateway: ChainGateway, a: Hash) => Promise<T>,
): Promise<{ got: T; b: Hash }> {
  const dc = devChain();
  const gateway = ChainGateway.connect(chainConfig(dc, 1));
  const from = dc.accounts[1]!.address;
  await rpc("evm_setAutomine", [false]);
  const nonce = await dc.publicClient.getTransactionCount({ address: from, blockTag: "pending" });
  const a = await dc.wallet(1).sendTransaction({ to: dc.accounts[5]!.address, value: 1n, nonce });
  const waiting = watch(gateway, a);
  waiting.catch(() => undefined);
  await new Promise((r) => setTimeout(r, 1_500)); // the wait has read A (pending)
  await rpc("hardhat_dropTransaction", [a]);
  const b = await dc.wallet(1).sendTransaction({ to: dc.accounts[6]!.address, value: 2n, nonce });
  await rpc("evm_mine", []);
  try {
    return { got: await waiting, b };
  } catch (e) {
    return { got: e as T, b };
  }
}

describe("a transaction replaced by another of the same nonce is not taken as mined", () => {
  it("a bounded wait answers unknown (dropped), not mined in the replacement's block", async () => {
    const { got } = await replaced((g, a) => g.waitWithin(a, 20_000, "anchor"));
    expect(got).toEqual({ state: "unknown" });
  }, 60_000);

  it("a wait to the end fails naming the replacement, never returns its block", async () => {
    const { got, b } = await replaced((g, a) => g.waitMined(a, "anchor"));
    expect(got).toMatchObject({ code: "chain_error", details: { replaced_by: b } });
  }, 60_000);
});
