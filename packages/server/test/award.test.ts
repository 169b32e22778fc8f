/**
 * On the local Base devchain, over HTTP only: the author attaches the prize they locked with their own
 * key (a non-author is refused 403), the detail says "locked at" after its on-chain check, agents
 * compete, the operator awards (others 403; a second award gives the same answer), and the door
 * serves the same bytes forever with ETag and 304.
 */
import { startDevChain, type DevChain } from "@bench-bounty/devchain";
import { Platform } from "@bench-bounty/platform";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platformDomain, serveApp, type ListeningServer } from "../src/index.js";
import { call, citiesAnswer, citiesDataset, CITIES_PUBLISH, OPERATOR_KEY, register } from "./helpers.js";

let dc: DevChain;
let server: ListeningServer;
let platform: Platform;
let t = 0;
beforeAll(async () => {
  dc = await startDevChain();
  t = Number((await dc.publicClient.getBlock()).timestamp) * 1000;
  platform = await Platform.open({
    dir: mkdtempSync(join(tmpdir(), "bb-award-")),
    operatorKey: OPERATOR_KEY,
    clock: () => t,
    chain: {
      rpcUrl: dc.rpcUrl,
      chainId: dc.chainId,
      contracts: dc.contracts,
      privateKey: dc.accounts[0]!.privateKey,
    },
  });
  server = await serveApp({ domain: platformDomain(platform), port: 0 });
}, 240_000);
afterAll(async () => {
  await server?.close();
  await platform?.close();
  await dc?.stop();
});

describe("award over HTTP on the devchain", { timeout: 120_000 }, () => {
  it("attach (author only, checked on-chain), locked-at detail, compete, award (operator only), door forever", async () => {
    const u = server.url;
    const author = await register(u, "chain-author");
    const ds = await call(u, "POST", "/api/v1/datasets", {
      key: author.key,
      body: citiesDataset(8, "chain"),
    });
    const pub = await call(u, "POST", `/api/v1/datasets/${ds.json.dataset_id}/benchmark`, {
      key: author.key,
      body: CITIES_PUBLISH,
    });
    expect(pub.status).toBe(201);
    const slug = pub.json.slug as string;
    expect(pub.json.commitment.anchor).not.toBeNull();

    const pool = 10_000_000n;
    const authorWallet = dc.accounts[1]!;
    await dc.mintUsdc(authorWallet.address, pool);
    const closesAt = BigInt(Math.floor(t / 1000) + 3600);
    const { bountyId } = await platform.chain!.lockBounty({
      authorPrivateKey: authorWallet.privateKey,
      pool,
      testSetRoot: pub.json.commit_root,
      leafCount: pub.json.leaf_count,
      closesAt,
      awardDeadline: closesAt + 86_400n,
      thresholdBps: 5000,
      splitsBps: [10000],
    });
    const intruder = await register(u, "chain-intruder");
    const refused = await call(u, "POST", `/api/v1/benchmarks/${slug}/bounty`, {
      key: intruder.key,
      body: { bounty_id: String(bountyId) },
    });
    expect(refused.status).toBe(403);
    expect(refused.json.error.details.rule).toBe("benchmark_author_only");
    const wrongPool = await call(u, "POST", `/api/v1/benchmarks/${slug}/bounty`, {
      key: author.key,
      body: { bounty_id: String(bountyId), pool_base_units: "1" },
    });
    expect(wrongPool.status).toBe(409);
    const attached = await call(u, "POST", `/api/v1/benchmarks/${slug}/bounty`, {
      key: author.key,
      body: { bounty_id: String(bountyId), author: authorWallet.address, pool_base_units: String(pool) },
    });
    expect(attached.status).toBe(200);
    const detail = await call(u, "GET", `/api/v1/benchmarks/${slug}`);
    expect(detail.json.prize).toBe(`Prize: 10 USDC, locked at ${dc.contracts.benchmarkBounty.toLowerCase()}`);
    const list = await call(u, "GET", "/api/v1/benchmarks");
    expect(list.json.benchmarks.find((b: any) => b.slug === slug).prize).toBe("Prize: 10 USDC");

    const winner = await register(u, "chain-winner");
    expect(
      (
        await call(u, "PUT", "/api/v1/accounts/me/withdrawal-address", {
          key: winner.key,
          body: { withdrawal_address: dc.accounts[2]!.address },
        })
      ).status,
    ).toBe(200);
    const s = await call(u, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: winner.key });
    const answers = s.json.tasks.map((x: any) => ({
      ordinal: x.ordinal,
      answer_text: citiesAnswer(x.prompt),
    }));
    await call(u, "POST", `/api/v1/benchmarks/runs/${s.json.run.id}/submissions`, {
      key: winner.key,
      body: { answers },
    });
    t += 5_000;
    expect(
      (await call(u, "POST", `/api/v1/benchmarks/runs/${s.json.run.id}/finalize`, { key: winner.key }))
        .status,
    ).toBe(200);

    await dc.increaseTime(3700);
    t += 3_700_000;
    const early = await call(u, "GET", `/api/v1/benchmarks/${slug}/award-evidence`);
    expect(early.status).toBe(404);
    expect((await call(u, "POST", `/api/v1/benchmarks/${slug}/award`, { key: author.key })).status).toBe(403);
    const award = await call(u, "POST", `/api/v1/benchmarks/${slug}/award`, { key: OPERATOR_KEY });
    expect(award.status, award.text).toBe(200);
    const again = await call(u, "POST", `/api/v1/benchmarks/${slug}/award`, { key: OPERATOR_KEY });
    expect(again.json).toEqual(award.json);

    const door = await fetch(`${u}/api/v1/benchmarks/${slug}/award-evidence`);
    expect(door.status).toBe(200);
    const bytes = Buffer.from(await door.arrayBuffer());
    const etag = door.headers.get("etag")!;
    const pack = JSON.parse(bytes.toString("utf8"));
    expect(etag).toBe(`"${pack.pack_hash}"`);
    expect(pack.winners[0].withdrawal_address).toBe(dc.accounts[2]!.address.toLowerCase());
    const cached = await fetch(`${u}/api/v1/benchmarks/${slug}/award-evidence`, {
      headers: { "if-none-match": etag },
    });
    expect(cached.status).toBe(304);
    const later = Buffer.from(
      await (await fetch(`${u}/api/v1/benchmarks/${slug}/award-evidence`)).arrayBuffer(),
    );
    expect(later.equals(bytes)).toBe(true);
    const receipt = await call(u, "GET", `/api/v1/benchmarks/${slug}/runs/${s.json.run.id}/receipt`);
    expect(receipt.status).toBe(200);
  });
});
