/** probe10 R4: the query gate bounds running, waiting and per-client work, and answers at once beyond. */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { QUERY_LIMITS } from "../../lib/limits";
import { GateRefused, QUERY_GATE, WorkGate, clientKey, gated } from "../../lib/workGate";

/** A piece of work that ends when `finish()` is called. */
function pending() {
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  let started = false;
  return {
    work: async () => {
      started = true;
      await done;
      return "ok";
    },
    finish,
    started: () => started,
  };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

async function refusal(p: Promise<unknown>): Promise<GateRefused> {
  try {
    await p;
  } catch (e) {
    if (e instanceof GateRefused) return e;
    throw e;
  }
  throw new Error("not refused");
}

describe("WorkGate", () => {
  it("runs at most maxActive at once, queues up to maxQueued in order, refuses beyond (503)", async () => {
    const gate = new WorkGate(2, 2, 10);
    const jobs = Array.from({ length: 4 }, () => pending());
    const runs = jobs.map((j, i) => gate.run(`c${i}`, j.work));
    await tick();
    expect(jobs.map((j) => j.started())).toEqual([true, true, false, false]);
    expect(gate.load()).toEqual({ active: 2, queued: 2 });
    const e = await refusal(gate.run("c9", async () => "never"));
    expect([e.code, e.limit, e.max, e.status]).toEqual(["server_busy", "maxQueuedQueries", 2, 503]);
    expect(e.message).toContain("2 queries running and 2 waiting");
    jobs[1]!.finish();
    await tick();
    expect(jobs.map((j) => j.started())).toEqual([true, true, true, false]); // first in, first served
    for (const j of jobs) j.finish();
    expect(await Promise.all(runs)).toEqual(["ok", "ok", "ok", "ok"]);
    expect(gate.load()).toEqual({ active: 0, queued: 0 });
  });

  it("refuses a client's request over maxPerClient (429) while others still get in", async () => {
    const gate = new WorkGate(1, 10, 2);
    const a = [pending(), pending()];
    const runs = a.map((j) => gate.run("10.0.0.1", j.work));
    const e = await refusal(gate.run("10.0.0.1", async () => "never"));
    expect([e.code, e.limit, e.max, e.status]).toEqual(["too_many_requests", "maxQueriesPerClient", 2, 429]);
    const other = pending();
    const otherRun = gate.run("10.0.0.2", other.work); // queued, not refused
    a[0]!.finish();
    await runs[0];
    // a slot of 10.0.0.1 is free again
    const again = pending();
    const againRun = gate.run("10.0.0.1", again.work);
    for (const j of [...a, other, again]) j.finish();
    await Promise.all([...runs, otherRun, againRun]);
    expect(gate.load()).toEqual({ active: 0, queued: 0 });
  });

  it("frees the slot when the work throws", async () => {
    const gate = new WorkGate(1, 0, 1);
    await expect(gate.run("a", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(gate.load()).toEqual({ active: 0, queued: 0 });
    expect(await gate.run("a", async () => 1)).toBe(1);
  });

  it("uses the limits of QUERY_LIMITS.load", () => {
    expect([QUERY_GATE.maxActive, QUERY_GATE.maxQueued, QUERY_GATE.maxPerClient]).toEqual([
      QUERY_LIMITS.load.maxActiveQueries,
      QUERY_LIMITS.load.maxQueuedQueries,
      QUERY_LIMITS.load.maxQueriesPerClient,
    ]);
  });
});

describe("clientKey", () => {
  it.each([
    ["127.0.0.1", "127.0.0.1"],
    ["::ffff:10.1.2.3", "10.1.2.3"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:db8:1:2::9", "2001:db8:1:2::/64"],
    ["2001:0db8::1", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    [undefined, "unknown"],
  ])("%s -> %s", (address, key) => {
    expect(clientKey(address)).toBe(key);
  });
});

describe("gated", () => {
  it("answers the refusal with the endpoint's body, its status and Retry-After: 1", async () => {
    const gate = new WorkGate(1, 0, 5);
    const hold = pending();
    const app = new Hono();
    app.get("/q", (c) =>
      gated(
        c,
        gate,
        async () => {
          await hold.work();
          return c.json({ ok: true });
        },
        (e) => c.json({ error: { code: e.code, limit: e.limit, max: e.max, message: e.message } }, e.status),
      ),
    );
    const first = app.request("/q");
    await tick();
    const busy = await app.request("/q");
    expect(busy.status).toBe(503);
    expect(busy.headers.get("retry-after")).toBe("1");
    expect(await busy.json()).toMatchObject({
      error: { code: "server_busy", limit: "maxQueuedQueries", max: 0 },
    });
    hold.finish();
    expect((await first).status).toBe(200);
  });
});
