/** Phase 5: move the chain clock past `closesAt`. */
import { chainNow } from "../chain-tools.js";
import { need, type DemoPhase } from "../context.js";

/** close the contest (move chain time past closesAt). */
export const closePhase: DemoPhase = {
  name: "close the contest (move chain time past closesAt)",
  async run(ctx, p) {
    const c = need(ctx.chain, "the chain");
    const closesAt = need(ctx.closesAt, "closesAt");
    const now = await chainNow(c);
    const jump = closesAt - now + 1n;
    if (jump > 0n) await c.increaseTime(jump);
    const after = await chainNow(c);
    p.note(
      `chain time ${new Date(Number(now) * 1000).toISOString()} -> ${new Date(Number(after) * 1000).toISOString()} (closesAt ${new Date(Number(closesAt) * 1000).toISOString()})`,
    );
    if (after < closesAt) throw new Error(`chain time ${after} is still before closesAt ${closesAt}`);
    p.summary(`moved ${jump > 0n ? jump : 0n} s forward; the contest is closed`);
  },
};
