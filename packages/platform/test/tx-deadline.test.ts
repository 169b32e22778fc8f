/**
 * probe21 A-F10: a write of a request that got its transaction after the request's deadline committed
 * (on SQLite, queued behind other writes for the store's one connection and their busy waits: the
 * request was answered `request_timeout`, then the write landed). `Store.tx` with `locksBy` now refuses
 * to begin past it: `server_busy`, nothing written, on both engines.
 */
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, openTemp, rejection } from "./helpers.js";

afterEach(cleanup);

const ADDRESS = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";

describe("a write's transaction is not begun past its request's deadline (probe21 A-F10)", () => {
  it("a transaction asked for past `locksBy` never runs: server_busy", async () => {
    const platform = await openTemp();
    let ran = false;
    const e = await rejection(
      platform.ctx.store.tx(
        async () => {
          ran = true;
        },
        { locksBy: Date.now() - 1 },
      ),
    );
    expect(e).toMatchObject({ code: "server_busy", details: { retry_after_seconds: 5 } });
    expect(ran).toBe(false);
    await platform.close();
  });

  it("a withdrawal address whose transaction waits past `answerBy` behind another: server_busy, never written", async () => {
    const platform = await openTemp();
    const p = await platform.principal("queued");
    let free!: () => void;
    const held = new Promise<void>((r) => (free = r));
    // another write of the process holds the transaction (SQLite: the one connection; PostgreSQL: the
    // account's agents) until after the writer's deadline
    const holder = platform.ctx.store.tx(async (t) => {
      await t.agents.lockAccountAgents(p.account_id);
      await held;
    });
    await new Promise((r) => setTimeout(r, 50));
    const answerBy = Date.now() + 200;
    const write = rejection(platform.real.setAccountWithdrawalAddress(p, ADDRESS, { answerBy }));
    await new Promise((r) => setTimeout(r, 500));
    free();
    await holder;
    expect(await write).toMatchObject({ code: "server_busy" });
    const agents = await platform.real.myAgents(p);
    expect(agents.map((a) => a.withdrawal_address)).toEqual(agents.map(() => null));
    // in time, the same write passes
    await platform.real.setAccountWithdrawalAddress(p, ADDRESS, { answerBy: Date.now() + 60_000 });
    expect((await platform.real.myAgents(p)).map((a) => a.withdrawal_address)).toContain(ADDRESS);
    await platform.close();
  });
});
