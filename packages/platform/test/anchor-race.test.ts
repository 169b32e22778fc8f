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
