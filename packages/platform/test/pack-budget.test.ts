/**
 * Issue 13 re-probe (answer padding): competitors decide half of the award's evidence pack (every
 * winner's answers, revealed verbatim, SPEC 8). "sun" + 99,997 x U+2028 is still credited by the exact
 * grader (White_Space is trimmed) but takes 300,002 bytes of canonical JSON (U+000B: 600,002), so enough padded winners made
 * the pack too large for good (`pack_too_large`: nobody paid). The pack budget derives each benchmark's
 * `max_answer_bytes` at publish; submit refuses more; the award of winners all padded to the limit fits
 * and verifies.
 */
import { canonicalJson, PACK_LIMITS, parseEvidencePack } from "@bench-bounty/evidence";
import { verifyPack } from "@bench-bounty/verifier";
import { afterEach, describe, expect, it } from "vitest";
import {
  ANSWER_ENTRY_BYTES,
  answerBudget,
  FIXED_PACK_BYTES,
  RECEIPT_TASK_BYTES,
  ROW_FIXED_BYTES,
  titlePackBytes,
  WINNER_FIXED_BYTES,
  answerPackBytes,
  MAX_ANSWER_LENGTH,
  MAX_PLACES,
  MIN_ANSWER_BYTES,
  maxRankedRows,
  rowReceiptsFit,
  rowsBudgetBytes,
  testSetReserveBytes,
} from "../src/pack-budget.js";
import { runBenchmark, type AgentSpec } from "../src/runner.js";
import { planPublication } from "../src/publish.js";
import {
  chainClock,
  chainConfig,
  cities,
  cleanup,
  helperAddress,
  lockPrize,
  manualClock,
  openTemp,
  rejection,
  useDevChain,
} from "./helpers.js";
import { citiesAnswer } from "../src/testing.js";

afterEach(cleanup);

const TEMPLATE = "What is the answer for {payload.city} #{payload.index}?";
const PAD = "\u000b"; // White_Space (trimmed by the exact grader), escaped as 6 bytes in canonical JSON

describe("the pack budget's arithmetic", () => {
  it("counts an answer's canonical-JSON bytes, escapes at their written width", () => {
    expect(answerPackBytes("sun")).toBe(3);
    expect(answerPackBytes(PAD)).toBe(6);
    expect(answerPackBytes("\u2028")).toBe(3);
    expect(answerPackBytes("\u0000")).toBe(6);
    expect(answerPackBytes("é")).toBe(2);
    expect(answerPackBytes('"')).toBe(2);
    expect(answerPackBytes("sun" + PAD.repeat(MAX_ANSWER_LENGTH - 3))).toBe(3 + 6 * (MAX_ANSWER_LENGTH - 3));
    expect(canonicalJson({ a: "x" + PAD }).byteLength).toBe(`{"a":""}`.length + answerPackBytes("x" + PAD));
  });

  it("a 512 MiB pack with a 256 MiB test set of 1,000 tasks allows answers of all their 100,000 characters only when they fit", () => {
    // the test set's share is its largest size (evidence's maxTestSetBytes), never its real bytes (SPEC 6.1)
    expect(testSetReserveBytes(PACK_LIMITS.maxPackBytes)).toBe(PACK_LIMITS.maxTestSetBytes);
    const big = answerBudget({
      maxPackBytes: PACK_LIMITS.maxPackBytes,
      titleBytes: 100,
      runTasks: 1000,
    });
    // 8 winners x 1,000 answers in what the test set, the rows and the receipts leave
    const spent = big.testSetBytes + big.fixedBytes + big.rowsBytes + big.winnersBytes;
    expect(spent + MAX_PLACES * 1000 * big.maxAnswerBytes).toBeLessThanOrEqual(PACK_LIMITS.maxPackBytes);
    expect(spent + MAX_PLACES * 1000 * (big.maxAnswerBytes + 1)).toBeGreaterThan(PACK_LIMITS.maxPackBytes);
    expect(big.testSetBytes).toBe(PACK_LIMITS.maxTestSetBytes);
    expect(big.maxAnswerBytes).toBeLessThan(6 * MAX_ANSWER_LENGTH);
    // a small benchmark: the character limit binds first (6 bytes a character at most)
    const small = answerBudget({
      maxPackBytes: PACK_LIMITS.maxPackBytes,
      titleBytes: 10,
      runTasks: 10,
    });
    expect(small.maxAnswerBytes).toBe(6 * MAX_ANSWER_LENGTH);
  });

  it("rows carry receipts only while all of them fit the rows' eighth of the pack", () => {
    const max = 8 * 1024 * 1024;
    expect(rowsBudgetBytes(max)).toBe(1024 * 1024);
    expect(rowReceiptsFit(max, [10, 10, 10])).toBe(true);
    expect(
      rowReceiptsFit(
        max,
        Array.from({ length: 10 }, () => 1000),
      ),
    ).toBe(false);
  });
});

