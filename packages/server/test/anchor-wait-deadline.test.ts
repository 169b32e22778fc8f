/**
 * probe33 A-F5: with `--receipt-anchoring immediate` and an anchor transaction the node does not mine
 * (automine off: on Base an underpriced or stuck transaction), a publish and a finalize waited for it
 * past the request's limit and were answered 503 `request_timeout` though committed (their retry 409).
 * Their wait now ends at half of the limit (`revealBy`), as for a batch: 201 / 200 with the anchor
 * pending (null); the transaction is recorded once mined.
 */
import { startDevChain, type DevChain } from "@bench-bounty/devchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  call,
  citiesAnswer,
  CITIES_PUBLISH,
  citiesDataset,
  register,
  startLive,
  type Live,
  devChainConfig,
} from "./helpers.js";

let dc: DevChain;
let live: Live;
const LIMIT_MS = 8_000;

const automine = (on: boolean) =>
  dc.publicClient.request({ method: "evm_setAutomine" as never, params: [on] as never });

/** Mines again `ms` from now (automine on, one block): before the fix the write waited for it. */
function mineIn(ms: number): Promise<void> {
  return new Promise<void>((r) => setTimeout(r, ms)).then(async () => {
    await automine(true);
    await dc.mine(1);
  });
}

/** Polls `check` every 200 ms until true, at most 20 s. */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  const end = Date.now() + 20_000;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

beforeAll(async () => {
  dc = await startDevChain();
  live = await startLive({
    limits: { handlerTimeoutMs: LIMIT_MS },
    platform: {
      receiptAnchoring: "immediate",
      chain: devChainConfig(dc, 0),
    },
  });
}, 240_000);
afterAll(async () => {
  await automine(true).catch(() => undefined);
  await live?.stop();
  await dc?.stop();
});

describe("an immediate anchor the node does not mine (probe33 A-F5)", { timeout: 120_000 }, () => {
  it("publish 201 and finalize 200 by half the request's limit, anchors pending; recorded once mined", async () => {
    const u = live.url;
    const author = await register(u, "nomine-author");
    const ds = await call(u, "POST", "/api/v1/datasets", { key: author.key, body: citiesDataset(4, "nm") });
    expect(ds.status, ds.text).toBe(201);
    await automine(false);
    let mined = mineIn(LIMIT_MS + 2_000);
    let t0 = Date.now();
    const pub = await call(u, "POST", `/api/v1/datasets/${ds.json.dataset_id}/benchmark`, {
      key: author.key,
      body: CITIES_PUBLISH,
    });
    expect(pub.status, pub.text).toBe(201);
    expect(Date.now() - t0).toBeLessThan(LIMIT_MS);
    expect(pub.json.commitment).toMatchObject({ anchor: null, status: "pending" });
    const slug = pub.json.slug as string;
    await mined;
    expect(
      await eventually(
        async () =>
          (await call(u, "GET", `/api/v1/benchmarks/${slug}`)).json.commitment.status === "anchored",
      ),
    ).toBe(true);

    const agent = await register(u, "nomine-agent", { withdrawal_address: dc.accounts[3]!.address });
    const s = await call(u, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: agent.key, body: {} });
    expect(s.status, s.text).toBe(201);
    const runId = s.json.run.id as string;
    const sub = await call(u, "POST", `/api/v1/benchmarks/runs/${runId}/submissions`, {
      key: agent.key,
      body: {
        answers: s.json.tasks.map((t: { ordinal: number; prompt: string }) => ({
          ordinal: t.ordinal,
          answer_text: citiesAnswer(t.prompt),
        })),
      },
    });
    expect(sub.status, sub.text).toBe(200);
    await automine(false);
    mined = mineIn(LIMIT_MS + 2_000);
    t0 = Date.now();
    const fin = await call(u, "POST", `/api/v1/benchmarks/runs/${runId}/finalize`, { key: agent.key });
    expect(fin.status, fin.text).toBe(200);
    expect(Date.now() - t0).toBeLessThan(LIMIT_MS);
    expect(fin.json).toMatchObject({
      status: "finalized",
      receipt_anchor: null,
      receipt_anchor_status: "pending",
    });
    await mined;
    expect(
      await eventually(
        async () =>
          (await call(u, "GET", `/api/v1/benchmarks/runs/${runId}`, { key: agent.key })).json
            .receipt_anchor_status === "anchored",
      ),
    ).toBe(true);
  });
});
