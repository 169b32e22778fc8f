/**
 * probe38 C-F1 over HTTP on the devchain: `POST /benchmarks/:slug/bounty` refuses a bounty whose award
 * window is under the service's minimum (422 `award_window_too_short`, nothing attached); the operator
 * attaching a bounty to another author's benchmark names its on-chain `author` (missing: 422 naming
 * `author`; another address: 409 `bounty_mismatch`); the detail (REST and MCP) shows `prize_award_deadline`.
 */
import { describe, expect, it } from "vitest";
import {
  call,
  citiesDataset,
  CITIES_PUBLISH,
  OPERATOR_KEY,
  postToolCall,
  register,
  useChainServer,
} from "./helpers.js";

const live = useChainServer("award-window");

/** An author publishes a cities benchmark; Hardhat account `wallet` locks a bounty on its root on-chain. */
async function lockedBenchmark(tag: string, wallet: number, window: bigint) {
  const u = live.server.url;
  const author = await register(u, `${tag}-author`);
  const ds = await call(u, "POST", "/api/v1/datasets", { key: author.key, body: citiesDataset(4, tag) });
  const pub = await call(u, "POST", `/api/v1/datasets/${ds.json.dataset_id}/benchmark`, {
    key: author.key,
    body: CITIES_PUBLISH,
  });
  expect(pub.status, pub.text).toBe(201);
  const a = live.dc.accounts[wallet]!;
  await live.dc.mintUsdc(a.address, 1_000_000n);
  const closesAt = (await live.dc.publicClient.getBlock()).timestamp + 3600n;
  const { bountyId } = await live.platform.chain!.lockBounty({
    authorPrivateKey: a.privateKey,
    pool: 1_000_000n,
    testSetRoot: pub.json.commit_root,
    leafCount: pub.json.leaf_count,
    closesAt,
    awardDeadline: closesAt + window,
    thresholdBps: 0,
    splitsBps: [10000],
  });
  return { slug: pub.json.slug as string, author, bountyId: String(bountyId), wallet: a.address, closesAt };
}

describe(
  "POST /benchmarks/:slug/bounty: an awardable window, the operator names the author",
  { timeout: 120_000 },
  () => {
    it("refuses a one-second award window 422 award_window_too_short, nothing attached", async () => {
      const b = await lockedBenchmark("win1", 5, 1n);
      const r = await call(live.server.url, "POST", `/api/v1/benchmarks/${b.slug}/bounty`, {
        key: b.author.key,
        body: { bounty_id: b.bountyId },
      });
      expect(r.status, r.text).toBe(422);
      expect(r.json.error.code).toBe("award_window_too_short");
      expect(r.json.error.details).toEqual({
        award_window_seconds: 1,
        minimum_seconds: 3600,
        closes_at: Number(b.closesAt),
        award_deadline: Number(b.closesAt) + 1,
      });
      const d = await call(live.server.url, "GET", `/api/v1/benchmarks/${b.slug}`);
      expect(d.json).toMatchObject({ prize: "--", prize_award_deadline: null });
    });

    it("the operator without author is 422 naming author, with another author 409, with the right one 200; the detail shows prize_award_deadline", async () => {
      const b = await lockedBenchmark("winop", 6, 86_400n);
      const post = (body: object) =>
        call(live.server.url, "POST", `/api/v1/benchmarks/${b.slug}/bounty`, { key: OPERATOR_KEY, body });
      const missing = await post({ bounty_id: b.bountyId });
      expect(missing.status, missing.text).toBe(422);
      expect(missing.json.error).toMatchObject({
        code: "invalid_option",
        details: { field: "author", rule: "author_required" },
      });
      const wrong = await post({ bounty_id: b.bountyId, author: live.dc.accounts[7]!.address });
      expect(wrong.status, wrong.text).toBe(409);
      expect(wrong.json.error).toMatchObject({ code: "bounty_mismatch", details: { field: "author" } });
      expect((await call(live.server.url, "GET", `/api/v1/benchmarks/${b.slug}`)).json.prize).toBe("--");
      const ok = await post({ bounty_id: b.bountyId, author: b.wallet });
      expect(ok.status, ok.text).toBe(200);
      const deadline = Number(b.closesAt) + 86_400;
      const d = await call(live.server.url, "GET", `/api/v1/benchmarks/${b.slug}`);
      expect(d.json).toMatchObject({ prize_closes_at: Number(b.closesAt), prize_award_deadline: deadline });
      const list = await call(live.server.url, "GET", "/api/v1/benchmarks");
      expect(list.json.benchmarks.find((x: { slug: string }) => x.slug === b.slug)).toMatchObject({
        prize_award_deadline: deadline,
      });
      const mcp = await postToolCall(live.server.url, "benchmark_detail", { slug: b.slug });
      expect(mcp.body.result.structuredContent, JSON.stringify(mcp.body)).toMatchObject({
        prize_award_deadline: deadline,
      });
    });
  },
);
