/**
 * probe36 A-F4: a `serve` without a chain on a store a `serve --rpc-url` uses judged a bounty's close by
 * its wall clock alone: after the on-chain close it took a run and its answers (gold derived from the
 * per-task credits the chain process already served), and the award paid that run first. It cannot read
 * the chain's clock, so for a bounty open by its clock it refuses start, submissions and finalize 503
 * `no_chain` (nothing stored), and its detail names the service's awarder and the address rule.
 */
import { startDevChain, type DevChain } from "@bench-bounty/devchain";
import { Platform } from "@bench-bounty/platform";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platformDomain, serveApp, type ListeningServer } from "../src/index.js";
import {
  call,
  citiesAnswer,
  citiesDataset,
  CITIES_PUBLISH,
  OPERATOR_KEY,
  devChainConfig,
} from "./helpers.js";

let dc: DevChain;
let withChain: Platform;
let chainless: Platform;
let server: ListeningServer;
let t = 0;
beforeAll(async () => {
  dc = await startDevChain();
  t = Number((await dc.publicClient.getBlock()).timestamp) * 1000;
  const dir = mkdtempSync(join(tmpdir(), "bb-chainless-close-"));
  withChain = await Platform.open({
    dir,
    operatorKey: OPERATOR_KEY,
    clock: () => t,
    recordServiceAwarder: true, // plays the service's serve
    chain: devChainConfig(dc, 0),
  });
  chainless = await Platform.open({ dir, operatorKey: OPERATOR_KEY, clock: () => t });
  server = await serveApp({ domain: platformDomain(chainless), port: 0, host: "127.0.0.1" });
}, 240_000);
afterAll(async () => {
  await server?.close();
  await chainless?.close();
  await withChain?.close();
  await dc?.stop();
});

describe("a serve without a chain on a store used on one (probe36 A-F4)", { timeout: 120_000 }, () => {
  it("answers start, submissions and finalize of a bounty open by its clock 503 no_chain, nothing stored", async () => {
    const op = withChain.localOperator();
    const ds = await withChain.createDataset(op, citiesDataset(6, "ncc"));
    const { slug } = await withChain.publish(op, ds.dataset_id, {
      ...CITIES_PUBLISH,
      grader_type: "exact",
    });
    const author = dc.accounts[2]!;
    await dc.mintUsdc(author.address, 1_000_000n);
    const closesAt = Math.floor(t / 1000) + 3600;
    await withChain.lockBounty(op, slug, {
      authorPrivateKey: author.privateKey,
      pool: 1_000_000n,
      closesAt,
      awardDeadline: closesAt + 86_400,
      thresholdBps: 0,
      payoutRule: "winner_take_all",
    });
    const { api_key: key } = await withChain.createAccount({
      name: "ncc-rival",
      agent: { agent_id: "ncc-rival", withdrawal_address: "0x1234567890123456789012345678901234567891" },
    });
    const u = server.url;
    const detail = await call(u, "GET", `/api/v1/benchmarks/${slug}`);
    expect(detail.json).toMatchObject({
      open: true,
      withdrawal_address_required: true,
      commitment: { awarder: withChain.chain!.address },
    });
    const start = await call(u, "POST", `/api/v1/benchmarks/${slug}/runs`, { key });
    expect(start.status, start.text).toBe(503);
    expect(start.json.error).toMatchObject({
      code: "no_chain",
      details: { slug, closes_at: closesAt, chain_id: dc.chainId, reason: "chain_clock_unknown" },
    });
    expect(start.json.error.message).toContain(
      "the service's main address (a serve with the chain on this store) takes them",
    );
    // a run started through the process with the chain: its answers and finalize refused here too
    const run = await withChain.startRun(await withChain.authenticate(key), slug, "ncc-rival");
    const answers = run.tasks.map((x) => ({ ordinal: x.ordinal, answer_text: citiesAnswer(x.prompt) }));
    const submit = await call(u, "POST", `/api/v1/benchmarks/runs/${run.run.id}/submissions`, {
      key,
      body: { answers },
    });
    expect(submit.status, submit.text).toBe(503);
    expect(submit.json.error.code).toBe("no_chain");
    const fin = await call(u, "POST", `/api/v1/benchmarks/runs/${run.run.id}/finalize`, { key });
    expect(fin.status, fin.text).toBe(503);
    expect(fin.json.error.code).toBe("no_chain");
    const mine = await call(u, "GET", `/api/v1/benchmarks/runs/${run.run.id}`, { key });
    expect(mine.json.status).toBe("in_progress");
    expect((await withChain.myRuns(await withChain.authenticate(key))).runs).toHaveLength(1);
  });
});
