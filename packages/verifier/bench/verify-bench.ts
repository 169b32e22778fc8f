/**
 * `pnpm bench:verifier`: off-chain verification of generated packs with
 * 1,000 / 10,000 / 100,000 tasks (a script that prints figures, not a test).
 *
 * Pack shape: the bank of N tasks of `@bench-bounty/evidence/testing` (four graders, 30% public),
 * four agents that each ran every task (one author agent, three winners under
 * `top_n_split`), the winners' receipts, salts and answers revealed, the rows
 * without embedded receipts (their hashes are anchored on chain; so the author agent's row, no winner's,
 * leaves `composite`, `ordering` and `selection` unverified: probe37 C-F1). Packs are minted by
 * `@bench-bounty/evidence` and cached in the OS temp directory.
 *
 * For each size it prints the time of `verifyPack` from the pack's bytes
 * (parse, read, every off-chain fact), and the time of bare Keccak-256 over
 * exactly the preimages that verification hashes (prompts, gold||salt, leaf
 * JSON, Merkle pairs, answer||salt per revealed answer, every receipt's
 * canonical JSON, rank_derivation, the four hashed blocks), prepared in
 * advance; the ratio compares the two (CPU time of this process: steadier than
 * wall clock on a shared machine; both are printed).
 *
 * Bare keccak and verification use the same Keccak-256 (the evidence library's
 * active backend, printed in the header: native `keccak` binding, else
 * @noble/hashes; BENCH_BOUNTY_KECCAK=js forces the latter).
 *
 * Env: BENCH_SIZES (default "1000,10000,100000"), BENCH_RUNS (default 5; the run of median CPU time is printed).
 * Targets: issue 5, 100,000 tasks in under 5 s; issue 19, within 2.0x of bare keccak (CPU).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import {
  buildReceipt,
  canonicalJson,
  commitTestSet,
  composite,
  evidencePackBytes,
  grade,
  hexToBytes,
  keccak256,
  keccakBackend,
  mintEvidencePack,
  parseJson,
  promptHash,
  rankAccuracy,
  revealedAnswers,
  scorePublic,
  type BuildReceiptInput,
  type EvidencePack,
  type MintRun,
  type MintScoring,
} from "@bench-bounty/evidence";
import { answerFor, hex64, makeTestSet } from "@bench-bounty/evidence/testing";
import { verifyPack } from "../src/index.js";

const SIZES = (process.env.BENCH_SIZES ?? "1000,10000,100000").split(",").map((s) => Number(s.trim()));
const RUNS = Number(process.env.BENCH_RUNS ?? "5");
const CACHE = join(os.tmpdir(), "bench-bounty-verifier-bench-v2");

function makePack(n: number): Uint8Array {
  const testSet = makeTestSet(n);
  const scoring: MintScoring = {
    speed_weight: "0.1",
    cost_weight: "0",
    time_budget_seconds: 3600,
    cost_budget_usdc: null,
    threshold_bps: 2000,
    payout_rule: "top_n_split",
  };
  const agents = [
    { id: "author-agent", author: true, skill: 97, wall: "600.000" },
    { id: "agent-1", author: false, skill: 90, wall: "900.000" },
    { id: "agent-2", author: false, skill: 80, wall: "1200.000" },
    { id: "agent-3", author: false, skill: 70, wall: "1500.000" },
  ];
  const root = commitTestSet(testSet).root;
  const runs: MintRun[] = agents.map((a, k) => {
    const answers = testSet.map((row) => answerFor(row, (row.ordinal * 7919 + k * 104729) % 100 < a.skill));
    const graded = testSet.map((row) => ({
      visibility: row.visibility,
      credit: grade(row.grader_type, row.gold, answers[row.ordinal]!),
    }));
    const rank_accuracy = rankAccuracy(graded, true);
    const input: BuildReceiptInput = {
      run_id: `run-${a.id}`,
      benchmark_slug: `bench-${n}`,
      commit_root: root,
      agent_id: a.id,
      attempt: 1,
      started_at: "2026-11-30T00:00:00.000Z",
      finalized_at: `2026-11-30T0${k + 1}:00:00.000Z`,
      wall_seconds: a.wall,
      queries_used: 0,
      usdc_spent: "0.000000",
      score_public: scorePublic(graded),
      score_composite: composite({ rank_accuracy, wall_seconds: a.wall, usdc_spent: "0.000000", ...scoring }),
      answer_salt: hex64(`answers-${a.id}`),
      tasks: testSet.map((row) => ({
        bank_ordinal: row.ordinal,
        prompt_hash: promptHash(row.prompt),
        visibility: row.visibility,
        answer_text: answers[row.ordinal]!,
      })),
    };
    return {
      agent_id: a.id,
      is_author_agent: a.author,
      receipt: buildReceipt(input),
      receipt_url: null,
      rank_accuracy,
      include_receipt: false,
      withdrawal_address: `0x${String(k + 1).padStart(40, "0")}`,
      answer_salt: input.answer_salt,
      answers: revealedAnswers(input),
    };
  });
  const pack: EvidencePack = mintEvidencePack({
    benchmark: {
      slug: `bench-${n}`,
      title: `Benchmark pack with ${n} tasks`,
      chain_id: 8453,
      bounty_contract: "0x00000000000000000000000000000000000000b0",
      bounty_id: "1",
      token: "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
      author: "0x00000000000000000000000000000000000000a0",
      awarder: "0x00000000000000000000000000000000000000a1",
      pool_base_units: "100000000",
      closes_at: 1_790_000_000,
      award_tx: `0x${"11".repeat(32)}`,
      award_block: 1000,
      commitment_anchor: {
        registry_address: "0x00000000000000000000000000000000000000c0",
        tx_hash: `0x${"22".repeat(32)}`,
        anchor_block: 10,
      },
    },
    test_set: testSet,
    scoring,
    runs,
  });
  return evidencePackBytes(pack);
}

function packFor(n: number): Uint8Array {
  mkdirSync(CACHE, { recursive: true });
  const file = join(CACHE, `pack-${n}.json`);
  if (existsSync(file)) return readFileSync(file);
  const t = performance.now();
  const bytes = makePack(n);
  writeFileSync(file, bytes);
  console.log(
    `  (minted the ${n}-task pack in ${((performance.now() - t) / 1000).toFixed(1)} s, ${(bytes.byteLength / 1e6).toFixed(1)} MB, cached at ${file})`,
  );
  return bytes;
}

/** The preimages the off-chain verification hashes, built in advance. */
function preimages(bytes: Uint8Array): Uint8Array[] {
  const pack = parseJson(bytes) as unknown as EvidencePack;
  const enc = new TextEncoder();
  const out: Uint8Array[] = [];
  for (const row of pack.test_set) {
    out.push(enc.encode(row.prompt));
    out.push(enc.encode(new TextDecoder().decode(canonicalJson(row.gold)) + row.salt));
    out.push(
      enc.encode(
        `{"gold_leaf":"${"0".repeat(64)}","ordinal":${row.ordinal},"prompt_hash":"${"0".repeat(64)}"}`,
      ),
    );
  }
  for (let level = pack.test_set.length; level > 1; level = Math.ceil(level / 2))
    for (let i = 0; i < Math.ceil(level / 2); i++) out.push(new Uint8Array(64));
  for (const w of pack.winners) {
    const salt = hexToBytes(w.answer_salt);
    for (const a of w.answers) {
      const t = enc.encode(a.answer_text);
      const buf = new Uint8Array(t.length + 32);
      buf.set(t);
      buf.set(salt, t.length);
      out.push(buf);
    }
    out.push(canonicalJson(w.receipt));
  }
  for (const r of pack.rank_derivation.rows) if (r.receipt) out.push(canonicalJson(r.receipt));
  out.push(canonicalJson(pack.rank_derivation));
  out.push(
    canonicalJson({
      benchmark: pack.benchmark,
      test_set: pack.test_set,
      winners: pack.winners,
      rank_derivation: pack.rank_derivation,
    }),
  );
  return out;
}

