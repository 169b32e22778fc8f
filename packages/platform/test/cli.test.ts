import { spawnSync } from "node:child_process";
import { renameSync, writeFileSync } from "node:fs";
import { join, relative as relative_ } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { seattleWeatherCsvPath } from "../src/csv.js";
import { Platform } from "../src/platform.js";
import { RESUME_KEY_NOTE } from "../src/cli/run-commands.js";
import { seattlePublishArgs } from "../src/testing.js";
import { cleanup, cliAccount, programPattern, runCli, tempDir } from "./helpers.js";

afterEach(() => {
  cleanup();
  process.exitCode = 0;
  vi.restoreAllMocks();
});

const AGENT = fileURLToPath(new URL("./fixtures/agent.mjs", import.meta.url));

/**
 * The printed `<program> resume ...` line of `stderr` (`<program>` the clone's bin, `programPattern`),
 * pasted as printed into a shell (a stand-in for the program there prints its words): the CLI's
 * arguments. The line names no key (probe40 V-F6: its `--api-key "$BENCH_BOUNTY_API_KEY"` put the key in
 * the resume's process arguments, read by every local user in ps); the next line says to run it where
 * BENCH_BOUNTY_API_KEY holds the key ({@link runPasted}).
 */
function pastedResume(stderr: string): string[] {
  const m = new RegExp(`^ {2}${programPattern()} (resume .*)\\n(.*)$`, "m").exec(stderr);
  expect(m, stderr).not.toBeNull();
  expect(m![1]).not.toContain("--api-key");
  expect(m![2]).toBe(`  ${RESUME_KEY_NOTE}`);
  const pasted = spawnSync("bash", ["-c", `program() { printf '%s\\0' "$@"; }\nprogram ${m![1]}`], {
    env: { ...process.env },
    encoding: "utf8",
  });
  expect(pasted.status, pasted.stderr).toBe(0);
  return pasted.stdout.split("\0").slice(0, -1);
}

/** Runs the CLI with `args` where BENCH_BOUNTY_API_KEY holds `key`, as the printed resume's note says. */
async function runPasted(key: string, ...args: string[]): ReturnType<typeof runCli> {
  process.env.BENCH_BOUNTY_API_KEY = key;
  try {
    return await runCli(...args);
  } finally {
    delete process.env.BENCH_BOUNTY_API_KEY;
  }
}

