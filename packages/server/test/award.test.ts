/**
 * On the local Base devchain, over HTTP only: the author attaches the prize they locked with their own
 * key (a non-author is refused 403), the detail says "locked at" after its on-chain check, agents
 * compete, the operator awards (others 403; a second award gives the same answer), and the door
 * serves the same bytes forever with ETag and 304. Then the verifier worker's report of the minted
 * pack (routes, owner rule of a re-verification, GAOS entries with facts), and relayed claims
 * (`claimWithSig`): a wrong signer refused before any gas, the winner's signature paid to `to`, a
 * second submission refused.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { zeroAddress } from "viem";
import { startDevChain, type DevChain } from "@bench-bounty/devchain";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { Platform, PlatformError } from "@bench-bounty/platform";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  benchmarkBountyAbi,
  CLAIM_PRIMARY_TYPE,
  CLAIM_TYPES,
  claimDomain,
  testUsdcAbi,
} from "@bench-bounty/contracts";
import {
  MemoryVerificationJobs,
  platformDomain,
  runOnce,
  serveApp,
  startVerifier,
  INDEXER_SETTLE_ATTEMPTS,
  verifierDeps,
  type ListeningServer,
} from "../src/index.js";
import {
  call,
  citiesAnswer,
  citiesDataset,
  CITIES_PUBLISH,
  OPERATOR_KEY,
  postToolCall,
  register,
  devChainConfig,
} from "./helpers.js";

let dc: DevChain;
let server: ListeningServer;
let platform: Platform;
let t = 0;
const jobs = new MemoryVerificationJobs();
beforeAll(async () => {
  dc = await startDevChain();
  t = Number((await dc.publicClient.getBlock()).timestamp) * 1000;
  platform = await Platform.open({
    dir: mkdtempSync(join(tmpdir(), "bb-award-")),
    operatorKey: OPERATOR_KEY,
    clock: () => t,
    chain: devChainConfig(dc, 0),
  });
  server = await serveApp({
    domain: platformDomain(platform, { jobs, localChain: true }),
    port: 0,
    limits: { relayBurst: 11 }, // the eleven keyed relay calls below, then 429
  });
}, 240_000);
afterAll(async () => {
  await server?.close();
  await platform?.close();
  await dc?.stop();
});

/** A provider key in the RPC URL's path (probe4 config-rpc.sh): never in a public response. */
const RPC_SECRET = "PROVIDER_SECRET_KEY_123";

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
    // the commitment answer names the awarder the attach accepts: the service's signing address
    // (probe32 A-F1: an author had to ask the operator; bounty:lock --commitment takes it from the file)
    const served = await call(u, "GET", `/api/v1/benchmarks/${pub.json.slug}/commitment`);
    expect(served.json.awarder).toBe(platform.chain!.address);
    expect(served.json.awarder).toMatch(/^0x[0-9a-f]{40}$/);

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
    // probe27 A-F8: the detail (REST and MCP) names what `bounty:status --id --author` needs
    const named = {
      chain_id: dc.chainId,
      bounty_contract: dc.contracts.benchmarkBounty.toLowerCase(),
      bounty_id: String(bountyId),
      author: authorWallet.address.toLowerCase(),
      token: dc.contracts.usdc.toLowerCase(),
      pool_base_units: String(pool),
    };
    expect(detail.json.bounty).toEqual(named);
    const mcpDetail = await postToolCall(u, "benchmark_detail", { slug });
    expect(mcpDetail.body.result.structuredContent.bounty, JSON.stringify(mcpDetail.body)).toEqual(named);
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

    // probe11 O1: a griefer's start naming an unseen agent, with no withdrawal address, is refused over
    // REST and MCP (409 withdrawal_address_required, nothing registered): it never ranks, the award pays
    const griefer = await register(u, "chain-griefer");
    const grief = await call(u, "POST", `/api/v1/benchmarks/${slug}/runs`, {
      key: griefer.key,
      body: { agent_id: "chain-grief-new" },
    });
    expect(grief.status, grief.text).toBe(409);
    expect(grief.json.error).toMatchObject({
      code: "withdrawal_address_required",
      details: { field: "withdrawal_address", agent_id: "chain-grief-new" },
    });
    expect(grief.json.error.message).toMatch(/PUT \/api\/v1\/accounts\/me\/withdrawal-address/);
    const mcp = new Client({ name: "bench-bounty-test", version: "1" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${u}/mcp/benchmarks/${slug}/http`), {
        requestInit: { headers: { authorization: `Bearer ${griefer.key}` } },
      }),
    );
    try {
      const res = await mcp.callTool({
        name: "benchmark_start_run",
        arguments: { agent_id: "chain-grief-mcp" },
      });
      expect(res.isError).toBe(true);
      expect((res.structuredContent as any).error).toMatchObject({
        code: "withdrawal_address_required",
        details: { field: "withdrawal_address", agent_id: "chain-grief-mcp" },
      });
      expect((res.structuredContent as any).error.message).toMatch(/set_withdrawal_address/);
    } finally {
      await mcp.close();
    }
    const me = await call(u, "GET", "/api/v1/accounts/me", { key: griefer.key });
    expect(me.json.agents.map((a: any) => a.agent_id)).toEqual([griefer.agent_id]); // nothing registered

    await dc.increaseTime(3700);
    t += 3_700_000;
    const early = await call(u, "GET", `/api/v1/benchmarks/${slug}/award-evidence`);
    expect(early.status).toBe(404);
    const noPack = await call(u, "GET", `/api/v1/benchmarks/${slug}/verification`);
    expect(noPack.status).toBe(404);
    expect(noPack.json.error.code).toBe("verification_unavailable");
    expect(noPack.json.error.details.reason).toBe(early.json.error.reason);
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
    expect(detail.json.chain).toEqual({ chain_id: 8453, local: true });

    await verification(slug, bytes, { author: author.key, intruder: intruder.key });
    await relay(slug, bountyId, winner.key);
    await restart(slug);
    await indexerLag(slug, bountyId);
    await indexerBehindThePack(slug);
  });
});

/** The award queued a verification; one worker step stores the report; the routes serve it. */
async function verification(slug: string, pack: Buffer, keys: { author: string; intruder: string }) {
  const u = server.url;
  const queued = await call(u, "GET", `/api/v1/benchmarks/${slug}/verification`);
  expect(queued.status).toBe(200);
  expect(queued.json).toMatchObject({ slug, state: "queued", policy: "full", facts: null, report_url: null });
  const pending = await call(u, "GET", `/api/v1/benchmarks/${slug}/verification/report`);
  expect(pending.status).toBe(404);
  expect(pending.json.error.code).toBe("verification_pending");
  const readPacks: string[] = [];
  // a hosted provider's URL carries the operator's API key in its path: the public report shows the origin only
  const deps = verifierDeps(platform, { jobs, rpcUrl: `${dc.rpcUrl}/v2/${RPC_SECRET}` });
  const step = await runOnce({
    ...deps,
    readPack: async (s) => {
      const b = await deps.readPack(s);
      readPacks.push(Buffer.from(b).toString("hex"));
      return b;
    },
  });
  expect(step).toMatchObject({ kind: "done", slug, policy: "full" });
  expect(readPacks).toEqual([pack.toString("hex")]); // the door's bytes were verified

  const v = await call(u, "GET", `/api/v1/benchmarks/${slug}/verification`);
  expect(v.json).toMatchObject({ state: "done", attempts: 1, policy: "full", verifier_version: "0.1.0" });
  expect(v.json.policy_version).toBe("0.1.0");
  expect(Date.parse(v.json.ran_at)).toBeGreaterThan(0);
  // each fact its own state: the chain ones verified, the indexer one not observed (no indexer here)
  expect(v.json.facts.pack_hash.state).toBe("verified");
  expect(v.json.facts.onchain_root.state).toBe("verified");
  expect(v.json.facts.indexer_agreement.state).toBe("not-observed");
  expect(v.json.facts.indexer_agreement.reasons.length).toBeGreaterThan(0);
  expect(v.json.policy_unmet).toContain("indexer_agreement");
  const report = await fetch(`${u}${v.json.report_url}`);
  expect(report.headers.get("content-type")).toBe("application/json");
  const reportBytes = Buffer.from(await report.arrayBuffer());
  expect(reportBytes.equals(Buffer.from(jobs.rows.get(slug)!.result!.reportBytes))).toBe(true);
  expect(JSON.parse(reportBytes.toString("utf8")).facts).toEqual(v.json.facts);
  expect(reportBytes.toString("utf8")).not.toContain(RPC_SECRET);
  expect(JSON.parse(reportBytes.toString("utf8")).observed.rpc).toBe(new URL(dc.rpcUrl).origin);
  expect(JSON.stringify(v.json)).not.toContain(RPC_SECRET);

  const entries = await call(u, "GET", `/api/v1/benchmarks/${slug}/entries`);
  expect(entries.status).toBe(200);
  const entry = entries.json.entries[0];
  expect(entry.verification).toMatchObject({ replay: "verified", hiddenTestCompliant: "verified" });
  expect(entry.verification.availabilityObserved).toBe("not-observed");
  expect(entry.eligibility).toMatchObject({
    policyId: "bench-bounty.verifier.full",
    policyVersion: "0.1.0",
    decision: "ineligible",
  });
  expect(entry.verified_at).toBe(v.json.ran_at);

  // re-verify on request: the author or the operator; anyone else 403 naming the rule
  const no = await call(u, "POST", `/api/v1/benchmarks/${slug}/verification`, { key: keys.intruder });
  expect(no.status).toBe(403);
  expect(no.json.error.details.rule).toBe("benchmark_author_only");
  expect((await call(u, "POST", `/api/v1/benchmarks/${slug}/verification`)).status).toBe(401);
  // the author within 10 minutes of the last result: 429 (probe30 A-F6); the operator any time
  const soon = await call(u, "POST", `/api/v1/benchmarks/${slug}/verification`, { key: keys.author });
  expect(soon.status).toBe(429);
  expect(soon.json.error.details).toMatchObject({ limit: "reverification_cooldown", ran_at: v.json.ran_at });
  const op = await call(u, "POST", `/api/v1/benchmarks/${slug}/verification`, { key: OPERATOR_KEY });
  expect(op.status).toBe(202);
  expect(op.json).toMatchObject({ state: "queued", ran_at: v.json.ran_at }); // the old report stays shown
  const again = await call(u, "POST", `/api/v1/benchmarks/${slug}/verification`, { key: keys.author });
  expect(again.status).toBe(202); // queued already: adds nothing
  expect(await runOnce(deps)).toMatchObject({ kind: "done", slug, policy: "full" });
  expect((await runOnce(deps)).kind).toBe("idle"); // queued twice, verified once
}

/** Relayed claims: refusals before gas, the winner's claim paid to `to`, a second one refused. */
async function relay(slug: string, bountyId: bigint, key: string) {
  const u = server.url;
  const bounty = dc.contracts.benchmarkBounty;
  const winner = dc.accounts[2]!.address;
  const to = dc.accounts[5]!.address;
  const deadline = BigInt(Math.floor(t / 1000) + 3600);
  const nonce = await dc.publicClient.readContract({
    address: bounty,
    abi: benchmarkBountyAbi,
    functionName: "nonces",
    args: [winner],
  });
  const sign = (i: number, message: { to: `0x${string}`; deadline: bigint }) =>
    dc.wallet(i).signTypedData({
      domain: claimDomain(dc.chainId, bounty),
      types: CLAIM_TYPES,
      primaryType: CLAIM_PRIMARY_TYPE,
      message: { bountyId, account: winner, nonce, ...message },
    });
  const path = `/api/v1/benchmarks/${slug}/claims/relay`;
  const body = async (i: number, over: Record<string, unknown> = {}) => ({
    account: winner,
    to,
    deadline: deadline.toString(),
    signature: await sign(i, { to, deadline }),
    ...over,
  });
  const operator = dc.accounts[0]!.address;
  const sent = await dc.publicClient.getTransactionCount({ address: operator });

  const bad = await call(u, "POST", path, { key, body: { ...(await body(2)), to: "0x1234" } });
  expect(bad.status).toBe(422);
  expect(bad.json.error.details.path).toBe("$.to");
  expect((await call(u, "POST", path, { body: await body(2) })).status).toBe(401);
  const wrong = await call(u, "POST", path, { key, body: await body(4) }); // signed by somebody else
  expect(wrong.status).toBe(422);
  expect(wrong.json.error.code).toBe("invalid_claim_signature");
  expect(wrong.json.error.details.path).toBe("$.signature");
  const other = await call(u, "POST", path, {
    key,
    body: { ...(await body(2)), to: dc.accounts[6]!.address },
  });
  expect(other.json.error.code).toBe("invalid_claim_signature"); // signed for another `to`
  const past = BigInt(Math.floor(t / 1000) - 10);
  const expired = await call(u, "POST", path, {
    key,
    body: { ...(await body(2)), deadline: past.toString(), signature: await sign(2, { to, deadline: past }) },
  });
  expect(expired.json.error.code).toBe("claim_expired");
  // probe4 money.mts: a claim signed to the USDC contract was paid (credit stuck in the token);
  // `to` follows the withdrawal-address rule: zero address and the platform's contracts refused.
  // probe28 C-F3: a BenchmarkBounty (or AnchorRegistry) deployed at another address was paid (5 USDC stuck
  // in a contract that can never claim): the rule's code part holds too, as for a withdrawal address
  const cloneCode = async (of: `0x${string}`, at: `0x${string}`) => {
    const code = await dc.publicClient.getCode({ address: of });
    await dc.publicClient.request({ method: "hardhat_setCode", params: [at, code] } as never);
    return at;
  };
  const bountyClone = await cloneCode(bounty, "0x00000000000000000000000000000000000a1234");
  const registryClone = await cloneCode(
    dc.contracts.anchorRegistry,
    "0x00000000000000000000000000000000000a1235",
  );
  for (const [target, reason, runs] of [
    [dc.contracts.usdc, "platform_contract", undefined],
    [bounty, "platform_contract", undefined],
    [zeroAddress, "zero_address", undefined],
    [bountyClone, "platform_contract", /runs the protocol's BenchmarkBounty code/],
    [registryClone, "platform_contract", /runs the protocol's AnchorRegistry code/],
  ] as const) {
    const signed = { ...(await body(2)), to: target, signature: await sign(2, { to: target, deadline }) };
    const refused = await call(u, "POST", path, { key, body: signed });
    expect(refused.status, `${target}: ${refused.text}`).toBe(422);
    expect(refused.json.error).toMatchObject({
      code: "invalid_withdrawal_address",
      details: { field: "to", path: "$.to", reason },
    });
    if (runs) expect(refused.json.error.message).toMatch(runs);
  }
  expect(await dc.publicClient.getTransactionCount({ address: operator })).toBe(sent); // no gas spent

  const credit = await dc.publicClient.readContract({
    address: bounty,
    abi: benchmarkBountyAbi,
    functionName: "creditOf",
    args: [bountyId, winner],
  });
  expect(credit).toBeGreaterThan(0n);
  const good = await body(2);
  // probe33 C-F7: the service's account without ETH was a 502 chain_error telling the winner to "send it ETH"
  const gas = await dc.publicClient.getBalance({ address: operator });
  const setBalance = (wei: bigint) =>
    dc.publicClient.request({
      method: "hardhat_setBalance",
      params: [operator, `0x${wei.toString(16)}`],
    } as never);
  await setBalance(0n);
  try {
    // another account's key: the relay rate limit is per account, and this attempt is not the test's own
    const helper = (await call(u, "POST", "/api/v1/accounts", { body: { name: "relay-no-gas" } })).json
      .api_key as string;
    const broke = await call(u, "POST", path, { key: helper, body: good });
    expect(broke.status, broke.text).toBe(503);
    expect(broke.headers.get("retry-after")).toBe("300");
    expect(broke.json.error).toMatchObject({
      code: "relay_unavailable",
      details: { account: winner, relayer: operator, retry_after_seconds: 300 },
    });
    expect(broke.json.error.message).toMatch(
      /nothing was sent and the credit stays: post the same signed claim again later/,
    );
    expect(broke.json.error.message).not.toMatch(/send it ETH/);
  } finally {
    await setBalance(gas);
  }
  expect(await dc.publicClient.getTransactionCount({ address: operator })).toBe(sent);
  const before = await usdcOf(to);
  const paid = await call(u, "POST", path, { key, body: good });
  expect(paid.status, paid.text).toBe(200);
  expect(paid.json).toMatchObject({
    account: winner.toLowerCase(),
    to: to.toLowerCase(),
    amount_base_units: credit.toString(),
    relayer: operator.toLowerCase(),
  });
  expect(await usdcOf(to)).toBe(before + credit);
  const twice = await call(u, "POST", path, { key, body: good });
  expect(twice.status).toBe(409);
  expect(twice.json.error.code).toBe("no_credit");
  const limited = await call(u, "POST", path, { key, body: good });
  expect(limited.status).toBe(429);
  expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
}

async function usdcOf(address: `0x${string}`): Promise<bigint> {
  return dc.publicClient.readContract({
    address: dc.contracts.usdc,
    abi: testUsdcAbi,
    functionName: "balanceOf",
    args: [address],
  });
}

/** A restarted serve (a fresh in-memory queue): the startup sweep queues the packed award and the loop verifies it; an unreachable RPC is retried with backoff. */
async function restart(slug: string) {
  const until = async (jobs: MemoryVerificationJobs, ok: (state: string) => boolean) => {
    for (let i = 0; i < 400; i++) {
      const job = await jobs.get(slug);
      if (job && ok(job.state)) return job;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`job of ${slug} never reached the state`);
  };
  const fresh = new MemoryVerificationJobs();
  const domain = platformDomain(platform, { jobs: fresh });
  const v = await startVerifier(platform, {
    jobs: fresh,
    enqueueIfPacked: (s) => domain.enqueueIfPacked(s),
    rpcUrl: dc.rpcUrl,
    pollMs: 20,
  });
  try {
    expect(v.queued).toEqual([slug]);
    const done = await until(fresh, (s) => s === "done");
    expect(done.result!.policy).toBe("full");
  } finally {
    await v.stop();
  }

  // a benchmark the sweep cannot bring to the door is reported and skipped: serve still starts
  const refusing = await startVerifier(platform, {
    jobs: new MemoryVerificationJobs(),
    enqueueIfPacked: (s) =>
      s === slug
        ? Promise.reject(new PlatformError("bounty_mismatch", "the minted pack differs", {}))
        : Promise.resolve(false),
    rpcUrl: dc.rpcUrl,
    pollMs: 20,
  });
  try {
    expect(refusing.queued).toEqual([]);
    expect(refusing.refused).toEqual([{ slug, error: "the minted pack differs" }]);
  } finally {
    await refusing.stop();
  }

  const down = new MemoryVerificationJobs();
  const downDomain = platformDomain(platform, { jobs: down });
  const w = await startVerifier(platform, {
    jobs: down,
    enqueueIfPacked: (s) => downDomain.enqueueIfPacked(s),
    rpcUrl: `http://127.0.0.1:9/v2/${RPC_SECRET}`, // nothing listens: the chain is unreachable
    pollMs: 20,
  });
  try {
    const job = await until(down, (s) => s === "retrying");
    expect(job.attempts).toBe(1);
    expect(job.lastError).toMatch(/VerifierNetworkError/);
    expect(job.nextAt).toBeGreaterThan(Date.now());
    const shown = await downDomain.verification(null, slug);
    expect(shown).toMatchObject({ state: "retrying", facts: null, last_error: job.lastError });
    expect(job.lastError).not.toContain(RPC_SECRET); // shown to anyone at GET .../verification
  } finally {
    await w.stop();
  }
}

