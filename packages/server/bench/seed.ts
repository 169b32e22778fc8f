/**
 * Seeding of `bench:api`: a benchmark with many finalized runs, written straight into the store in one
 * transaction (10,000 runs through HTTP would take minutes and measure the write path, not the board).
 *
 * One run is played for real through the platform library (start, submit, finalize) and its finalized
 * fields are the template of the others: each seeded run has its own agent, run id, receipt hash,
 * scores and finalize time; the stored receipt body is the template's (the board never reads it).
 */
import { createHash } from "node:crypto";
import { canonicalJsonString } from "@bench-bounty/evidence";
import type { Platform } from "@bench-bounty/platform";

/** A score in [0, 1] with 4 decimals (SPEC 7.1) from `n` in 0..10000. */
const score4 = (n: number) => (n === 10_000 ? "1.0000" : `0.${String(n).padStart(4, "0")}`);

/**
 * Publishes a 4-task benchmark and seeds `runs` finalized runs (one agent each).
 * @returns the slug
 */
export async function seedBoard(platform: Platform, runs: number): Promise<string> {
  const author = await platform.createAccount({ name: `seed-author-${runs}` });
  const ap = await platform.authenticate(author.api_key);
  const ds = await platform.createDataset(ap, {
    name: `seed-${runs}`,
    rows: Array.from({ length: 4 }, (_, i) => ({
      decision_ts: "2026-01-01",
      payload: { index: i },
      label: `answer-${i}`,
    })),
  });
  const { slug } = await platform.publish(ap, ds.dataset_id, {
    title: `Board of ${runs} runs`,
    prompt_template: "Row #{payload.index}",
    grader_type: "exact",
    public_fraction: "0.5",
  });
  const player = await platform.createAccount({ name: `seed-player-${runs}` });
  const pp = await platform.authenticate(player.api_key);
  await platform.registerAgent(pp, `seed-template-${runs}`);
  const s = await platform.startRun(pp, slug, `seed-template-${runs}`);
  await platform.submit(
    pp,
    s.run.id,
    s.tasks.map((t) => ({ ordinal: t.ordinal, answer_text: `answer-${/#(\d+)/.exec(t.prompt)![1]}` })),
  );
  await platform.finalize(pp, s.run.id);
  const store = platform.ctx.store;
  const template = (await store.runs.get(s.run.id))!;
  const receiptJson = canonicalJsonString(template.receipt!);
  const createdAt = new Date().toISOString();
  await store.tx(async (t) => {
    for (let i = 1; i < runs; i++) {
      const agentId = `seed-${runs}-${i}`;
      const runId = `run-seed-${runs}-${i}`;
      const started = template.started_at_ms + i;
      await t.agents.insertIfAbsent(
        {
          agent_id: agentId,
          owner_account_id: pp.account_id,
          withdrawal_address: null,
          is_author_agent: false,
        },
        createdAt,
      );
      await t.runs.insert({
        run_id: runId,
        slug,
        agent_id: agentId,
        account_id: pp.account_id,
        attempt: 1,
        plan: template.plan,
        started_at_ms: started,
      });
      const score = score4((i * 7919) % 10_001);
      await t.runs.finalize(runId, {
        finalized_at_ms: started + 1000 + (i % 977),
        answer_salt: template.answer_salt!,
        receipt_json: receiptJson,
        receipt_hash: `0x${createHash("sha256").update(runId).digest("hex")}`,
        rank_accuracy: score,
        score_public: score,
        score_composite: score,
        score_composite_public: score,
        wall_seconds: `${1 + (i % 977)}.000`,
        queries_used: 0,
        usdc_spent: "0.000000",
      });
    }
    await t.benchmarks.bumpBoard(slug);
  });
  return slug;
}
