/**
 * probe37 A-F2, remote: `bench-bounty run --server` overtaken by the close finalizes the run (its answers
 * given before the close ranked) and says so, exit 0; `resume --server` after the close does the same.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { call, publishCities, register, registerAndStartRun, useLive, runCli } from "./helpers.js";

const AGENT = new URL("./fixtures/cities-agent.mjs", import.meta.url).pathname;

/** Called before the domain takes each submission (the test closes the benchmark from it). */
let beforeSubmit: (n: number) => Promise<void> = async () => {};
let submissions = 0;
const live = useLive({
  wrapDomain: (d) => ({
    ...d,
    submit: async (p, runId, answers, opts) => {
      await beforeSubmit(submissions++);
      return d.submit(p, runId, answers, opts);
    },
  }),
});

describe("the benchmark closes while a remote runner runs", { timeout: 120_000 }, () => {
  it("run --server: the run is finalized with the answers given before the close, and the output says so", async () => {
    const { slug } = await publishCities(live.url, 8, "close-run");
    const me = await register(live.url, "close-runner");
    const store = mkdtempSync(join(tmpdir(), "bb-remote-close-"));
    submissions = 0;
    beforeSubmit = async (n) => {
      if (n === 3) await live.platform.closeBenchmark(live.platform.localOperator(), slug);
    };
    const r = await runCli(
      ["run", slug, "--server", live.url, "--store", store, "--no-progress"].concat([
        "--agent",
        `node ${AGENT}`,
        "--agent-id",
        me.agent_id,
      ]),
      { BENCH_BOUNTY_API_KEY: me.key },
    );
    beforeSubmit = async () => {};
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/the benchmark closed during run run-[0-9a-f]+: benchmark \S+ is closed/);
    expect(r.stderr).toMatch(/3 of 8 tasks were answered before the close: those answers count/);
    expect(r.stderr).toMatch(/run run-[0-9a-f]+ was finalized after the close/);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      closed_during_run: true,
      answered_before_close: 3,
      score_public: expect.any(String),
    });
    const run = await call(live.url, "GET", `/api/v1/benchmarks/runs/${out.run_id}`, { key: me.key });
    expect(run.json.status).toBe("finalized");
    expect(submissions).toBe(4); // the fourth was refused; nothing after it
  });

  it("resume --server after the close finalizes the run its answers given before it", async () => {
    const { slug } = await publishCities(live.url, 8, "close-resume");
    const { agent, start } = await registerAndStartRun(live.url, slug, "close-resumer");
    const runId = start.json.run.id as string;
    const sent = await call(live.url, "POST", `/api/v1/benchmarks/runs/${runId}/submissions`, {
      key: agent.key,
      body: {
        answers: [
          { ordinal: 0, answer_text: "a" },
          { ordinal: 1, answer_text: "b" },
        ],
      },
    });
    expect(sent.status, sent.text).toBe(200);
    await live.platform.closeBenchmark(live.platform.localOperator(), slug);
    const store = mkdtempSync(join(tmpdir(), "bb-remote-close-"));
    const r = await runCli(
      ["resume", runId, "--server", live.url, "--store", store, "--no-progress", "--agent", `node ${AGENT}`],
      { BENCH_BOUNTY_API_KEY: agent.key },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/2 of 8 tasks were answered before the close/);
    expect(JSON.parse(r.stdout)).toMatchObject({
      run_id: runId,
      closed_during_run: true,
      answered_before_close: 2,
    });
    const run = await call(live.url, "GET", `/api/v1/benchmarks/runs/${runId}`, { key: agent.key });
    expect(run.json.status).toBe("finalized");
  });
});