/**
 * A verification of `slug` queued now in a queue of its own, and the worker's dependencies reading the
 * indexer at `indexerUrl` with a clock the test moves (`clock.t`, unix ms).
 */
async function queuedAgainst(slug: string, indexerUrl: string) {
  const clock = { t: Date.now() };
  const lag = new MemoryVerificationJobs();
  await lag.enqueue(slug, clock.t);
  const deps = {
    ...verifierDeps(platform, { jobs: lag, rpcUrl: dc.rpcUrl, indexerUrl }),
    now: () => clock.t,
  };
  return { clock, lag, deps };
}

/**
 * Right after the award the indexer has usually not seen it: the worker waits (backoff) while the
 * indexer's bounty is not `awarded`, then verifies; after INDEXER_SETTLE_ATTEMPTS it verifies
 * whatever the indexer says, so a real disagreement is reported as a failed fact.
 */
async function indexerLag(slug: string, bountyId: bigint) {
  const seen: string[] = [];
  const indexer = await fakeIndexer("funded", seen);
  try {
    const { clock, lag, deps } = await queuedAgainst(slug, indexer.url);
    const first = await runOnce(deps);
    expect(first).toMatchObject({ kind: "retry", error: expect.stringContaining("IndexerBehind") });
    expect(seen).toEqual([bountyId.toString()]);
    for (let i = 1; i < INDEXER_SETTLE_ATTEMPTS; i++) {
      clock.t = (await lag.get(slug))!.nextAt!;
      expect((await runOnce(deps)).kind).toBe("retry");
    }
    clock.t = (await lag.get(slug))!.nextAt!;
    const last = await runOnce(deps);
    expect(last).toMatchObject({ kind: "done", slug, policy: "full" });
    const facts = (await platformDomain(platform, { jobs: lag }).verification(null, slug)) as {
      facts: Record<string, { state: string; reasons: string[] }>;
    };
    expect(facts.facts.indexer_agreement?.state).toBe("failed"); // the indexer still says funded
    expect(facts.facts.onchain_root?.state).toBe("verified");
  } finally {
    indexer.close();
  }
}

