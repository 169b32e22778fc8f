/**
 * probe33 A-F5: with `receiptAnchoring: "immediate"`, a finalize's wait for its receipt's anchor and a
 * publish's for its commitment's end at the request's deadline (`revealBy`, `answerBy`), as the batched
 * waits do: while the anchor transaction is not mined (a node not mining; on Base an underpriced or
 * stuck transaction) the write, committed, is answered with the anchor pending (null), never held past
 * the request's limit (503 `request_timeout`, its retry 409). The send goes on and is recorded once mined.
 */
import { describe, expect, it } from "vitest";
import { cities, openOnChainClock, promptAgent, useDevChain } from "./helpers.js";

const devChain = useDevChain();

/** Sets the devchain's automine (false: transactions wait in the pool until a block is mined). */
async function automine(on: boolean): Promise<void> {
  await devChain().publicClient.request({ method: "evm_setAutomine" as never, params: [on] as never });
}

/**
 * Mines again `ms` from now (automine back on, one block): on the code before the fix the write waited
 * for this, so its time shows the wait was not bounded.
 * @returns settles once mined
 */
function mineIn(ms: number): Promise<void> {
  return new Promise<void>((r) => setTimeout(r, ms)).then(async () => {
    await automine(true);
    await devChain().mine(1);
  });
}

/** Polls `check` every 200 ms until it is true, at most `ms`. */
async function eventually(check: () => Promise<boolean>, ms = 20_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

describe("an immediate anchor not mined by the request's deadline (probe33 A-F5)", () => {
  it("publish and finalize answer by their deadline with the anchor pending; it is recorded once mined", async () => {
    const dc = devChain();
    const { platform } = await openOnChainClock(dc, 1);
    expect(platform.ctx.receiptAnchoring).toBe("immediate");
    try {
      const ds = await platform.createDataset(cities(4, "nomine"));
      await automine(false);
      let mined = mineIn(8_000);
      let t0 = Date.now();
      const published = await platform.real.publish(
        platform.op,
        ds.dataset_id,
        {
          title: "No mining",
          prompt_template: "What is the answer for {payload.city} #{payload.index}?",
          grader_type: "exact",
        },
        { answerBy: t0 + 2_000 },
      );
      expect(Date.now() - t0).toBeLessThan(6_000);
      expect(published).toMatchObject({ commitment_anchor: null, commitment_anchor_status: "pending" });
      const slug = published.slug;
      await mined;
      expect(
        await eventually(async () => (await platform.getBenchmark(slug)).commitment_anchor !== null),
      ).toBe(true);

      const s = await platform.startRun(slug, "alice");
      await platform.submit(
        s.run.id,
        s.tasks.map((t) => ({ ordinal: t.ordinal, answer_text: promptAgent(t.prompt) })),
      );
      await automine(false);
      mined = mineIn(8_000);
      t0 = Date.now();
      const f = await platform.finalize(s.run.id, { revealBy: t0 + 2_000 });
      expect(Date.now() - t0).toBeLessThan(6_000);
      expect(f).toMatchObject({
        status: "finalized",
        receipt_anchor: null,
        receipt_anchor_status: "pending",
        receipt_hash: null,
      });
      expect(f.receipt_anchor_error).toBeUndefined();
      await mined;
      const owner = await platform.ownerOfRun(s.run.id);
      expect(
        await eventually(
          async () => (await platform.real.getRun(owner, s.run.id)).receipt_anchor_status === "anchored",
        ),
      ).toBe(true);
    } finally {
      await automine(true);
      await platform.close();
    }
  }, 120_000);
});
