/**
 * probe28 C-F10: the pack's hash is known once the award is frozen, and its anchor waits in the pool like
 * any transaction: a stranger who anchored it first with another kind (a front-run) left the award paid and
 * its evidence pack unservable for good (409 `anchor_squatted` on every read). The pack is now minted with
 * `pack_anchor` null when its hash was squatted (SPEC 8 allows it), served by the door, and verified: the
 * verifier reports `pack_anchor` unverified naming the squat, and the `onchain` policy is met.
 */
import { ANCHOR_KINDS, anchorRegistryAbi } from "@bench-bounty/contracts";
import { verifyPack } from "@bench-bounty/verifier";
import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import type { ChainConfig } from "../src/chain.js";
import {
  bountyCredit,
  chainClock,
  chainConfig,
  freshStoreLocation,
  openAt,
  publishLockAndRun,
  useDevChain,
} from "./helpers.js";

const devChain = useDevChain();

describe("a front-run of the pack's anchor (probe28 C-F10)", () => {
  it("the award is recorded, its pack served with pack_anchor null, and it verifies under the onchain policy", async () => {
    const dc = devChain();
    const { now: chainNow, clock } = await chainClock(dc);
    const where = await freshStoreLocation();
    const lines: string[] = [];
    const chain: ChainConfig = { ...chainConfig(dc, 8), log: (l) => lines.push(l) };
    let squatted: Hex | null = null;
    const platform = await openAt({
      ...where,
      clock: clock.now,
      chain,
      faults: {
        // a stranger (account 19) anchors the pack's hash first, with kind commitment
        packBeforeAnchor: async (_slug, hash) => {
          const tx = await dc.wallet(19).writeContract({
            address: dc.contracts.anchorRegistry,
            abi: anchorRegistryAbi,
            functionName: "anchor",
            args: [hash as Hex, ANCHOR_KINDS.commitment],
          });
          await dc.publicClient.waitForTransactionReceipt({ hash: tx });
          squatted = hash as Hex;
        },
      },
    });
    try {
      const r = await publishLockAndRun(platform, dc, {
        chainNow,
        clock,
        account: 8,
        tag: "pack-squat",
        title: "Pack squat",
      });
      const done = await platform.award(r.slug);
      expect(squatted).not.toBeNull();
      expect(await bountyCredit(dc, r.bountyId, r.winner)).toBe(4_000_000n);
      const door = await platform.awardEvidence(r.slug);
      expect(door.kind).toBe("pack");
      const bytes = (door as { bytes: Uint8Array }).bytes;
      const pack = JSON.parse(new TextDecoder().decode(bytes)) as { pack_hash: string; pack_anchor: unknown };
      expect(pack.pack_hash).toBe(squatted);
      expect(pack.pack_anchor).toBeNull();
      expect(done.award_tx).toMatch(/^0x/);
      expect((await platform.ctx.store.awards.get(r.slug))!.status).toBe("packed");
      expect(lines.some((l) => l.includes("the pack is served with pack_anchor null"))).toBe(true);
      const report = await verifyPack({ source: bytes, rpcUrl: dc.rpcUrl, policy: "onchain" });
      expect(report.facts.pack_anchor.state).toBe("unverified");
      expect(report.facts.pack_anchor.reasons.join(" ")).toMatch(
        /anchored first with another kind \(a squat\)/,
      );
      expect(Object.entries(report.facts).filter(([, f]) => f.state === "failed")).toEqual([]);
      expect(report.policy_met).toBe(true);
    } finally {
      await platform.close();
    }
  });
});