describe("CLI", () => {
  it("validate prints row-numbered errors and exits 1 without a stack trace", async () => {
    const dir = tempDir();
    const file = join(dir, "d.json");
    writeFileSync(
      file,
      JSON.stringify({
        name: "d",
        rows: [
          { decision_ts: "2026-01-01", payload: { a: 1 }, label: "x" },
          { decision_ts: "soon", payload: { a: 2 }, label: "y" },
        ],
      }),
    );
    const r = await runCli("validate", file);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out);
    expect(report.errors[0]).toMatchObject({ row_index: 1, field: "decision_ts" });
    expect(r.err).not.toMatch(/at .*\.ts:\d+/);
  });

  it("publishes seattle-weather.csv, runs a CLI agent, shows the leaderboard, and refuses a bad template clearly", async () => {
    const store = tempDir();
    const csv = seattleWeatherCsvPath();
    const common = ["--store", store, "--label", "weather", "--decision-ts", "date", "--every", "100"];
    const bad = await runCli(
      "publish",
      csv,
      ...common,
      "--title",
      "W",
      "--template",
      "{payload.temp_max:.1f}",
      "--grader",
      "exact",
    );
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/^error: prompt_template: .*format specs/m);
    expect(bad.err).toContain('"reason": "format_spec"');

    const pub = await runCli(...seattlePublishArgs("seattle"), "--store", store);
    expect(pub.code).toBe(0);
    const published = JSON.parse(pub.out);
    expect(published.benchmark).toMatchObject({
      slug: "seattle",
      leaf_count: 15,
      public_count: 8,
      private_count: 7,
    });

    const key = await cliAccount(store, "bot-owner");
    // the keyless CLI is the local operator, which runs no agents
    const keyless = await runCli(
      "run",
      "seattle",
      "--store",
      store,
      "--agent",
      `node ${AGENT}`,
      "--agent-id",
      "bot",
    );
    expect(keyless.code).toBe(1);
    expect(keyless.err).toMatch(/operator_owns_no_agents/);
    // the command it names works when pasted (probe13 B4: --name was required), with the store added
    expect(keyless.err).toContain("bench-bounty account create;");
    const created = await runCli("account", "create", "--store", store);
    expect(created.code, created.err).toBe(0);
    expect(JSON.parse(created.out)).toMatchObject({
      account: { name: expect.stringMatching(/^agent-[0-9a-f]{10}$/) },
      api_key: expect.any(String),
    });
    const run = await runCli(
      "run",
      "seattle",
      "--store",
      store,
      "--api-key",
      key,
      "--agent",
      `node ${AGENT}`,
      "--agent-id",
      "bot",
      "--concurrency",
      "3",
      "--batch-size",
      "4",
      "--no-progress",
    );
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.out);
    expect(summary).toMatchObject({
      agent_id: "bot",
      attempt: 1,
      tasks: 15,
      outcomes: { answered: 15 },
      interrupted: false,
      attempts_remaining: 2,
    });
    // SPEC 6.1: while open the run prints the public composite only
    expect(summary.score_composite_public).toMatch(/^\d\.\d{4}$/);
    expect(summary).not.toHaveProperty("score_composite");

    const lb = await runCli("leaderboard", "seattle", "--store", store, "--json");
    expect(JSON.parse(lb.out).rows[0]).toMatchObject({ rank: 1, agent_id: "bot", run_id: summary.run_id });

    const other = await cliAccount(store, "rival");
    const stolen = await runCli("resume", summary.run_id, "--store", store, "--api-key", other);
    expect(stolen.code).toBe(1);
    expect(stolen.err).toMatch(/run_owner_only/);
    const resume = await runCli("resume", summary.run_id, "--store", store, "--api-key", key);
    expect(resume.code).toBe(1);
    expect(resume.err).toMatch(/^error: run .* is already finalized/m);
  }, 60_000);

  it("run for an agent with a run in progress prints the resume command, which finishes it when pasted (probe29 B-F7)", async () => {
    const store = tempDir();
    expect((await runCli(...seattlePublishArgs("seattle"), "--store", store)).code).toBe(0);
    const key = await cliAccount(store, "bot-owner");
    // the run started by another process (an HTTP client, a runner killed before its checkpoint)
    const platform = await Platform.open({ dir: store });
    const started = await platform.startRun(await platform.authenticate(key), "seattle", "bot");
    await platform.close();
    const again = await runCli(
      ...[
        "run",
        "seattle",
        "--store",
        store,
        "--api-key",
        key,
        "--agent",
        `node ${AGENT}`,
        "--agent-id",
        "bot",
      ],
    );
    expect(again.code).toBe(1);
    expect(again.err).toContain(`agent bot already has run ${started.run.id} in progress`);
    expect(again.err).not.toContain("finalize it first");
    expect(again.err).not.toContain(key);
    const argv = pastedResume(again.err);
    expect(argv).toEqual(["resume", started.run.id, "--store", store, "--agent", `node ${AGENT}`]);
    const resumed = await runPasted(key, ...argv, "--no-progress");
    expect(resumed.code, resumed.err).toBe(0);
    expect(JSON.parse(resumed.out)).toMatchObject({ run_id: started.run.id, attempt: 1 });
  });

  it("an agent named by a relative path fails; the printed resume names it absolute and finishes the run when pasted (probe31 B-F9 rest)", async () => {
    const store = tempDir();
    expect((await runCli(...seattlePublishArgs("seattle"), "--store", store)).code).toBe(0);
    const key = await cliAccount(store, "bot-owner");
    // relative to the runner's working directory, where the agent (in a directory of its own) finds no file
    const relative = relative_(process.cwd(), AGENT);
    expect(relative.startsWith("/")).toBe(false);
    const failed = await runCli(
      ...["run", "seattle", "--store", store, "--api-key", key, "--agent", `node ${relative}`],
      ...["--agent-id", "bot", "--no-progress"],
    );
    expect(failed.code).toBe(1);
    expect(failed.err).toContain("give it absolute paths");
    const argv = pastedResume(failed.err);
    expect(argv.slice(-2)).toEqual(["--agent", `node ${AGENT}`]);
    const resumed = await runPasted(key, ...argv, "--no-progress");
    expect(resumed.code, resumed.err).toBe(0);
    expect(JSON.parse(resumed.out)).toMatchObject({
      agent_id: "bot",
      attempt: 1,
      outcomes: { answered: expect.any(Number) },
    });
  });

  // probe33 B-F7: the line printed after `resume --agent B` failed (no --agent: "resume runs the same command
  // again") ran the checkpoint's first command A, not B, and printed itself again
  it("a resume's --agent is the run's agent from then on: the printed resume runs it again when pasted", async () => {
    const store = tempDir();
    expect((await runCli(...seattlePublishArgs("seattle"), "--store", store)).code).toBe(0);
    const key = await cliAccount(store, "bot-owner");
    const dir = tempDir();
    const [a, b] = [join(dir, "a.sh"), join(dir, "b.sh")];
    writeFileSync(a, "cat >/dev/null; echo agent-a >&2; exit 3\n");
    writeFileSync(b, "cat >/dev/null; echo agent-b >&2; exit 4\n");
    const failed = await runCli(
      ...["run", "seattle", "--store", store, "--api-key", key, "--agent", `sh ${a}`],
      ...["--agent-id", "bot", "--no-progress"],
    );
    expect(failed.err).toContain("agent-a");
    const runId = /run (run-[0-9a-f]{16})/.exec(failed.err)![1]!;
    const other = await runCli(
      ...["resume", runId, "--store", store, "--api-key", key, "--agent", `sh ${b}`, "--no-progress"],
    );
    expect(other.code).toBe(1);
    expect(other.err).toContain("agent-b");
    expect(other.err).toContain("resume runs the same command again");
    const argv = pastedResume(other.err);
    writeFileSync(b, `exec node ${AGENT}\n`); // fixed in place
    const resumed = await runPasted(key, ...argv, "--no-progress");
    expect(resumed.code, resumed.err).toBe(0);
    expect(JSON.parse(resumed.out)).toMatchObject({ run_id: runId, attempt: 1 });
  });

  // probe37 B-F3: a resume whose agent could not start once (its file moved after the run stopped) took the
  // answers of the earlier session for its own, finalized the attempt with zeros and exited 0
  it("a resume whose agent file was moved stops without finalizing, names the recorded command and prints its resume again", async () => {
    const store = tempDir();
    expect((await runCli(...seattlePublishArgs("seattle"), "--store", store)).code).toBe(0);
    const key = await cliAccount(store, "moved-owner");
    const dir = tempDir();
    const agent = join(dir, "agent.mjs");
    // answers the first task of its batch only: with one batch and --on-invalid abort the run stops in
    // progress with one answer stored
    writeFileSync(
      agent,
      `const c = []; for await (const x of process.stdin) c.push(x);
const t = JSON.parse(Buffer.concat(c).toString()).tasks[0];
process.stdout.write(JSON.stringify({ answers: [{ ordinal: t.ordinal, answer_text: "rain" }] }));\n`,
    );
    const first = await runCli(
      ...["run", "seattle", "--store", store, "--api-key", key, "--agent", `node ${agent}`],
      ...["--agent-id", "mover", "--batch-size", "100", "--on-invalid", "abort", "--no-progress"],
    );
    expect(first.code, first.err).toBe(1);
    const runId = /run (run-[0-9a-f]{16})/.exec(first.err)![1]!;
    renameSync(agent, join(dir, "moved.mjs"));
    const resumed = await runCli(
      ...["resume", runId, "--store", store, "--api-key", key],
      ...["--batch-size", "1", "--on-invalid", "skip", "--no-progress"],
    );
    expect(resumed.code, resumed.err).toBe(1);
    expect(resumed.out).toBe(""); // nothing finalized
    expect(resumed.err).toMatch(
      /^error: the agent failed before any answer was submitted \(task \d+: error: agent exited/,
    );
    expect(resumed.err).toContain(`attempt 1 is not used up`);
    expect(resumed.err).toContain(`the run's checkpoint records the agent command node ${agent}`);
    expect(pastedResume(resumed.err).slice(0, 2)).toEqual(["resume", runId]);
    // the same attempt goes on with the agent where it now is
    const fixed = await runCli(
      ...["resume", runId, "--store", store, "--api-key", key, "--agent", `node ${join(dir, "moved.mjs")}`],
      ...["--batch-size", "1", "--no-progress"],
    );
    expect(fixed.code, fixed.err).toBe(0);
    expect(JSON.parse(fixed.out)).toMatchObject({ run_id: runId, attempt: 1, interrupted: false });
  });
});
