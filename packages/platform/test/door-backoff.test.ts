/**
 * probe38 C-F3: anonymous reads of the evidence door must not each pay for the chain work of an award
 * they cannot finish. A confirmed award whose pack cannot be anchored (the platform account without ETH)
 * is minted once per `DOOR_MINT_BACKOFF_MS` per benchmark (one mint in flight, shared), answered
 * `pack_pending` with `details.retry_after_seconds` meanwhile, and served once the cause is gone and the
 * window passed; a sent award not mined yet is read from the chain once per `BOUNTY_READ_TTL_MS` per
 * benchmark, whatever the number of readers.
 */
import type { DevChain } from "@bench-bounty/devchain";
import { startLossyRpcProxy } from "@bench-bounty/devchain/stubs";
import { describe, expect, it } from "vitest";
import type { FaultHooks } from "../src/context.js";
import { DOOR_MINT_BACKOFF_MS, DOOR_RETRY_SECONDS, type AwardEvidenceResult } from "../src/award/door.js";
import { BOUNTY_READ_TTL_MS } from "../src/bounty-read.js";
import {
  chainClock,
  chainConfig,
  crashOnce,
  freshStoreLocation,
  openAt,
  publishLockAndRun,
  useDevChain,
} from "./helpers.js";

const devChain = useDevChain();

const rpc = (dc: DevChain, method: string, params: unknown[] = []) =>
  dc.publicClient.request({ method: method as never, params: params as never });

/** A benchmark ready to award on a fresh store, its platform account `dc.accounts[account]`. */
async function ready(dc: DevChain, account: number, tag: string, faults: FaultHooks, rpcUrl?: string) {
  const loc = await freshStoreLocation();
  const { now, clock } = await chainClock(dc);
  const chain = { ...chainConfig(dc, account), awardWaitMs: 3_000, ...(rpcUrl ? { rpcUrl } : {}) };
  const platform = await openAt({ ...loc, chain, clock: () => clock.now(), faults });
  const r = await publishLockAndRun(platform, dc, {
    chainNow: now,
    clock,
    account,
    tag,
    title: `Door ${tag}`,
  });
  return { ...r, platform, clock, loc, chain };
}

/** The `retry_after_seconds` of a door answer (undefined when it has none). */
function retryOf(a: AwardEvidenceResult): unknown {
  return a.kind === "unavailable" ? a.details?.retry_after_seconds : undefined;
}

