/**
 * probe36 C-F1: a process signing with another key than the bounty's awarder (a rotated platform key, a
 * colleague's, a second `serve`) anchored a confirmed award's pack: the registry keeps a digest's first
 * anchoring for good, so the pack could never be anchored by its awarder and failed the verifier's `full`
 * policy forever, while `award` answered success and the door served it. Now no path anchors a pack with
 * another key: `award` and the CLI's `evidence` refuse `award_not_allowed` naming the signer and the
 * awarder, the door answers `pack_pending` naming both (carrying the refusal), nothing is sent nor
 * stored; the awarder's key then mints the pack and anchors it as the awarder.
 */
import { describe, expect, it } from "vitest";
import type { Address, Hex } from "viem";
import { ChainGateway } from "../src/chain.js";
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

describe(
  "a confirmed award's pack is anchored only by the bounty's awarder (probe36 C-F1)",
  { timeout: 180_000 },
  () => {
    it("another key: award, evidence and the door refuse naming both addresses, nothing sent nor stored; the awarder's key then anchors it", async () => {
      const dc = devChain();
      const operator = 10;
      const awarder = dc.accounts[operator]!.address.toLowerCase();
      const stranger = dc.accounts[13]!.address.toLowerCase();
      const { now: chainNow, clock } = await chainClock(dc);
      const dir = tempDir("bb-pack-signer-");
      const first = await openAt({
        dir,
        clock: clock.now,
        chain: chainConfig(dc, operator),
        faults: crashOnce("awardBeforeMint"),
      });
      const { slug } = await publishLockAndRun(first, dc, {
        chainNow,
        clock,
        account: operator,
        tag: "pack-signer",
        title: "Pack signer",
      });
      // the award is confirmed on the chain, then the process dies before it mints the pack
      await expect(first.award(slug)).rejects.toThrow(/injected crash at awardBeforeMint/);
      await first.close();
      const nonce = () => dc.publicClient.getTransactionCount({ address: stranger as Address });
      const before = await nonce();

      // a process on the same store signing as another account
      const other = await openAt({ dir, clock: clock.now, chain: chainConfig(dc, 13) });
      const award = await other.real.award(other.op, slug).catch((x: unknown) => x);
      expect(award).toMatchObject({
        code: "award_not_allowed",
        details: { reason: "signer_not_awarder", signer: stranger, awarder, awarded: true },
      });
      expect((award as Error).message).toContain(stranger);
      expect((award as Error).message).toContain(awarder);
      const door = await other.real.awardEvidence(slug);
      expect(door).toMatchObject({ kind: "unavailable", reason: "pack_pending" });
      expect(door.kind === "unavailable" && door.message).toContain(stranger);
      expect(door.kind === "unavailable" && door.message).toContain(awarder);
      expect(door.kind === "unavailable" && door.refusal).toMatchObject({
        code: "award_not_allowed",
        details: { signer: stranger, awarder },
      });
      expect(await other.ctx.store.packs.get(slug)).toBeNull();
      await other.close();

      // the CLI's `evidence` with that key refuses likewise
      const saved = { ...process.env };
      process.env.BENCH_BOUNTY_PRIVATE_KEY = dc.accounts[13]!.privateKey;
      delete process.env.BENCH_BOUNTY_RPC_URL;
      const cli = await runCli("evidence", slug, "--store", dir, ...devChainArgs(dc)).finally(() => {
        process.env = saved;
      });
      expect(cli.code).toBe(1);
      expect(cli.out).toBe("");
      expect(cli.err).toContain("award_not_allowed");
      expect(cli.err).toContain(stranger);
      expect(cli.err).toContain(awarder);
      expect(await nonce()).toBe(before);

      // the awarder's key mints it on a door read, and the pack's anchoring is the awarder's
      const mine = await openAt({ dir, clock: clock.now, chain: chainConfig(dc, operator) });
      const served = await mine.real.awardEvidence(slug);
      expect(served.kind).toBe("pack");
      const packHash = (served as { pack_hash: Hex }).pack_hash;
      const gateway = ChainGateway.connect(chainConfig(dc, operator));
      const found = await gateway.findAnchor(packHash);
      expect(found?.anchorer.toLowerCase()).toBe(awarder);
      expect(await nonce()).toBe(before);
      await mine.close();
    });
  },
);