const devChain = useDevChain();

/** A winner that pads each right answer with U+2028 to exactly `bytes` canonical-JSON bytes. */
function padded(
  name: string,
  clock: { advance: (ms: number) => void },
  ms: number,
  bytes: number,
): AgentSpec {
  return {
    kind: "function",
    name,
    answer: (task) => {
      clock.advance(ms);
      const right = citiesAnswer(task.prompt);
      const text = right + PAD.repeat(Math.floor((bytes - right.length) / answerPackBytes(PAD)));
      return text + " ".repeat(bytes - answerPackBytes(text)); // spaces (trimmed too) make up the rest
    },
  };
}

describe("winners padding every answer to the limit are awarded and verified (re-probe: pack_too_large)", () => {
  it("publish derives max_answer_bytes, submit refuses one byte more (and the probe's answers of 100,000 characters), the award fits and verifies", async () => {
    const dc = devChain();
    const { now: chainNow, clock } = await chainClock(dc);
    const maxPackBytes = 1024 * 1024; // a lowered PACK_LIMITS.maxPackBytes, so a small benchmark reaches it
    const platform = await openTemp({
      clock: clock.now,
      chain: chainConfig(dc, 0),
      faults: { maxPackBytes },
    });
    try {
      const ds = await platform.createDataset(cities(6, "padding"));
      const { slug, config } = await platform.publish(ds.dataset_id, {
        title: "Padding",
        prompt_template: TEMPLATE,
        grader_type: "exact",
        time_budget_seconds: 600,
      });
      const detail = await platform.real.benchmarkDetail(slug);
      const limit = detail.max_answer_bytes;
      expect(config.max_answer_bytes).toBe(limit);
      expect(limit).toBeGreaterThanOrEqual(MIN_ANSWER_BYTES);
      expect(limit).toBeLessThan(300_002); // the probe's answers do not fit this pack
      expect(detail.max_answer_length).toBe(MAX_ANSWER_LENGTH);

      const { closesAt } = await lockPrize(platform, dc, slug, chainNow, {
        pool: 10_000_000n,
        author: 1,
        payoutRule: "top_n_split",
      });

      // the probe's answer, and one byte over the limit, are refused naming answer_text and the limit
      const mallory = await platform.real.authenticate(
        (
          await platform.real.createAccount({
            name: "mallory",
            agent: { agent_id: "mallory", withdrawal_address: helperAddress("mallory") },
          })
        ).api_key,
      );
      const run = await platform.real.startRun(mallory, slug, "mallory");
      for (const text of [
        "sun" + PAD.repeat(MAX_ANSWER_LENGTH - 3),
        "sun" + "\u2028".repeat(MAX_ANSWER_LENGTH - 3),
        "a".repeat(limit + 1),
      ]) {
        const e = await rejection(
          platform.real.submit(mallory, run.run.id, [{ ordinal: 0, answer_text: text }]),
        );
        expect(e.code).toBe("invalid_answers");
        expect((e.details.errors as unknown[])[0]).toMatchObject({
          code: "answer_too_large",
          field: "answer_text",
          limit: "max_answer_bytes",
          max_answer_bytes: limit,
        });
      }
      const ok = await platform.real.submit(mallory, run.run.id, [
        { ordinal: 0, answer_text: "a".repeat(limit) },
      ]);
      expect(ok.accepted).toBe(1);
      await platform.real.finalize(mallory, run.run.id);

      // three winners, every answer padded to exactly the limit, still credited
      for (const [i, name] of ["w1", "w2", "w3"].entries()) {
        await platform.registerAgent(name, { withdrawal_address: dc.accounts[2 + i]!.address.toLowerCase() });
        await runBenchmark(
          await platform.backend(name),
          slug,
          name,
          padded(name, clock, 1000 * (i + 1), limit),
        );
      }
      await dc.increaseTime(3700);
      clock.set((closesAt + 200) * 1000);
      const award = await platform.award(slug);
      expect(award.winners).toHaveLength(3);
      const door: any = await platform.awardEvidence(slug);
      expect(door.kind).toBe("pack");
      expect(door.bytes.length).toBeLessThanOrEqual(maxPackBytes);
      const pack = parseEvidencePack(door.bytes);
      const answers = pack.winners.flatMap((w: any) => w.answers.map((a: any) => a.answer_text as string));
      expect(answers.length).toBe(18);
      for (const a of answers) expect(answerPackBytes(a)).toBe(limit);
      // each part within what the budget set aside for it (so 8 winners would fit too)
      const bytes = (v: unknown) => canonicalJson(v).byteLength;
      const tasks = 6;
      const { rows, ...derivation } = pack.rank_derivation;
      expect(
        bytes({ ...pack, test_set: [], winners: [], rank_derivation: { ...derivation, rows: [] } }),
      ).toBeLessThanOrEqual(FIXED_PACK_BYTES + titlePackBytes("Padding"));
      for (const w of pack.winners) {
        const blank = { ...w, answers: w.answers.map((a: any) => ({ ...a, answer_text: "" })) };
        expect(bytes(blank)).toBeLessThanOrEqual(
          WINNER_FIXED_BYTES + tasks * (RECEIPT_TASK_BYTES + ANSWER_ENTRY_BYTES),
        );
      }
      expect(rows).toHaveLength(4);
      for (const r of rows)
        expect(bytes(r)).toBeLessThanOrEqual(
          ROW_FIXED_BYTES + WINNER_FIXED_BYTES + tasks * RECEIPT_TASK_BYTES,
        );
      const report = await verifyPack({
        source: new Uint8Array(door.bytes),
        rpcUrl: dc.rpcUrl,
        policy: "onchain",
      });
      expect(Object.entries(report.facts).filter(([, f]) => f.state === "failed")).toEqual([]);
      expect(report.policy_met).toBe(true);
    } finally {
      await platform.close();
    }
  }, 180_000);

  it("a benchmark whose award pack could not fit is refused at publish, naming the limit and the numbers", async () => {
    const platform = await openTemp({ faults: { maxPackBytes: 64 * 1024 } });
    try {
      const ds = await platform.createDataset(cities(6, "nofit"));
      const e = await rejection(
        platform.publish(ds.dataset_id, { title: "No fit", prompt_template: TEMPLATE, grader_type: "exact" }),
      );
      expect(e.code).toBe("invalid_dataset");
      expect(e.details).toMatchObject({
        limit: "maxPackBytes",
        max_pack_bytes: 64 * 1024,
        places: MAX_PLACES,
        run_tasks: 6,
      });
      expect(e.message).toMatch(/65536 bytes \(PACK_LIMITS\.maxPackBytes\)/);
      expect(await platform.listBenchmarks()).toEqual([]);
    } finally {
      await platform.close();
    }
  });

  it("once the pack's rows are all taken, a new agent is refused (benchmark_full) and nothing is left of it; a closed benchmark registers no agent", async () => {
    const maxPackBytes = 140_000; // rows' eighth: 17,500 bytes, 8 rows of ROW_FIXED_BYTES
    // published at the real limit (a 140,000-byte pack leaves no room for the test set's half), then lowered
    const faults: { maxPackBytes?: number } = {};
    const platform = await openTemp({ faults });
    try {
      expect(maxRankedRows(maxPackBytes)).toBe(8);
      const ds = await platform.createDataset(cities(2, "full"));
      const { slug } = await platform.publish(ds.dataset_id, {
        title: "Full",
        prompt_template: TEMPLATE,
        grader_type: "exact",
      });
      faults.maxPackBytes = maxPackBytes;
      const p = platform.real;
      for (let i = 0; i < 8; i++) {
        const who = await p.authenticate((await p.createAccount({ name: `a${i}` })).api_key);
        await p.startRun(who, slug, `a${i}`);
      }
      const late = await p.authenticate((await p.createAccount({ name: "late" })).api_key);
      const e = await rejection(p.startRun(late, slug, "late-bot"));
      expect(e.code).toBe("benchmark_full");
      expect(e.details).toMatchObject({ limit: "max_ranked_agents", max_agents: 8 });
      expect(await p.getAgent("late-bot")).toBeNull();
      // an agent already on the board starts again (its attempts are not new rows)
      const a0 = await p.authenticate((await p.createAccount({ name: "a0-twin" })).api_key);
      expect((await rejection(p.startRun(a0, slug, "a0"))).code).toBe("forbidden");
      await platform.closeBenchmark(slug);
      expect((await rejection(p.startRun(late, slug, "late-bot"))).code).toBe("benchmark_closed");
      expect(await p.getAgent("late-bot")).toBeNull();
    } finally {
      await platform.close();
    }
  });
});

