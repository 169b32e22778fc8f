/**
 * The award over HTTP against real `bench-bounty serve` processes on the local Base devchain, under
 * faults (issue 15 item 11):
 *
 * - kill -9 of `serve` at each step of an award (the test entry `fixtures/fault-serve.mjs` makes the
 *   process SIGKILL itself at a named platform fault point), then a restart on the same store and
 *   the operator's `POST award` again: one award transaction on chain, one `Awarded` event, credits
 *   as the public rule (splits of the pool), the door serving one pack forever, one verification;
 * - two `serve` processes on one PostgreSQL database receiving the operator's `POST award` at the
 *   same moment: one award transaction, both answers the same award, one pack.
 *
 * On the engine under test: `--store DIR` (SQLite) or `DATABASE_URL` on a fresh PostgreSQL schema;
 * the race needs PostgreSQL (one `serve` per SQLite store).
 */
import { startDevChain, type DevChain } from "@bench-bounty/devchain";
import { benchmarkBountyAbi } from "@bench-bounty/contracts";
import type { ChainGateway } from "@bench-bounty/platform";
import { TEST_ENGINE } from "@bench-bounty/platform/testing";
import { getAbiItem, toFunctionSelector, type Address, type Hex } from "viem";
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, citiesAnswer, citiesDataset, CITIES_PUBLISH, gatewayOf, register } from "./helpers.js";
import {
  cleanupServes,
  freshStore,
  startServe,
  stopServe,
  tempDir,
  type Serve,
  type ServeStore,
} from "./serve-process.js";

const OPERATOR = "bb_op_fault_key_0123456789abcdef0123456789";
const POOL = 10_000_000n; // 10 USDC
const SPLITS = [7000, 3000];
const AWARD_SELECTOR = toFunctionSelector(getAbiItem({ abi: benchmarkBountyAbi, name: "award" }) as never);

let dc: DevChain;
/** The test's own chain access (account 0, the operator serve also signs with): lock and reads only. */
let gateway: ChainGateway;

beforeAll(async () => {
  dc = await startDevChain();
  gateway = gatewayOf(dc);
});
afterAll(async () => {
  await cleanupServes();
  await dc?.stop();
});

/** The chain options of serve and of the CLI's platform commands, on the devchain. */
const chainArgs = () => [
  "--rpc-url",
  dc.rpcUrl,
  "--chain-id",
  String(dc.chainId),
  "--bounty-contract",
  dc.contracts.benchmarkBounty,
  "--anchor-registry",
  dc.contracts.anchorRegistry,
  "--usdc",
  dc.contracts.usdc,
];

/** Starts `serve` on the devchain (the operator's key and signer key from the environment). */
function startChainServe(store: ServeStore, fault?: string): Promise<Serve> {
  return startServe(store, {
    ...(fault ? { fault } : {}),
    args: [...chainArgs(), "--local-chain"],
    env: { BENCH_BOUNTY_OPERATOR_KEY: OPERATOR, BENCH_BOUNTY_PRIVATE_KEY: dc.accounts[0]!.privateKey },
  });
}

/**
 * Over HTTP: an author publishes (anchored), locks a 10 USDC pool split 70/30 with their own key,
 * attaches it; two competitors with withdrawal addresses answer everything and finalize; the chain
 * clock passes the close. Returns what the award needs.
 */
