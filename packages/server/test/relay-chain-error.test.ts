/**
 * probe26 A-F7: a relayed claim whose chain reads failed (the RPC down) was answered a bare 502
 * `chain_error` "read the latest block failed: HTTP request failed." with `details: {}`, and the
 * operator's log said nothing; every other chain call says "(the chain RPC)", names the call in
 * `details.call` and writes the RPC's origin to the operator's log. The relay's reads now go through the
 * gateway's own (`ChainGateway.read`).
 */
import { ChainGateway, PlatformError, type Platform } from "@bench-bounty/platform";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { relayClaimOp } from "../src/claims/relay.js";

const winner = privateKeyToAccount(`0x${"44".repeat(32)}`).address;
const BOUNTY = "0x00000000000000000000000000000000000000b0";

/** One relayed claim of `winner` to itself through `platform`: what it answered (or threw). */
function relayOnce(platform: Platform): Promise<unknown> {
  return relayClaimOp(platform)({ account_id: "acct-x" } as never, "slug", {
    account: winner,
    to: winner,
    deadline: 9_999_999_999n,
    signature: `0x${"11".repeat(64)}1b`,
  }).catch((x: unknown) => x);
}

describe("a relayed claim on a chain that cannot be read (probe26 A-F7)", () => {
  it("answers chain_error '(the chain RPC)' naming the call, and logs the RPC's origin for the operator", async () => {
    const logged: string[] = [];
    const chain = ChainGateway.connect({
      rpcUrl: "http://127.0.0.1:9/secret-key",
      chainId: 8453,
      contracts: { benchmarkBounty: BOUNTY, anchorRegistry: BOUNTY },
      privateKey: `0x${"45".repeat(32)}`,
      log: (line) => logged.push(line),
    });
    const platform = {
      chain,
      checkWithdrawalAddress: () => undefined,
      attachedChain: () =>
        Promise.resolve({ chain, bounty: { bounty_contract: BOUNTY, bounty_id: "1", chain_id: 8453 } }),
    } as unknown as Platform;
    const e = await relayOnce(platform);
    expect(e).toBeInstanceOf(PlatformError);
    expect(e).toMatchObject({ code: "chain_error", details: { call: "read the latest block" } });
    expect((e as Error).message).toMatch(/^read the latest block failed: .*\(the chain RPC\)$/);
    expect((e as Error).message).not.toMatch(/127\.0\.0\.1|secret-key/);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(
      /^bench-bounty: chain RPC http:\/\/127\.0\.0\.1:9: read the latest block failed/,
    );
    expect(logged[0]).not.toMatch(/secret-key/);
  });
});

describe("a relayed claim for a bounty attached on another contract or chain (review of probe26 C-F5)", () => {
  it("is refused with the platform's bounty_mismatch before any chain read", async () => {
    let reads = 0;
    const chain = { read: () => (reads++, Promise.reject(new Error("read"))), publicClient: {} };
    const platform = {
      chain,
      checkWithdrawalAddress: () => undefined,
      attachedChain: () =>
        Promise.reject(
          new PlatformError("bounty_mismatch", "attached elsewhere", { field: "bounty_contract" }),
        ),
      // what the relay read before: a benchmark whose bounty names another contract than the chain's
      getBenchmark: () =>
        Promise.resolve({ bounty: { bounty_contract: BOUNTY, bounty_id: "1", chain_id: 8453 } }),
    } as unknown as Platform;
    const e = await relayOnce(platform);
    expect(e).toMatchObject({ code: "bounty_mismatch", details: { field: "bounty_contract" } });
    expect(reads).toBe(0);
  });
});