/** A dataset of `n` rows with the same prompts whatever `gold`, every label `gold`. */
function sameRows(n: number, gold: string) {
  const ds = cities(n, "gold");
  return { ...ds, rows: ds.rows.map((r) => ({ ...(r as Record<string, unknown>), label: gold })) };
}

describe("SPEC 6.1: max_answer_bytes is computed from public figures only (re-probe O4)", () => {
  it("two benchmarks differing only in their private gold serve byte-identical details and publish answers", async () => {
    const seen: unknown[] = [];
    const allowances: number[] = [];
    for (const gold of ["x", "y".repeat(2000)]) {
      const clock = manualClock();
      const h = await openTemp({ clock: clock.now });
      try {
        const ds = await h.createDataset(sameRows(200, gold));
        const published = await h.publish(ds.dataset_id, {
          title: "Gold",
          prompt_template: TEMPLATE,
          grader_type: "exact",
          public_fraction: "0",
          slug: "gold-probe",
          seed: "s",
        });
        expect(published.private_count).toBe(200);
        const detail = await h.real.benchmarkDetail("gold-probe");
        allowances.push(detail.max_answer_bytes);
        // what differs by construction: the dataset's id and the commitment (they hash the gold)
        const scrub = (v: unknown) =>
          JSON.parse(
            JSON.stringify(v, (k, x: unknown) =>
              ["dataset_id", "commit_root"].includes(k) ? "<hash>" : typeof x === "bigint" ? `${x}n` : x,
            ),
          );
        seen.push({ detail: scrub(detail), config: published.config });
      } finally {
        await h.close();
      }
    }
    expect(allowances[1]).toBe(allowances[0]);
    expect(seen[1]).toEqual(seen[0]);
    expect(allowances[0]).toBe(
      answerBudget({
        maxPackBytes: PACK_LIMITS.maxPackBytes,
        titleBytes: titlePackBytes("Gold"),
        runTasks: 200,
      }).maxAnswerBytes,
    );
  });

  it("a pack that cannot fit by the rows' count alone is refused before the test set is planned (probe17 A-F3)", async () => {
    const platform = await openTemp({ faults: { maxPackBytes: 64 * 1024 } });
    try {
      const p = await platform.principal("early-author");
      const ds = await platform.real.createDataset(p, cities(6, "nofit-early"));
      let planned = 0;
      const e = await rejection(
        platform.real.publish(
          p,
          ds.dataset_id,
          { title: "No fit", prompt_template: TEMPLATE, grader_type: "exact" },
          {
            planner: async (job) => {
              planned++;
              return planPublication(job);
            },
          },
        ),
      );
      expect(e).toMatchObject({ code: "invalid_dataset", details: { limit: "maxPackBytes", run_tasks: 6 } });
      expect(planned).toBe(0);
    } finally {
      await platform.close();
    }
  });

  it("a test set over the budget's reserve (half a lowered pack limit) is refused at publish, so the award still fits", async () => {
    const maxPackBytes = 1024 * 1024;
    const platform = await openTemp({ faults: { maxPackBytes } });
    try {
      // 6 rows of 100,000-byte gold: ~600 KB, over the 512 KiB reserved for the test set
      const ds = await platform.createDataset(sameRows(6, "g".repeat(100_000)));
      const e = await rejection(
        platform.publish(ds.dataset_id, {
          title: "Big gold",
          prompt_template: TEMPLATE,
          grader_type: "exact",
        }),
      );
      expect(e.code).toBe("invalid_dataset");
      expect(e.details).toMatchObject({
        limit: "maxPackBytes",
        test_set_reserve_bytes: testSetReserveBytes(maxPackBytes),
      });
      expect(e.details.test_set_bytes as number).toBeGreaterThan(testSetReserveBytes(maxPackBytes));
      expect(await platform.listBenchmarks()).toEqual([]);
    } finally {
      await platform.close();
    }
  });
});