async function readyToAward(u: string, tag: string) {
  const author = await register(u, `author-${tag}`);
  const ds = await call(u, "POST", "/api/v1/datasets", { key: author.key, body: citiesDataset(8, tag) });
  expect(ds.status, ds.text).toBe(201);
  const pub = await call(u, "POST", `/api/v1/datasets/${ds.json.dataset_id}/benchmark`, {
    key: author.key,
    body: CITIES_PUBLISH,
  });
  expect(pub.status, pub.text).toBe(201);
  const slug = pub.json.slug as string;
  const authorWallet = dc.accounts[1]!;
  await dc.mintUsdc(authorWallet.address, POOL);
  const closesAt = (await dc.publicClient.getBlock()).timestamp + 3600n;
  const { bountyId } = await gateway.lockBounty({
    authorPrivateKey: authorWallet.privateKey,
    pool: POOL,
    testSetRoot: pub.json.commit_root,
    leafCount: pub.json.leaf_count,
    closesAt,
    awardDeadline: closesAt + 86_400n,
    thresholdBps: 5000,
    splitsBps: SPLITS,
  });
  const attached = await call(u, "POST", `/api/v1/benchmarks/${slug}/bounty`, {
    key: author.key,
    body: { bounty_id: String(bountyId), author: authorWallet.address, pool_base_units: String(POOL) },
  });
  expect(attached.status, attached.text).toBe(200);
  const payees: Address[] = [dc.accounts[2]!.address, dc.accounts[3]!.address];
  for (const [i, payee] of payees.entries()) {
    const a = await register(u, `${tag}-agent-${i}`);
    const w = await call(u, "PUT", "/api/v1/accounts/me/withdrawal-address", {
      key: a.key,
      body: { withdrawal_address: payee },
    });
    expect(w.status, w.text).toBe(200);
    const s = await call(u, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: a.key });
    const answers = s.json.tasks.map((x: any) => ({
      ordinal: x.ordinal,
      answer_text: citiesAnswer(x.prompt),
    }));
    const sub = await call(u, "POST", `/api/v1/benchmarks/runs/${s.json.run.id}/submissions`, {
      key: a.key,
      body: { answers },
    });
    expect(sub.status, sub.text).toBe(200);
    const fin = await call(u, "POST", `/api/v1/benchmarks/runs/${s.json.run.id}/finalize`, { key: a.key });
    expect(fin.status, fin.text).toBe(200);
  }
  await dc.increaseTime(3700);
  return { slug, bountyId, payees, fromBlock: await dc.publicClient.getBlockNumber() };
}

/** Every transaction calling `award` on the bounty contract in blocks after `fromBlock` (reverted ones too). */
async function awardTransactions(fromBlock: bigint): Promise<Hex[]> {
  const last = await dc.publicClient.getBlockNumber();
  const out: Hex[] = [];
  for (let n = fromBlock + 1n; n <= last; n++) {
    const block = await dc.publicClient.getBlock({ blockNumber: n, includeTransactions: true });
    for (const tx of block.transactions)
      if (
        tx.to?.toLowerCase() === dc.contracts.benchmarkBounty.toLowerCase() &&
        tx.input.startsWith(AWARD_SELECTOR)
      )
        out.push(tx.hash);
  }
  return out;
}

/**
 * What a settled award must look like after any faults: one award transaction since `fromBlock`, one
 * `Awarded` event (that transaction), winners paid by the public rule (place i gets pool x splits[i]
 * / 10000, credited on-chain to its withdrawal address), and the door's bytes hashing to the award's pack.
 */
async function expectSettledOnce(
  u: string,
  ready: Awaited<ReturnType<typeof readyToAward>>,
  award: any,
): Promise<Buffer> {
  const txs = await awardTransactions(ready.fromBlock);
  expect(txs).toEqual([award.award_tx]);
  const events = await dc.publicClient.getContractEvents({
    address: dc.contracts.benchmarkBounty,
    abi: benchmarkBountyAbi,
    eventName: "Awarded",
    args: { bountyId: ready.bountyId },
    fromBlock: ready.fromBlock,
  });
  expect(events.map((e) => e.transactionHash)).toEqual([award.award_tx]);
  expect(award.winners.map((w: any) => w.amount_base_units)).toEqual(
    SPLITS.map((s) => ((POOL * BigInt(s)) / 10_000n).toString()),
  );
  expect(award.winners.map((w: any) => w.withdrawal_address).sort()).toEqual(
    ready.payees.map((p) => p.toLowerCase()).sort(),
  );
  for (const w of award.winners) {
    const credit = await dc.publicClient.readContract({
      address: dc.contracts.benchmarkBounty,
      abi: benchmarkBountyAbi,
      functionName: "creditOf",
      args: [ready.bountyId, w.withdrawal_address],
    });
    expect(credit.toString()).toBe(w.amount_base_units);
  }
  const door = await fetch(`${u}/api/v1/benchmarks/${ready.slug}/award-evidence`);
  expect(door.status).toBe(200);
  const bytes = Buffer.from(await door.arrayBuffer());
  expect(door.headers.get("etag")).toBe(`"${award.pack_hash}"`);
  expect(JSON.parse(bytes.toString("utf8")).pack_hash).toBe(award.pack_hash);
  return bytes;
}