interface Timing {
  wallMs: number;
  cpuMs: number;
}

async function time(fn: () => unknown): Promise<Timing> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const wallMs = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wallMs, cpuMs: (c.user + c.system) / 1000 };
}

/** Run `fn` RUNS times: the run of median CPU time (a shared machine's load shifts single runs). */
async function median(fn: () => unknown): Promise<Timing> {
  const runs: Timing[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await time(fn));
  runs.sort((a, b) => a.cpuMs - b.cpuMs);
  return runs[Math.floor(runs.length / 2)] as Timing;
}

const fmt = (t: Timing): string =>
  `${t.cpuMs.toFixed(0).padStart(7)} ms cpu ${t.wallMs.toFixed(0).padStart(7)} ms wall`;

console.log(
  `bench:verifier  node ${process.version}, ${os.cpus().length} cpus, load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}, median of ${RUNS} runs (CPU time), Keccak-256 backend ${keccakBackend()}`,
);
/**
 * The generated pack verifies: every fact `verified` or `not-required` but those standing on the rows'
 * values, which the author agent's row, carrying no receipt and no winner's, leaves `unverified` (probe37
 * C-F1: such a row's values are the awarder's word), so the offline policy is not met by design.
 */
function verifiedButTheAwardersWord(r: Awaited<ReturnType<typeof verifyPack>>): boolean {
  const rowFacts = new Set(["composite", "ordering", "selection"]);
  return Object.entries(r.facts).every(
    ([name, f]) =>
      f.state === "verified" ||
      f.state === "not-required" ||
      f.state === "not-observed" ||
      (f.state === "unverified" && rowFacts.has(name)),
  );
}

const results: string[] = [];
for (const n of SIZES) {
  const bytes = packFor(n);
  // the preimages (261 MB in 700,011 arrays at 100k tasks) are dropped before verifying:
  // kept alive, they would make every GC of the verification walk them too
  let pre: Uint8Array[] | null = preimages(bytes);
  const preCount = pre.length;
  const preBytes = pre.reduce((s, p) => s + p.byteLength, 0);
  const keccak = await median(() => {
    for (const p of pre as Uint8Array[]) keccak256(p);
  });
  pre = null;
  let met = false;
  const verify = await median(async () => {
    const r = await verifyPack({ source: bytes });
    met = verifiedButTheAwardersWord(r);
  });
  if (!met) throw new Error(`the generated ${n}-task pack did not verify`);
  const ratio = verify.cpuMs / keccak.cpuMs;
  const line = `${String(n).padStart(7)} tasks  pack ${(bytes.byteLength / 1e6).toFixed(1).padStart(6)} MB  verify ${fmt(verify)}  bare keccak (${preCount} hashes, ${(preBytes / 1e6).toFixed(1)} MB) ${fmt(keccak)}  ratio ${ratio.toFixed(2)}x`;
  console.log(line);
  results.push(line);
}