/**
 * probe39 C-F2: an indexer that shows the bounty awarded but whose head (`GET /status`) is below the
 * pack's blocks (stuck after an RPC stall) makes `indexer_agreement` unverified for lag alone: the
 * worker retries that result (next attempt set) for INDEXER_SETTLE_ATTEMPTS attempts, then stores it.
 */
async function indexerBehindThePack(slug: string) {
  const indexer = await fakeIndexer("awarded", [], 1);
  try {
    const { clock, lag, deps } = await queuedAgainst(slug, indexer.url);
    const first = await runOnce(deps);
    expect(first).toMatchObject({ kind: "retry", error: expect.stringContaining("IndexerBehind") });
    expect((first as { error: string }).error).toContain("up to block 1 (GET /status)");
    const shown = (await platformDomain(platform, { jobs: lag }).verification(null, slug)) as {
      state: string;
      next_attempt_at: string | null;
    };
    expect(shown).toMatchObject({ state: "retrying", next_attempt_at: expect.any(String) });
    for (let i = 1; i < INDEXER_SETTLE_ATTEMPTS; i++) {
      clock.t = (await lag.get(slug))!.nextAt!;
      expect((await runOnce(deps)).kind).toBe("retry");
    }
    clock.t = (await lag.get(slug))!.nextAt!;
    expect(await runOnce(deps)).toMatchObject({ kind: "done", slug, policy: "full" });
    const stored = (await platformDomain(platform, { jobs: lag }).verification(null, slug)) as {
      facts: Record<string, { state: string; reasons: string[] }>;
    };
    expect(stored.facts.indexer_agreement?.state).toBe("unverified"); // stored after the attempts
  } finally {
    indexer.close();
  }
}

