/**
 * probe39 A-N2: `bench-bounty run --server` required `--agent-id` although the service starts a run as
 * the account's default agent when the start names none (`POST /benchmarks/:slug/runs` without
 * `agent_id`, probe38 A-F1). Without `--agent-id` the remote runner now leaves the choice to the server:
 * the run is the account's default agent's, which the checkpoint records and the summary prints; an
 * account with agents but none of its name is refused `no_default_agent` naming them, nothing started.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { call, publishCities, register, useLive } from "./helpers.js";

const CLI = new URL("../../cli/dist/index.js", import.meta.url).pathname;
const AGENT = new URL("./fixtures/cities-agent.mjs", import.meta.url).pathname;

const live = useLive();
let slug: string;
beforeAll(async () => {
  slug = (await publishCities(live.url, 4, "default-agent")).slug;
});

/** `bench-bounty run SLUG --server URL ...more` with `key` in BENCH_BOUNTY_API_KEY: exit code, stdout, stderr. */
async function run(key: string, store: string, more: string[]) {
  return promisify(execFile)(
    process.execPath,
    [
      CLI,
      "run",
      slug,
      "--server",
      live.url,
      "--store",
      store,
      "--no-progress",
      "--agent",
      `node ${AGENT}`,
      ...more,
    ],
    { env: { PATH: process.env.PATH!, BENCH_BOUNTY_API_KEY: key }, encoding: "utf8" },
  ).then(
    (r) => ({ code: 0, out: r.stdout, err: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout, err: e.stderr }),
  );
}

describe("run --server without --agent-id (probe39 A-N2)", { timeout: 120_000 }, () => {
  it("runs as the account's default agent: the summary and the checkpoint name it", async () => {
    const me = await register(live.url, "default-runner");
    const store = mkdtempSync(join(tmpdir(), "bb-remote-default-"));
    const r = await run(me.key, store, []);
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out);
    expect(out).toMatchObject({ agent_id: me.agent_id, attempt: 1, outcomes: { answered: 4 } });
    expect(me.agent_id).toBe("default-runner");
    const checkpoint = JSON.parse(readFileSync(join(store, "runs", `${out.run_id}.json`), "utf8"));
    expect(checkpoint).toMatchObject({ run_id: out.run_id, agent_id: "default-runner" });
    const seen = await call(live.url, "GET", `/api/v1/benchmarks/runs/${out.run_id}`, { key: me.key });
    expect(seen.json).toMatchObject({ agent_id: "default-runner", status: "finalized" });
  });

  it("an account with agents but none of its name: refused no_default_agent naming them, nothing started", async () => {
    const me = await register(live.url, "nodef-runner", { agent_id: "nodef-runner-bot" });
    const store = mkdtempSync(join(tmpdir(), "bb-remote-default-"));
    const r = await run(me.key, store, []);
    expect(r.code).toBe(1);
    expect(r.err).toContain("no_default_agent");
    expect(r.err).toContain("which of its agents (nodef-runner-bot) starts the run is not guessed");
    expect(r.err).toContain("(here: run again with --agent-id ID)");
    expect(r.err).not.toMatch(/at .*\.js:\d+/);
    const mine = await call(live.url, "GET", "/api/v1/benchmarks/runs/mine", { key: me.key });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.json.runs).toEqual([]);
    // naming the agent runs it
    const named = await run(me.key, store, ["--agent-id", "nodef-runner-bot"]);
    expect(named.code, named.err).toBe(0);
    expect(JSON.parse(named.out)).toMatchObject({ agent_id: "nodef-runner-bot", attempt: 1 });
  });
});