describe("the evidence door does not pay a mint per anonymous read (probe38 C-F3)", () => {
  it("a confirmed award whose pack's anchor cannot be paid: one mint per back-off window, shared by concurrent readers, pack_pending with retry_after_seconds from memory; served after the window once ETH is back", async () => {
    const dc = devChain();
    const r = await ready(dc, 15, "door-backoff", crashOnce("awardBeforeMint"));
    await expect(r.platform.award(r.slug)).rejects.toThrow(/injected crash at awardBeforeMint/);
    await r.platform.close();
    const account = dc.accounts[15]!.address;
    const setBalance = (wei: bigint) => rpc(dc, "hardhat_setBalance", [account, `0x${wei.toString(16)}`]);
    let mints = 0;
    const lines: string[] = [];
    await setBalance(0n);
    try {
      const h = await openAt({
        ...r.loc,
        chain: { ...r.chain, log: (l) => lines.push(l) },
        clock: () => r.clock.now(),
        faults: { packBeforeAnchor: () => void mints++ },
      });
      try {
        // ten concurrent anonymous reads, then ten more one after another
        const burst = await Promise.all(Array.from({ length: 10 }, () => h.real.awardEvidence(r.slug)));
        const after: AwardEvidenceResult[] = [];
        for (let i = 0; i < 10; i++) after.push(await h.real.awardEvidence(r.slug));
        expect(mints).toBe(1);
        for (const a of [...burst, ...after]) {
          expect(a).toMatchObject({ kind: "unavailable", reason: "pack_pending" });
          expect((a as { message: string }).message).not.toMatch(/ETH|0x/i);
          const retry = retryOf(a);
          expect(Number.isSafeInteger(retry) && (retry as number) >= 1).toBe(true);
          expect(retry as number).toBeLessThanOrEqual(DOOR_MINT_BACKOFF_MS / 1000);
        }
        expect(mints).toBe(1);
        expect(lines.filter((l) => /holds no ETH/i.test(l))).toHaveLength(1);
        // the seconds left shrink with the platform's clock
        r.clock.advance(DOOR_MINT_BACKOFF_MS - 3_000);
        expect(retryOf(await h.real.awardEvidence(r.slug))).toBe(3);
        // ETH is back, but the window has not passed: still nothing minted
        await setBalance(10n ** 22n);
        expect(await h.real.awardEvidence(r.slug)).toMatchObject({ reason: "pack_pending" });
        expect(mints).toBe(1);
        // past the window the next read mints it once, and it is served
        r.clock.advance(3_000);
        expect((await h.real.awardEvidence(r.slug)).kind).toBe("pack");
        expect(mints).toBe(2);
        expect((await h.real.awardEvidence(r.slug)).kind).toBe("pack");
        expect(mints).toBe(2);
      } finally {
        await h.close();
      }
    } finally {
      await setBalance(10n ** 22n);
    }
  });

  it("a confirmed award whose pack's anchor is sent but not mined: its pack_pending answers the reads of the next retry_after_seconds, no mint each; served once mined", async () => {
    const dc = devChain();
    const r = await ready(dc, 13, "door-anchor-pending", crashOnce("awardBeforeMint"));
    await expect(r.platform.award(r.slug)).rejects.toThrow(/injected crash at awardBeforeMint/);
    await r.platform.close();
    let mints = 0;
    await rpc(dc, "evm_setAutomine", [false]);
    try {
      const h = await openAt({
        ...r.loc,
        chain: r.chain,
        clock: () => r.clock.now(),
        faults: { packBeforeAnchor: () => void mints++ },
      });
      try {
        const first = await h.real.awardEvidence(r.slug);
        expect(first).toMatchObject({ kind: "unavailable", reason: "pack_pending" });
        expect((first as { message: string }).message).toMatch(/the award is confirmed/);
        expect(mints).toBe(1);
        for (let i = 0; i < 5; i++) {
          const a = await h.real.awardEvidence(r.slug);
          expect(a).toMatchObject({ kind: "unavailable", reason: "pack_pending" });
          expect(retryOf(a) as number).toBeGreaterThanOrEqual(1);
        }
        expect(mints).toBe(1);
        // the anchor mined and the window passed: the next read mints it once more and serves it
        await rpc(dc, "evm_mine");
        r.clock.advance(DOOR_RETRY_SECONDS * 1000 * 3);
        expect((await h.real.awardEvidence(r.slug)).kind).toBe("pack");
        expect(mints).toBe(2);
      } finally {
        await h.close();
      }
    } finally {
      await rpc(dc, "evm_setAutomine", [true]);
    }
  });

  it("a sent award not mined yet: one shared chain read per benchmark per BOUNTY_READ_TTL_MS, whatever the number of anonymous readers", async () => {
    const dc = devChain();
    const proxy = await startLossyRpcProxy(dc.rpcUrl);
    let requests = 0;
    proxy.rules.before = () => {
      requests++;
      return Promise.resolve();
    };
    try {
      const r = await ready(dc, 14, "door-pending", crashOnce("awardAfterSend"), proxy.url);
      await rpc(dc, "evm_setAutomine", [false]);
      try {
        await expect(r.platform.award(r.slug)).rejects.toThrow(/injected crash at awardAfterSend/);
        await r.platform.close();
        const h = await openAt({ ...r.loc, chain: r.chain, clock: () => r.clock.now() });
        try {
          expect((await h.ctx.store.awards.get(r.slug))!.status).toBe("sent");
          const start = requests;
          const first = await h.real.awardEvidence(r.slug);
          expect(first).toMatchObject({ kind: "unavailable", reason: "award_pending" });
          const one = requests - start; // the calls of one read
          const after = requests;
          const reads = await Promise.all(Array.from({ length: 10 }, () => h.real.awardEvidence(r.slug)));
          for (let i = 0; i < 10; i++) reads.push(await h.real.awardEvidence(r.slug));
          for (const a of reads) expect(a).toEqual(first);
          expect(requests).toBe(after); // answered from the shared read: no RPC call
          // past the TTL the chain is read again, once
          r.clock.advance(BOUNTY_READ_TTL_MS);
          const before = requests;
          await Promise.all(Array.from({ length: 5 }, () => h.real.awardEvidence(r.slug)));
          expect(requests - before).toBeGreaterThan(0);
          expect(requests - before).toBeLessThanOrEqual(one);
        } finally {
          await h.close();
        }
      } finally {
        await rpc(dc, "evm_setAutomine", [true]);
      }
    } finally {
      await proxy.close();
    }
  });
});