/**
 * An indexer answering the bounty with `status`, what it has not indexed as the real one does, and
 * (when `head` is given) `GET /status` with its head on chain 8453; `seen` gets each bounty id asked.
 */
async function fakeIndexer(
  status: string,
  seen: string[],
  head?: number,
): Promise<{ url: string; close: () => void }> {
  const fake = new Hono().get("/bounties/:id", (c) => {
    seen.push(c.req.param("id"));
    return c.json({ bounty: { status }, winners: [] });
  });
  if (head !== undefined)
    fake.get("/status", (c) => c.json({ base: { id: 8453, block: { number: head, timestamp: 0 } } }));
  // as the indexer answers what it has not indexed: an anchor 404 echoing its digest, empty lists
  fake.get("/anchors/:digest", (c) =>
    c.json(
      { error: { code: "not_found", message: "not indexed", details: { digest: c.req.param("digest") } } },
      404,
    ),
  );
  fake.get("/awards", (c) => c.json({ items: [] }));
  fake.get("/accounts/:address/credits", (c) => c.json({ credits: [] }));
  return await new Promise<{ url: string; close: () => void }>((resolve) => {
    const s = serve({ fetch: fake.fetch, port: 0, hostname: "127.0.0.1" }, (i) =>
      resolve({ url: `http://127.0.0.1:${i.port}`, close: () => s.close() }),
    );
  });
}
