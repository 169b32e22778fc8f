/**
 * An account's publishes are bounded per period (each anchors its commitment: one transaction the
 * operator pays; issue 13 re-probe). Over REST the refusal is 429 `publish_quota_exceeded` with
 * `Retry-After` and `details.limit` naming the limit. All accounts together have no budget unless the
 * operator sets one (probe8 P2: 5 free accounts from one address filled the former default of 100 and
 * locked every author out for 24 h). The operator's commitment transactions are bounded by batching
 * instead: under `anchorBatching` (as `serve` runs) N publishes cost ceil(N / maxBatch) transactions
 * at the flush, the answer says `pending`, the detail shows the anchor once mined.
 */
import { startDevChain, type DevChain } from "@bench-bounty/devchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  call,
  CITIES_PUBLISH,
  citiesDataset,
  register,
  startLive,
  useLive,
  type Exchange,
  type Live,
  devChainConfig,
} from "./helpers.js";

const live = useLive({ platform: { publishQuota: { count: 2, periodMs: 3_600_000 } } });

/** Uploads a dataset of 4 cities tagged `tag` as `key` (201 asserted) and publishes it: the publish's exchange. */
async function publishOver(base: string, key: string, tag: string) {
  const ds = await call(base, "POST", "/api/v1/datasets", { key, body: citiesDataset(4, tag) });
  expect(ds.status, ds.text).toBe(201);
  return call(base, "POST", `/api/v1/datasets/${ds.json.dataset_id}/benchmark`, {
    key,
    body: CITIES_PUBLISH,
  });
}

/** Asserts a 429 `publish_quota_exceeded` with `Retry-After` and these `details`. */
function expectQuota429(res: Exchange, details: Record<string, unknown>): void {
  expect(res.status, res.text).toBe(429);
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(res.json.error).toMatchObject({ code: "publish_quota_exceeded", details });
}

describe("publish quota over REST", () => {
  it("the third publish of an account within the period is 429 naming the limit, with Retry-After", async () => {
    const author = await register(live.url, "quota-rest");
    const publish = (i: number) => publishOver(live.url, author.key, `quota-rest-${i}`);
    expect((await publish(0)).status).toBe(201);
    expect((await publish(1)).status).toBe(201);
    expectQuota429(await publish(2), { limit: "publishes_per_account", count: 2, period_seconds: 3600 });
    // another account is not affected
    const other = await register(live.url, "quota-rest-other");
    expect((await publishOver(live.url, other.key, "q-o")).status).toBe(201);
  });
});

describe("publish quota for all accounts together over REST", () => {
  const all = useLive({ platform: { publishQuota: { count: 2, periodMs: 3_600_000, allAccountsCount: 3 } } });

  it("past allAccountsCount publishes by all accounts in the period, any account's is 429 naming publishes_all_accounts", async () => {
    const publish = (key: string, i: string) => publishOver(all.url, key, `qa-${i}`);
    const a = await register(all.url, "quota-all-a");
    const b = await register(all.url, "quota-all-b");
    const c = await register(all.url, "quota-all-c");
    expect((await publish(a.key, "a0")).status).toBe(201);
    expect((await publish(a.key, "a1")).status).toBe(201);
    expect((await publish(b.key, "b0")).status).toBe(201);
    for (const [key, i] of [
      [b.key, "b1"],
      [c.key, "c0"],
    ] as const)
      expectQuota429(await publish(key, i), {
        limit: "publishes_all_accounts",
        count: 3,
        period_seconds: 3600,
      });
  });
});

describe("no budget for all accounts together by default", () => {
  const free = useLive();

  it("after 100 publishes by 5 accounts a new author still publishes (201); the 21st of an account is 429", async () => {
    const publish = (key: string, i: string) => publishOver(free.url, key, `qd-${i}`);
    const keys: string[] = [];
    for (let a = 0; a < 5; a++) keys.push((await register(free.url, `quota-free-${a}`)).key);
    for (const [a, key] of keys.entries())
      for (let i = 0; i < 20; i++) expect((await publish(key, `${a}-${i}`)).status).toBe(201);
    const late = await register(free.url, "quota-free-late");
    const ok = await publish(late.key, "late");
    expect(ok.status).toBe(201);
    expectQuota429(await publish(keys[0]!, "0-20"), { limit: "publishes_per_account", count: 20 });
  }, 180_000);
});

describe("commitment anchors batched over REST", () => {
  let dc: DevChain;
  let live: Live;
  beforeAll(async () => {
    dc = await startDevChain();
    live = await startLive({
      platform: {
        chain: devChainConfig(dc, 5),
        anchorBatching: { flushMs: 3_600_000, maxBatch: 4, revealWaitMs: 0 },
      },
    });
  }, 240_000);
  afterAll(async () => {
    await live?.stop();
    await dc?.stop();
  });

  it("6 publishes from 3 accounts: 201 pending, no operator transaction; one flush: ceil(6/4) transactions, the detail's anchor", async () => {
    const nonce = () => dc.publicClient.getTransactionCount({ address: dc.accounts[5]!.address });
    const before = await nonce();
    const pubs: { slug: string; commit_root: string }[] = [];
    for (const name of ["batch-a", "batch-b", "batch-c"]) {
      const { key } = await register(live.url, name);
      for (let i = 0; i < 2; i++) {
        const pub = await publishOver(live.url, key, `cb-${name}-${i}`);
        expect(pub.status, pub.text).toBe(201);
        expect(pub.json).toMatchObject({ commitment_anchor_status: "pending", commitment_anchor: null });
        pubs.push(pub.json);
      }
    }
    expect(await nonce()).toBe(before);
    for (const { slug } of pubs) {
      const d = await call(live.url, "GET", `/api/v1/benchmarks/${slug}`);
      expect(d.json.commitment.anchor).toBeNull();
      // not even a prefix of a pending root (probe15 A-F3)
      expect(d.json.commitment.commit_root).toBeNull();
      expect(d.json.version).toBeUndefined();
      const listed = await call(live.url, "GET", `/api/v1/benchmarks`);
      expect(listed.json.benchmarks.find((x: { slug: string }) => x.slug === slug).version).toBeUndefined();
    }
    expect(await live.platform.flushAnchors()).toBe(6);
    expect(await nonce()).toBe(before + 2);
    for (const { slug, commit_root } of pubs) {
      expect(commit_root).toBeNull(); // pending at the answer: shown once anchored (probe14 D3-F8)
      const root = (await live.platform.getBenchmark(slug)).commit_root;
      const onChain = (await live.platform.chain!.findAnchor(root))?.evidence;
      expect(onChain).toBeDefined();
      const d = await call(live.url, "GET", `/api/v1/benchmarks/${slug}`);
      expect(d.json.commitment.anchor).toEqual(onChain);
      const c = await call(live.url, "GET", `/api/v1/benchmarks/${slug}/commitment`);
      expect(c.json.commitment_anchor).toEqual(onChain);
      expect(c.json.commit_root).toBe(root);
      expect(d.json.version).toBe(root.slice(0, 10));
    }
  }, 180_000);
});
