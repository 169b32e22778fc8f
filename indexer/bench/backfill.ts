/**
 * Backfill benchmark of the indexer (`pnpm bench:indexer`).
 *
 * 1. Starts a devchain and writes, in batches of transactions mined together:
 *    `--anchors` (default 10,000) `Anchored` events through `anchorMany`, and
 *    `--awards` (default 1,000) bounties created and funded, awarded (one or
 *    two winners, alternately) and claimed by every winner.
 * 2. Mines past Ponder's finality depth so everything is a backfill.
 * 3. Starts `ponder start` on a fresh store (PGlite, or PostgreSQL with
 *    `--postgres URL` / env `TEST_DATABASE_URL`) and times it until the head is indexed.
 * 4. Fetches the same logs with a bare viem `getLogs` loop (fetch + decode), then, as the
 *    fair baseline (issue 19), writes the same rows to the same kind of database in one
 *    transaction (a fresh PGlite directory, or a fresh schema of the PostgreSQL database),
 *    and prints the rates and the ratios of Ponder's backfill to both, from this one run.
 *
 * Options: --anchors N, --awards N, --postgres URL, --chunk N (getLogs block range, default 2000).
 */
import { ANCHOR_KINDS, anchorRegistryAbi, benchmarkBountyAbi, testUsdcAbi } from "@bench-bounty/contracts";
import { startDevChain, type DevChain } from "@bench-bounty/devchain";
import { parseArgs } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { keccak256, maxUint256, numberToHex, parseEventLogs, type Address, type Hash, type Hex } from "viem";
import { startIndexer } from "../testing/startIndexer.js";

const { values: opt } = parseArgs({
  options: {
    anchors: { type: "string", default: "10000" },
    awards: { type: "string", default: "1000" },
    postgres: { type: "string" },
    chunk: { type: "string", default: "2000" },
  },
});
const positiveInt = (name: string, v: string): number => {
  if (!/^[0-9]+$/.test(v) || Number(v) < 1)
    throw new Error(`--${name} must be a positive integer, got "${v}"`);
  return Number(v);
};
const N_ANCHORS = positiveInt("anchors", opt.anchors!);
const N_AWARDS = positiveInt("awards", opt.awards!);
const CHUNK = positiveInt("chunk", opt.chunk!);
const DATABASE_URL = opt.postgres ?? process.env.TEST_DATABASE_URL;