/** Waits until the verifier worker has stored a report of `slug`; returns the verification view. */
async function verified(u: string, slug: string): Promise<any> {
  const until = Date.now() + 60_000;
  for (;;) {
    const v = await call(u, "GET", `/api/v1/benchmarks/${slug}/verification`);
    expect(v.status, v.text).toBe(200);
    if (v.json.state === "done" || v.json.state === "failed") return v.json;
    if (Date.now() > until) throw new Error(`verification of ${slug} still ${v.json.state}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** How many times the serve processes' workers finished a verification of `slug` (done or given up). */
const verifications = (outputs: string[], slug: string) =>
  outputs
    .join("")
    .split("\n")
    .filter(
      (l) => l.startsWith(`verifier: ${slug} full policy `) || l.startsWith(`verifier: ${slug} failed:`),
    ).length;

describe("kill -9 of serve in the middle of an award over HTTP, then a restart", { timeout: 240_000 }, () => {
  // In the order of the award's steps (platform award.ts): sent but not recorded (only the chain knows
  // it), recorded as sent, mined but not recorded as confirmed, confirmed but the pack not stored.
  it.each(["awardBeforeMarkSent", "awardAfterSend", "awardBeforeRecord", "awardBeforeMint"])(
    "killed at %s: one award transaction, credits by the rule, one pack at the door, one verification",
    async (point) => {
      const store = await freshStore();
      const doomed = await startChainServe(store, point);
      const ready = await readyToAward(doomed.url, point.toLowerCase());
      const lost = await call(doomed.url, "POST", `/api/v1/benchmarks/${ready.slug}/award`, {
        key: OPERATOR,
      }).catch((e: unknown) => e);
      expect(lost).toBeInstanceOf(Error); // the connection died with the process: no answer at all
      expect(await doomed.exited).toBe("SIGKILL");
      expect(doomed.output()).toContain(`fault-serve: ${point} reached for ${ready.slug}`);
      // the transaction was sent before every point: it is on chain once already
      expect(await awardTransactions(ready.fromBlock)).toHaveLength(1);

      const healed = await startChainServe(store);
      const u = healed.url;
      // the door before the operator retries: the pack (healed from a confirmed award), or a SPEC 8
      // reason, never an error of ours
      const early = await call(u, "GET", `/api/v1/benchmarks/${ready.slug}/award-evidence`);
      if (point === "awardBeforeMint") expect(early.status).toBe(200);
      else expect([200, 404, 503], early.text).toContain(early.status);
      const award = await call(u, "POST", `/api/v1/benchmarks/${ready.slug}/award`, { key: OPERATOR });
      expect(award.status, award.text).toBe(200);
      const again = await call(u, "POST", `/api/v1/benchmarks/${ready.slug}/award`, { key: OPERATOR });
      expect(again.json).toEqual(award.json);
      const bytes = await expectSettledOnce(u, ready, award.json);
      if (early.status === 200) expect(Buffer.from(early.text, "utf8").equals(bytes)).toBe(true);
      const v = await verified(u, ready.slug);
      expect(v.attempts).toBe(1);
      await stopServe(healed);

      // another restart: the same bytes, the same verification, nothing sent
      const later = await startChainServe(store);
      const door = await fetch(`${later.url}/api/v1/benchmarks/${ready.slug}/award-evidence`);
      expect(Buffer.from(await door.arrayBuffer()).equals(bytes)).toBe(true);
      const v2 = await call(later.url, "GET", `/api/v1/benchmarks/${ready.slug}/verification`);
      expect(v2.json.ran_at).toBe(v.ran_at);
      expect(v2.json.state).toBe(v.state);
      expect(await awardTransactions(ready.fromBlock)).toEqual([award.json.award_tx]);
      await stopServe(later);
      expect(verifications([doomed.output(), healed.output(), later.output()], ready.slug)).toBe(1);
    },
  );
});

describe.runIf(TEST_ENGINE === "postgres")(
  "two serve processes on one PostgreSQL database racing the same award",
  { timeout: 240_000 },
  () => {
    it("one award transaction, both answers the same award, one pack at both doors, one verification", async () => {
      const store = await freshStore();
      const [a, b] = await Promise.all([
        startChainServe(store),
        startChainServe({ ...store, dir: tempDir() }),
      ]);
      const ready = await readyToAward(a.url, "race");
      const [ra, rb] = await Promise.all(
        [a, b].map((s) => call(s.url, "POST", `/api/v1/benchmarks/${ready.slug}/award`, { key: OPERATOR })),
      );
      expect(ra!.status, ra!.text).toBe(200);
      expect(rb!.status, rb!.text).toBe(200);
      expect(rb!.json).toEqual(ra!.json);
      const bytes = await expectSettledOnce(a.url, ready, ra!.json);
      const atB = Buffer.from(
        await (await fetch(`${b.url}/api/v1/benchmarks/${ready.slug}/award-evidence`)).arrayBuffer(),
      );
      expect(atB.equals(bytes)).toBe(true);
      const v = await verified(b.url, ready.slug);
      expect(v.attempts).toBe(1);
      // both workers poll the one queue: give the other a few polls to (wrongly) take it again
      await new Promise((r) => setTimeout(r, 3000));
      const v2 = await call(a.url, "GET", `/api/v1/benchmarks/${ready.slug}/verification`);
      expect(v2.json.ran_at).toBe(v.ran_at);
      await Promise.all([stopServe(a), stopServe(b)]);
      expect(verifications([a.output(), b.output()], ready.slug)).toBe(1);
    });
  },
);

/** `bench-bounty COMMAND...` of the CLI on `store` (the local operator), as an operator runs it beside serve. */
function cli(
  store: ServeStore,
  command: string[],
): Promise<{ code: number | null; stdout: string; out: string }> {
  const bin = new URL("../../cli/dist/index.js", import.meta.url).pathname;
  const proc = spawn(process.execPath, [bin, ...command, "--store", store.dir, ...chainArgs()], {
    env: {
      PATH: process.env.PATH!,
      BENCH_BOUNTY_PRIVATE_KEY: dc.accounts[0]!.privateKey,
      ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let out = "";
  proc.stdout.on("data", (d: Buffer) => ((stdout += d.toString()), (out += d.toString())));
  proc.stderr.on("data", (d: Buffer) => (out += d.toString()));
  return new Promise((res) => proc.once("exit", (code) => res({ code, stdout, out })));
}

/**
 * Waits until serve's batched anchors of `slug`'s commitment and receipts are mined: the CLI's award
 * would otherwise anchor them too, and the second of the two transactions reverts (already anchored).
 */
async function anchorsMined(store: ServeStore, slug: string): Promise<void> {
  for (const until = Date.now() + 30_000; ; ) {
    const listed = await cli(store, ["anchor", slug, "--list"]);
    expect(listed.code, listed.out).toBe(0);
    if ((JSON.parse(listed.stdout) as { pending: unknown[] }).pending.length === 0) return;
    if (Date.now() > until) throw new Error(`anchors of ${slug} still pending: ${listed.stdout}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe(
  "the CLI's award and serve's award of one benchmark at once (probe19 A-F9)",
  { timeout: 240_000 },
  () => {
    it("they take the award's lock in turn (SQLite too): one award transaction, both answer the same award", async () => {
      const store = await freshStore();
      const s = await startChainServe(store);
      const ready = await readyToAward(s.url, "cli-race");
      await anchorsMined(store, ready.slug);
      const [byCli, byServe] = await Promise.all([
        cli(store, ["award", ready.slug]),
        // the CLI's start-up first: both award calls then overlap
        new Promise((r) => setTimeout(r, 700)).then(() =>
          call(s.url, "POST", `/api/v1/benchmarks/${ready.slug}/award`, { key: OPERATOR }),
        ),
      ]);
      expect(byCli.code, byCli.out).toBe(0);
      expect(byServe.status, byServe.text).toBe(200);
      expect((JSON.parse(byCli.stdout) as { award_tx: string }).award_tx).toBe(byServe.json.award_tx);
      await expectSettledOnce(s.url, ready, byServe.json);
      await stopServe(s);
    });
  },
);

describe("an award made by the CLI while serve runs on the same store (D3-F11)", { timeout: 240_000 }, () => {
  it("serve's verifier notices the pack another process minted and verifies it once, unasked", async () => {
    const store = await freshStore();
    const s = await startChainServe(store);
    // PostgreSQL: a second serve on the database sweeps the same packs; still one verification
    const serves = [
      s,
      ...(TEST_ENGINE === "postgres" ? [await startChainServe({ ...store, dir: tempDir() })] : []),
    ];
    const outputs = () => serves.map((x) => x.output());
    const ready = await readyToAward(s.url, "cli-award");
    await anchorsMined(store, ready.slug);
    const awarded = await cli(store, ["award", ready.slug]);
    expect(awarded.code, awarded.out).toBe(0);
    const award = JSON.parse(awarded.stdout);
    // nothing asks serve about the verification: a worker must find the pack by itself
    const until = Date.now() + 30_000;
    while (verifications(outputs(), ready.slug) === 0) {
      if (Date.now() > until) throw new Error(`serve never verified ${ready.slug}: ${outputs().join("")}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(outputs().join("")).toContain(`verifier: queued ${ready.slug} (a pack another process minted)`);
    await expectSettledOnce(s.url, ready, award);
    const v = await verified(s.url, ready.slug);
    expect(v.state).toBe("done");
    expect(v.attempts).toBe(1);
    // later sweeps (every 5 s) leave the finished job alone: verified once
    await new Promise((r) => setTimeout(r, 6000));
    const v2 = await call(serves.at(-1)!.url, "GET", `/api/v1/benchmarks/${ready.slug}/verification`);
    expect(v2.json.ran_at).toBe(v.ran_at);
    await Promise.all(serves.map(stopServe));
    expect(verifications(outputs(), ready.slug)).toBe(1);
  });
});

describe(
  "SIGTERM of serve while an award waits for its transaction (probe29 C-F9)",
  { timeout: 240_000 },
  () => {
    it("the operator is answered at once 409 award_pending naming the transaction, serve exits promptly, a restart adopts it: one award", async () => {
      const store = await freshStore();
      const s = await startChainServe(store);
      const ready = await readyToAward(s.url, "sigterm");
      await anchorsMined(store, ready.slug);
      const rpc = (method: string, params: unknown[] = []) =>
        dc.publicClient.request({ method: method as never, params: params as never });
      await rpc("evm_setAutomine", [false]);
      let pooled: Hex[] = [];
      try {
        const answer = call(s.url, "POST", `/api/v1/benchmarks/${ready.slug}/award`, { key: OPERATOR });
        // the award waits in the node's pool: serve waits for it
        for (const until = Date.now() + 60_000; pooled.length === 0 && Date.now() < until; ) {
          await new Promise((r) => setTimeout(r, 100));
          const block = await dc.publicClient.getBlock({ blockTag: "pending", includeTransactions: true });
          pooled = block.transactions
            .filter((t) => t.to?.toLowerCase() === dc.contracts.benchmarkBounty.toLowerCase())
            .filter((t) => t.input.startsWith(AWARD_SELECTOR))
            .map((t) => t.hash);
        }
        expect(pooled, "the award was sent").toHaveLength(1);
        await new Promise((r) => setTimeout(r, 500)); // recorded as sent, waiting for it
        const stoppedAt = Date.now();
        s.proc.kill("SIGTERM");
        const r = await answer;
        expect(r.status, r.text).toBe(409);
        const error = (
          r.json as { error: { code: string; message: string; details: Record<string, unknown> } }
        ).error;
        expect(error.code).toBe("award_pending");
        expect(error.details.tx_hash).toBe(pooled[0]);
        expect(error.message).toContain("this server is stopping, so it answers now");
        expect(Date.now() - stoppedAt, "answered at once").toBeLessThan(3_000);
        expect(await s.exited).toBe("exit 0");
        expect(Date.now() - stoppedAt, "not the award's whole wait").toBeLessThan(10_000);
      } finally {
        await rpc("evm_setAutomine", [true]);
      }
      await rpc("evm_mine");
      const healed = await startChainServe(store);
      const award = await call(healed.url, "POST", `/api/v1/benchmarks/${ready.slug}/award`, {
        key: OPERATOR,
      });
      expect(award.status, award.text).toBe(200);
      expect((award.json as { award_tx: string }).award_tx).toBe(pooled[0]);
      await expectSettledOnce(healed.url, ready, award.json);
      await stopServe(healed);
    });
  },
);
