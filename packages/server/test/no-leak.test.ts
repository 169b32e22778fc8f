/**
 * Nothing secret leaves before the award: a full walk (publish, two competitors using up their
 * attempts, every read route, REST and the one-command script) records every response body; none holds
 * a gold value, a task salt, a private score or a private task's correctness.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { call, register, useLive, type Exchange } from "./helpers.js";

const live = useLive();
const bodies: string[] = [];
const rec = async (p: Promise<Exchange>) => {
  const r = await p;
  bodies.push(r.text);
  return r;
};

/** Rows whose gold (`secret-<i>-<word>`) cannot be guessed from the prompt (which shows only `i`). */
const WORDS = ["amber", "basalt", "cobalt", "dune", "ember", "fjord", "garnet", "harbor", "indigo", "jasper"];
const dataset = {
  name: "secrets",
  rows: WORDS.map((w, i) => ({
    decision_ts: `2026-02-${String(i + 1).padStart(2, "0")}`,
    payload: { index: i },
    label: `secret-${i}-${w}`,
  })),
};

describe("no leak before the award", { timeout: 120_000 }, () => {
  it("records every body of a full walk and finds no gold, salt, private score or private correctness", async () => {
    const u = live.url;
    const author = await register(u, "secret-author");
    const ds = await rec(call(u, "POST", "/api/v1/datasets", { key: author.key, body: dataset }));
    const pub = await call(u, "POST", `/api/v1/datasets/${ds.json.dataset_id}/benchmark`, {
      key: author.key,
      body: {
        title: "Secrets",
        prompt_template: "Row {payload.index}",
        grader_type: "exact",
        public_fraction: "0.5",
        max_attempts: 2,
      },
    });
    expect(pub.status).toBe(201);
    const slug = pub.json.slug as string;
    const testSet = await live.platform.testSet(await live.platform.authenticate(author.key), slug);
    const privateGold = testSet
      .filter((t) => t.visibility === "private")
      .map((t) => JSON.stringify(t.gold).replace(/^"|"$/g, ""));
    const salts = testSet.map((t) => t.salt.replace(/^0x/, ""));
    expect(privateGold.length).toBe(5);

    for (const name of ["alice", "bob"]) {
      const me = await register(u, name);
      for (let attempt = 0; attempt < 2; attempt++) {
        await rec(call(u, "GET", `/api/v1/benchmarks/${slug}/corpus`, { key: me.key }));
        const start = await rec(call(u, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: me.key }));
        const runId = start.json.run.id;
        const answers = start.json.tasks.map((t: any) => ({
          ordinal: t.ordinal,
          answer_text: `guess-${t.ordinal}`,
        }));
        await rec(
          call(u, "POST", `/api/v1/benchmarks/runs/${runId}/submissions`, { key: me.key, body: { answers } }),
        );
        await rec(call(u, "GET", `/api/v1/benchmarks/runs/${runId}`, { key: me.key }));
        await rec(call(u, "GET", `/api/v1/benchmarks/runs/${runId}/tasks`, { key: me.key }));
        const fin = await rec(call(u, "POST", `/api/v1/benchmarks/runs/${runId}/finalize`, { key: me.key }));
        expect(fin.status).toBe(200);
        expect(fin.json.score_composite_public).toMatch(/^\d\.\d{4}$/);
        await rec(call(u, "GET", `/api/v1/benchmarks/${slug}/runs/${runId}/receipt`));
        await rec(call(u, "GET", `/api/v1/benchmarks/${slug}/runs/${runId}/receipt`, { key: me.key }));
        if (attempt === 1) expect(fin.json.per_task?.length ?? 0).toBeGreaterThan(0);
      }
      await rec(call(u, "GET", "/api/v1/benchmarks/runs/mine", { key: me.key }));
      await rec(call(u, "GET", "/api/v1/accounts/me", { key: me.key }));
      await rec(call(u, "GET", `/api/v1/benchmarks/${slug}/entries`, { key: me.key }));
      await rec(call(u, "GET", `/api/v1/benchmarks/${slug}/task-scores`, { key: me.key }));
    }
    const viaScript = await promisify(execFile)(
      "dash",
      ["assets/scripts/run-benchmark.sh", u, "start", slug],
      { encoding: "utf8" },
    );
    expect(viaScript.stdout).toContain('"tasks"');
    bodies.push(viaScript.stdout, viaScript.stderr);
    for (const path of [
      "/api/v1/benchmarks",
      `/api/v1/benchmarks/${slug}`,
      `/api/v1/benchmarks/${slug}/leaderboard`,
      `/api/v1/benchmarks/${slug}/commitment`,
      `/api/v1/benchmarks/${slug}/award-evidence`,
      `/api/v1/benchmarks/${slug}/entries`,
      `/api/v1/benchmarks/${slug}/task-scores`,
      `/api/v1/benchmarks/${slug}/verification`,
      `/api/v1/benchmarks/${slug}/verification/report`,
    ])
      await rec(call(u, "GET", path));
    // The OpenAPI document names response fields (score_composite of the per-task scores served after
    // close, for one) but holds no value: it is searched for gold and salts only.
    const openapi = (await call(u, "GET", "/api/v1/openapi.json")).text;
    expect(bodies.length).toBeGreaterThan(30);

    const leaks: string[] = [];
    bodies.forEach((b, i) => {
      for (const g of privateGold) if (b.includes(g)) leaks.push(`body ${i}: private gold ${g}`);
      for (const s of salts) if (b.includes(s)) leaks.push(`body ${i}: a task salt`);
      if (/"score_composite"\s*:/.test(b)) leaks.push(`body ${i}: score_composite`);
      if (/"rank_accuracy"\s*:\s*"/.test(b)) leaks.push(`body ${i}: rank_accuracy`);
      if (/"score_private"/.test(b)) leaks.push(`body ${i}: score_private`);
      if (/"visibility":"private"[^}]*"credit"|"credit"[^}]*"visibility":"private"/.test(b))
        leaks.push(`body ${i}: private correctness`);
    });
    for (const g of privateGold) if (openapi.includes(g)) leaks.push(`openapi.json: private gold ${g}`);
    for (const s of salts) if (openapi.includes(s)) leaks.push("openapi.json: a task salt");
    expect(leaks).toEqual([]);
  });
});
