/**
 * probe37 A-F3: the remote runner sends an agent batch's answers in one submissions request (it sent one
 * per answer: tasks x round trips on the scored wall clock); an agent answering one task at a time still
 * sends one per answer; a batch the server refuses `invalid_answers` is sent again answer by answer, so
 * only the refused answer is invalid.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { MAX_REQUEST_BODY_BYTES } from "@bench-bounty/client";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "../src/index.js";
import { call, publishCities, register, useLive } from "./helpers.js";

const CLI = new URL("../../cli/dist/index.js", import.meta.url).pathname;
const AGENT = new URL("./fixtures/cities-agent.mjs", import.meta.url).pathname;

/** The number of answers in each submissions request the domain took, in order. */
let sizes: number[] = [];
const live = useLive({
  wrapDomain: (d) => ({
    ...d,
    submit: async (p, runId, answers, opts) => {
      sizes.push(Array.isArray(answers) ? answers.length : -1);
      return d.submit(p, runId, answers, opts);
    },
  }),
});
let slug: string;
beforeAll(async () => {
  slug = (await publishCities(live.url, 8, "batch")).slug;
});

async function run(name: string, agent: string, more: string[]) {
  const me = await register(live.url, name);
  const store = mkdtempSync(join(tmpdir(), "bb-remote-batch-"));
  sizes = [];
  const r = await promisify(execFile)(
    process.execPath,
    [CLI, "run", slug, "--server", live.url, "--store", store, "--no-progress", "--agent", agent]
      .concat(["--agent-id", me.agent_id])
      .concat(more),
    { env: { PATH: process.env.PATH!, BENCH_BOUNTY_API_KEY: me.key }, encoding: "utf8" },
  );
  return { out: JSON.parse(r.stdout), me };
}

describe("the remote runner's submissions", { timeout: 120_000 }, () => {
  it("splits on the server's own body limit", () => {
    expect(MAX_REQUEST_BODY_BYTES).toBe(DEFAULT_LIMITS.bodyBytes);
  });

  it("an agent batch of 8 answers is one request; 4 batches of 2 are 4; one task a process is one request each", async () => {
    const whole = await run("batch-whole", `node ${AGENT}`, ["--batch-size", "8"]);
    expect(sizes).toEqual([8]);
    expect(whole.out).toMatchObject({ score_public: "1.0000", outcomes: { answered: 8 } });
    await run("batch-pairs", `node ${AGENT}`, ["--batch-size", "2"]);
    expect(sizes).toEqual([2, 2, 2, 2]);
    await run("batch-single", `node ${AGENT}`, []);
    expect(sizes).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  });

  it("a batch refused invalid_answers is sent again answer by answer: only the refused answer is invalid", async () => {
    // answers every task right, but the batch's first with a code point not assigned in Unicode 14 (U+0378)
    const dir = mkdtempSync(join(tmpdir(), "bb-remote-batch-agent-"));
    const agent = join(dir, "agent.mjs");
    writeFileSync(
      agent,
      `let input = "";
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", () => {
  const { tasks } = JSON.parse(input);
  const answers = tasks.map((t, i) => ({
    ordinal: t.ordinal,
    answer_text: i === 0 ? "bad\\u0378" : "answer-" + /#(\\d+)/.exec(t.prompt)[1],
  }));
  process.stdout.write(JSON.stringify({ answers }));
});
`,
    );
    const { out, me } = await run("batch-bad", `node ${agent}`, ["--batch-size", "8"]);
    expect(sizes).toEqual([8, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(out.outcomes).toEqual({ answered: 7, invalid: 1 });
    const run1 = await call(live.url, "GET", `/api/v1/benchmarks/runs/${out.run_id}`, { key: me.key });
    expect(run1.json.status).toBe("finalized");
  });
});
