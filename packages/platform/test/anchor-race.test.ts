/**
 * Two processes on one store anchor the same digest (found beside probe14 D3-F11: the CLI's `award`
 * anchored a commitment that `serve`'s batch was anchoring at that moment): each looks the digest up,
 * finds it not anchored, and sends; the second transaction reverts (already anchored), and the award
 * failed with `chain_error` "reverted: unknown". The gateway now looks the digest up again after a
 * failed send and returns the other process's anchor.
 */
import { keccak256, toHex } from "viem";
import { describe, expect, it } from "vitest";
import { ChainGateway } from "../src/chain.js";
import { chainConfig, useDevChain } from "./helpers.js";

const chain = useDevChain();

/** A gateway whose first lookup of each digest misses, as when another process anchors it in between. */
function lateGateway(accountIndex: number): ChainGateway {
  const gw = ChainGateway.connect(chainConfig(chain(), accountIndex));
  const seen = new Set<string>();
  const find = gw.findAnchor.bind(gw);
  gw.findAnchor = async (digest) => {
    if (!seen.has(digest.toLowerCase())) {
      seen.add(digest.toLowerCase());
      return null;
    }
    return find(digest);
  };
  return gw;
}

describe("a digest another process anchored between the lookup and the send", { timeout: 120_000 }, () => {
  it("anchor returns the existing anchor instead of failing on the revert", async () => {
    const digest = keccak256(toHex("anchor-race-one"));
    const first = await ChainGateway.connect(chainConfig(chain(), 0)).anchor(digest, "receipt");
    expect(await lateGateway(1).anchor(digest, "receipt")).toEqual(first);
  });

  it("anchorMany returns the existing anchors when every digest was anchored meanwhile", async () => {
    const digests = [keccak256(toHex("anchor-race-a")), keccak256(toHex("anchor-race-b"))];
    const first = await ChainGateway.connect(chainConfig(chain(), 0)).anchorMany(digests, "receipt");
    expect(await lateGateway(1).anchorMany(digests, "receipt")).toEqual(first);
  });
});

describe(
  "the account's own anchor of the digest waiting in the pool (probe29 C-F1)",
  { timeout: 120_000 },
  () => {
    it("a restarted process waits for it and returns its anchor: nothing sent twice, no simulated revert", async () => {
      const dc = chain();
      const rpc = (method: string, params: unknown[] = []) =>
        dc.publicClient.request({ method: method as never, params: params as never });
      const digest = keccak256(toHex("anchor-pending-own"));
      const account = dc.accounts[2]!.address;
      const sent = () => dc.publicClient.getTransactionCount({ address: account, blockTag: "pending" });
      const before = await sent();
      await rpc("evm_setAutomine", [false]);
      try {
        // the first process sends the pack's anchor, which waits in the pool (it is killed while it waits)
        const first = ChainGateway.connect(chainConfig(dc, 2)).anchor(digest, "pack");
        while ((await sent()) === before) await new Promise((r) => setTimeout(r, 50));
        // the restarted process anchors the same digest: it finds its own transaction in the pool
        const restarted = ChainGateway.connect(chainConfig(dc, 2));
        let looked!: () => void;
        const lookedInPool = new Promise<void>((r) => (looked = r));
        const pendingTransactionsTo = restarted.pendingTransactionsTo.bind(restarted);
        restarted.pendingTransactionsTo = async (to) => {
          const pool = await pendingTransactionsTo(to);
          looked();
          return pool;
        };
        const second = restarted.anchor(digest, "pack");
        const early = await Promise.race([lookedInPool.then(() => null), second.catch((e: unknown) => e)]);
        expect(early).toBeNull(); // before: chain_error, the send's simulation reverted AlreadyAnchored
        await rpc("evm_mine");
        const [a, b] = await Promise.all([first, second]);
        expect(b).toEqual(a);
        expect(await sent(), "one transaction sent in all").toBe(before + 1);
      } finally {
        await rpc("evm_setAutomine", [true]);
      }
    });
  },
);