const ANCHORS_PER_TX = 250;
const AUTHORS = [1, 2, 3, 4, 5];
const AWARDER = 6;
const WINNERS = [7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
const POOL = 1_000_003n;
const KINDS = Object.values(ANCHOR_KINDS);

const secs = (ms: number) => (ms / 1000).toFixed(2);

/** Sends prepared transactions with automining off, mines until all are in, checks every receipt. */
async function sendBatch(dc: DevChain, what: string, txs: (() => Promise<Hash>)[]): Promise<void> {
  const rpc = (method: string, params: unknown[] = []) =>
    dc.publicClient.request({ method, params } as never);
  await rpc("evm_setAutomine", [false]);
  const hashes: Hash[] = [];
  try {
    for (const send of txs) hashes.push(await send());
    for (let i = 0; i < 10_000; i++) {
      await rpc("evm_mine");
      const pending = (await rpc("eth_getBlockByNumber", ["pending", false])) as { transactions: Hash[] };
      if (pending.transactions.length === 0) break;
    }
  } finally {
    await rpc("evm_setAutomine", [true]);
  }
  for (let i = 0; i < hashes.length; i += 200) {
    const receipts = await Promise.all(
      hashes.slice(i, i + 200).map((hash) => dc.publicClient.getTransactionReceipt({ hash })),
    );
    const bad = receipts.find((r) => r.status !== "success");
    if (bad !== undefined) throw new Error(`${what}: transaction ${bad.transactionHash} reverted`);
  }
}

async function generate(dc: DevChain): Promise<{ bountyEvents: number; anchorEvents: number }> {
  const nonces = new Map<number, number>();
  const fee = { maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n };
  const nextNonce = async (i: number): Promise<number> => {
    let n = nonces.get(i);
    if (n === undefined)
      n = await dc.publicClient.getTransactionCount({
        address: dc.accounts[i]!.address,
        blockTag: "pending",
      });
    nonces.set(i, n + 1);
    return n;
  };
  const call =
    (
      i: number,
      address: Address,
      abi: typeof benchmarkBountyAbi | typeof anchorRegistryAbi | typeof testUsdcAbi,
      functionName: string,
      args: unknown[],
      gas: bigint,
    ) =>
    async (): Promise<Hash> =>
      dc
        .wallet(i)
        .writeContract({ address, abi, functionName, args, gas, nonce: await nextNonce(i), ...fee } as never);

  // Anchors.
  const anchorTxs: (() => Promise<Hash>)[] = [];
  for (let start = 0; start < N_ANCHORS; start += ANCHORS_PER_TX) {
    const digests: Hex[] = [];
    for (let j = start; j < Math.min(N_ANCHORS, start + ANCHORS_PER_TX); j++)
      digests.push(keccak256(numberToHex(j, { size: 32 })));
    const kind = KINDS[(start / ANCHORS_PER_TX) % KINDS.length]!; // every kind of SPEC 1.2 in turn
    anchorTxs.push(
      call(
        17 + ((start / ANCHORS_PER_TX) % 3),
        dc.contracts.anchorRegistry,
        anchorRegistryAbi,
        "anchorMany",
        [digests, kind],
        15_000_000n,
      ),
    );
  }
  await sendBatch(dc, "anchorMany", anchorTxs);

  // Bounties: mint and approve, create and fund, then award and claim.
  for (const a of AUTHORS) {
    await dc.mintUsdc(dc.accounts[a]!.address, POOL * BigInt(N_AWARDS));
  }
  await sendBatch(
    dc,
    "approve",
    AUTHORS.map((a) =>
      call(
        a,
        dc.contracts.usdc,
        testUsdcAbi,
        "approve",
        [dc.contracts.benchmarkBounty, maxUint256],
        100_000n,
      ),
    ),
  );
  const now = (await dc.publicClient.getBlock()).timestamp;
  const firstId =
    (await dc.publicClient.readContract({
      address: dc.contracts.benchmarkBounty,
      abi: benchmarkBountyAbi,
      functionName: "bountyCount",
    })) + 1n;
  const creates = Array.from({ length: N_AWARDS }, (_, k) =>
    call(
      AUTHORS[k % AUTHORS.length]!,
      dc.contracts.benchmarkBounty,
      benchmarkBountyAbi,
      "createAndFund",
      [
        {
          token: dc.contracts.usdc,
          awarder: dc.accounts[AWARDER]!.address,
          pool: POOL,
          testSetRoot: keccak256(numberToHex(1_000_000 + k, { size: 32 })),
          leafCount: 100,
          closesAt: now + 60n,
          awardDeadline: now + 10_000_000n,
          thresholdBps: 5000,
          splitsBps: [6000, 4000],
        },
      ],
      600_000n,
    ),
  );
  await sendBatch(dc, "createAndFund", creates);
  await dc.increaseTime(120);
  const winnersOf = (k: number): number[] =>
    k % 2 === 0
      ? [WINNERS[k % WINNERS.length]!, WINNERS[(k + 1) % WINNERS.length]!]
      : [WINNERS[k % WINNERS.length]!];
  await sendBatch(
    dc,
    "award",
    Array.from({ length: N_AWARDS }, (_, k) =>
      call(
        AWARDER,
        dc.contracts.benchmarkBounty,
        benchmarkBountyAbi,
        "award",
        [
          firstId + BigInt(k),
          winnersOf(k).map((w) => dc.accounts[w]!.address),
          keccak256(numberToHex(2_000_000 + k, { size: 32 })),
        ],
        400_000n,
      ),
    ),
  );
  const claims: (() => Promise<Hash>)[] = [];
  for (let k = 0; k < N_AWARDS; k++) {
    for (const w of winnersOf(k)) {
      claims.push(
        call(
          w,
          dc.contracts.benchmarkBounty,
          benchmarkBountyAbi,
          "claim",
          [firstId + BigInt(k), dc.accounts[(w + 3) % 20]!.address],
          200_000n,
        ),
      );
    }
  }
  await sendBatch(dc, "claim", claims);
  // Past Ponder's finality depth for chain 8453 (30 blocks): all of it is backfill.
  // One evm_mine per block: hardhat_mine's reserved blocks have parent hashes an indexer takes for a reorg.
  for (let i = 0; i < 40; i++) await dc.publicClient.request({ method: "evm_mine", params: [] } as never);
  return { bountyEvents: N_AWARDS * 3 + claims.length, anchorEvents: N_ANCHORS };
}

type DecodedLog = ReturnType<
  typeof parseEventLogs<[...typeof benchmarkBountyAbi, ...typeof anchorRegistryAbi]>
>[number];

async function bareGetLogs(dc: DevChain, head: bigint): Promise<{ logs: DecodedLog[]; ms: number }> {
  const t = performance.now();
  const all: DecodedLog[] = [];
  for (let from = BigInt(dc.startBlock); from <= head; from += BigInt(CHUNK)) {
    const to = from + BigInt(CHUNK) - 1n > head ? head : from + BigInt(CHUNK) - 1n;
    const logs = await dc.publicClient.getLogs({
      address: [dc.contracts.benchmarkBounty, dc.contracts.anchorRegistry],
      fromBlock: from,
      toBlock: to,
    });
    all.push(...parseEventLogs({ abi: [...benchmarkBountyAbi, ...anchorRegistryAbi], logs }));
  }
  return { logs: all, ms: performance.now() - t };
}

/** One SQL session of the baseline store: PGlite or a pg client. */
interface Store {
  exec(sql: string, params?: unknown[]): Promise<unknown>;
  close(): Promise<void>;
}

async function openStore(): Promise<Store> {
  if (DATABASE_URL) {
    const c = new pg.Client({ connectionString: DATABASE_URL });
    await c.connect();
    const schema = `bench_base_${process.pid}_${Date.now().toString(36)}`;
    await c.query(`CREATE SCHEMA ${schema}`);
    await c.query(`SET search_path = ${schema}`);
    return {
      exec: (sql, params) => c.query(sql, params),
      close: async () => {
        await c.query(`DROP SCHEMA ${schema} CASCADE`);
        await c.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), "bench-bounty-baseline-"));
  const db = new PGlite(dir);
  return {
    exec: (sql, params) => db.query(sql, params),
    close: async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The write half of the fair baseline: every decoded log as one row (anchors in `anchor`,
 * the bounty events in `event` with their arguments as JSON), multi-row INSERTs of 500,
 * all in one transaction. No checks, no indexes beyond the keys, no per-account totals.
 */
async function bareWrite(logs: DecodedLog[]): Promise<number> {
  const store = await openStore();
  try {
    await store.exec(
      "CREATE TABLE anchor (digest text PRIMARY KEY, kind text NOT NULL, anchorer text NOT NULL, block_number numeric(78) NOT NULL, log_index integer NOT NULL, tx_hash text NOT NULL)",
    );
    await store.exec(
      "CREATE TABLE event (id text PRIMARY KEY, name text NOT NULL, bounty_id numeric(78), args jsonb NOT NULL, block_number numeric(78) NOT NULL, log_index integer NOT NULL, tx_hash text NOT NULL)",
    );
    const t = performance.now();
    await store.exec("BEGIN");
    const anchors = logs.filter((l) => l.eventName === "Anchored");
    const others = logs.filter((l) => l.eventName !== "Anchored");
    for (let i = 0; i < anchors.length; i += 500) {
      const rows = anchors.slice(i, i + 500);
      const params: unknown[] = [];
      const values = rows.map((l) => {
        const a = l.args as { digest: Hex; kind: Hex; anchorer: Address };
        params.push(
          a.digest,
          a.kind,
          a.anchorer.toLowerCase(),
          String(l.blockNumber),
          l.logIndex,
          l.transactionHash,
        );
        const k = params.length - 6;
        return `($${k + 1}, $${k + 2}, $${k + 3}, $${k + 4}, $${k + 5}, $${k + 6})`;
      });
      await store.exec(`INSERT INTO anchor VALUES ${values.join(", ")}`, params);
    }
    for (let i = 0; i < others.length; i += 500) {
      const rows = others.slice(i, i + 500);
      const params: unknown[] = [];
      const values = rows.map((l) => {
        const args = l.args as Record<string, unknown>;
        params.push(
          `${l.blockNumber}:${l.logIndex}`,
          l.eventName,
          String(args.bountyId),
          JSON.stringify(args, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)),
          String(l.blockNumber),
          l.logIndex,
          l.transactionHash,
        );
        const k = params.length - 7;
        return `($${k + 1}, $${k + 2}, $${k + 3}, $${k + 4}, $${k + 5}, $${k + 6}, $${k + 7})`;
      });
      await store.exec(`INSERT INTO event VALUES ${values.join(", ")}`, params);
    }
    await store.exec("COMMIT");
    return performance.now() - t;
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  console.log(
    `indexer backfill benchmark: ${N_ANCHORS} anchors, ${N_AWARDS} awards with claims, ${DATABASE_URL ? "PostgreSQL" : "PGlite"}`,
  );
  const dc = await startDevChain();
  try {
    let t = performance.now();
    const { bountyEvents, anchorEvents } = await generate(dc);
    const head = await dc.publicClient.getBlockNumber();
    const total = bountyEvents + anchorEvents;
    console.log(
      `generated ${total} events (${anchorEvents} Anchored, ${bountyEvents} bounty events) in ${head} blocks, ${secs(performance.now() - t)} s`,
    );

    t = performance.now();
    let healthAt: number | undefined;
    const ix = await startIndexer({
      chain: dc,
      ...(DATABASE_URL ? { databaseUrl: DATABASE_URL } : {}),
      wait: "none",
      log: (chunk) => {
        if (process.env.BENCH_LOG) process.stderr.write(chunk);
        if (healthAt === undefined && chunk.includes("Started returning 200 responses endpoint=/health"))
          healthAt = performance.now();
      },
    });
    try {
      await ix.waitForBlock(Number(head), 900_000);
      const doneAt = performance.now();
      const wall = doneAt - t;
      const indexing = doneAt - (healthAt ?? t);
      const res = await fetch(`${ix.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          query:
            "{ anchors { totalCount } claims { totalCount } bountyRecords(where: { status: Awarded }) { totalCount } }",
        }),
      });
      const counts = ((await res.json()) as { data: Record<string, { totalCount: number }> }).data;
      console.log(
        `indexed: ${counts.anchors!.totalCount} anchors, ${counts.bountyRecords!.totalCount} awarded bounties, ${counts.claims!.totalCount} claims`,
      );
      if (counts.anchors!.totalCount !== N_ANCHORS || counts.bountyRecords!.totalCount !== N_AWARDS) {
        throw new Error("the indexer's counts differ from what was written");
      }
      const bare = await bareGetLogs(dc, head);
      if (bare.logs.length !== total)
        throw new Error(`getLogs found ${bare.logs.length} events, expected ${total}`);
      const writeMs = await bareWrite(bare.logs);
      const fairMs = bare.ms + writeMs;
      const rate = (ms: number) => `${(total / (ms / 1000)).toFixed(0)} events/s`;
      console.log("");
      console.log(`ponder start, spawn to head indexed:       ${secs(wall)} s (${rate(wall)})`);
      console.log(`ponder backfill, /health up to head:       ${secs(indexing)} s (${rate(indexing)})`);
      console.log(
        `bare viem getLogs loop (${CHUNK}-block chunks):   ${secs(bare.ms)} s (${rate(bare.ms)}, fetch + decode)`,
      );
      console.log(`same rows written, one transaction:        ${secs(writeMs)} s (${rate(writeMs)})`);
      console.log(`fair baseline (fetch + decode + write):    ${secs(fairMs)} s (${rate(fairMs)})`);
      console.log(`ratio ponder backfill / fetch + decode:    ${(indexing / bare.ms).toFixed(2)}x`);
      console.log(
        `ratio ponder backfill / fair baseline:     ${(indexing / fairMs).toFixed(2)}x (target <= 2.0x)`,
      );
    } finally {
      await ix.stop();
    }
  } finally {
    await dc.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
