import { answerDigest } from "@bench-bounty/evidence";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { agentLogDroppedNote, MAX_AGENT_LOG_BYTES } from "../src/agent-log.js";
import { MAX_AGENT_STDOUT_BYTES } from "../src/agent-process.js";
import { PlatformError } from "../src/errors.js";
import {
  readCheckpoint,
  resumeRun,
  runBenchmark,
  type AgentSpec,
  type RunnerOptions,
  type RunnerResult,
} from "../src/runner.js";
import { relativePathNote } from "../src/runner/agent.js";
import { acquireRunLock, runLockFile } from "../src/runner/lock.js";
import { cities, cleanup, manualClock, promptAgent, tempDir, openAt, type Harness } from "./helpers.js";

afterEach(cleanup);

const TEMPLATE = "What is the answer for {payload.city} #{payload.index}?";
const AGENT = fileURLToPath(new URL("./fixtures/agent.mjs", import.meta.url));

/**
 * Every store's randomness: the same bytes, so every store has the same secret id key and thus the same
 * run ids (keyed with it, probe29 A-F9), on which receipts and answer salts depend.
 */
const SAME_BYTES = (n: number) => new Uint8Array(n).fill(7);

/** A store with the 16-city benchmark published from the same seed (so every store has the same plan). */
async function store(dir = tempDir()) {
  const clock = manualClock();
  const platform = await openAt({
    dir,
    clock: clock.now,
    answerSaltSeed: "same-salt",
    randomBytes: SAME_BYTES,
  });
  const ds = await platform.createDataset(cities(16));
  const res = await platform.publish(ds.dataset_id, {
    title: "Cities",
    prompt_template: TEMPLATE,
    grader_type: "exact",
    seed: "same",
    time_budget_seconds: 60,
  });
  return { platform, clock, slug: res.slug, dir };
}

/**
 * `runBenchmark` as agent `id` of store `s` (through its backend), the CLI test agent (`fixtures/agent.mjs`) in
 * `AGENT_MODE` `mode` (undefined: its honest mode), with `opts`.
 */
async function runAs(
  s: Awaited<ReturnType<typeof store>>,
  id: string,
  mode: string | undefined,
  opts: RunnerOptions,
): Promise<RunnerResult> {
  const agent: AgentSpec = {
    kind: "command",
    command: `node ${AGENT}`,
    ...(mode === undefined ? {} : { env: { AGENT_MODE: mode } }),
  };
  return runBenchmark(await s.platform.backend(id), s.slug, id, agent, opts);
}

/** Resumes run `runId` of store `s` with the CLI test agent in its honest mode. */
async function resumeHonest(s: Awaited<ReturnType<typeof store>>, runId: string): Promise<RunnerResult> {
  return resumeRun(await s.platform.backendOfRun(runId), runId, {
    kind: "command",
    command: `node ${AGENT}`,
  });
}

/** A resume that finished the attempt the failure left unused: attempt 1, every task answered, 2 left. */
function expectSameAttemptFinished(r: RunnerResult): void {
  expect(r.attempt).toBe(1);
  expect(r.finalized!.counts.answered).toBe(r.task_count);
  expect(r.finalized!.attempts_remaining).toBe(2);
}

/** An in-process agent that takes 25 ms of the manual clock per task. */
function inProcess(clock: { advance: (ms: number) => void }): AgentSpec {
  return {
    kind: "function",
    name: "prompt-agent",
    answer: async (task) => {
      await new Promise((r) => setTimeout(r, 2));
      clock.advance(25);
      return promptAgent(task.prompt);
    },
  };
}

async function fingerprint(platform: Harness, r: RunnerResult) {
  const run = await platform.getRun(r.run_id);
  return {
    plan: run.plan,
    digests: run.receipt!.tasks.map((t) => t.answer_digest),
    accuracy: run.rank_accuracy,
    score_public: run.score_public,
    composite: run.score_composite,
    receipt_hash: run.receipt_hash,
  };
}

describe("runner equivalence", () => {
  it("sequential, parallel and interrupted-then-resumed runs give identical plans, answer digests and accuracies", async () => {
    const seq = await store();
    const rSeq = await runBenchmark(
      await seq.platform.backend("agent-1"),
      seq.slug,
      "agent-1",
      inProcess(seq.clock),
      {
        concurrency: 1,
      },
    );
    expect(rSeq.interrupted).toBe(false);

    const par = await store();
    const rPar = await runBenchmark(
      await par.platform.backend("agent-1"),
      par.slug,
      "agent-1",
      inProcess(par.clock),
      {
        concurrency: 5,
      },
    );

    const cut = await store();
    const ac = new AbortController();
    const rCut = await runBenchmark(
      await cut.platform.backend("agent-1"),
      cut.slug,
      "agent-1",
      inProcess(cut.clock),
      {
        concurrency: 1,
        signal: ac.signal,
        onOutcome: (_o, done) => {
          if (done === 6) ac.abort();
        },
      },
    );
    expect(rCut.interrupted).toBe(true);
    expect(rCut.finalized).toBeNull();
    expect((await cut.platform.getRun(rCut.run_id)).status).toBe("in_progress");
    expect(
      Object.keys(readCheckpoint(await cut.platform.backendOfRun(rCut.run_id), rCut.run_id).outcomes),
    ).toHaveLength(6);
    // a new process: reopen the store and resume from the checkpoint
    await cut.platform.close();
    const reopened = await openAt({
      dir: cut.dir,
      clock: cut.clock.now,
      answerSaltSeed: "same-salt",
      randomBytes: SAME_BYTES,
    });
    const asked: number[] = [];
    const base = inProcess(cut.clock);
    const counting: AgentSpec = {
      kind: "function",
      name: "prompt-agent",
      answer: (t, s) => (asked.push(t.ordinal), base.kind === "function" ? base.answer(t, s) : null),
    };
    const rRes = await resumeRun(await reopened.backendOfRun(rCut.run_id), rCut.run_id, counting);
    expect(rRes.interrupted).toBe(false);
    expect(asked).toHaveLength(rSeq.task_count - 6);

    const a = await fingerprint(seq.platform, rSeq);
    expect(await fingerprint(par.platform, rPar)).toEqual(a);
    expect(await fingerprint(reopened, rRes)).toEqual(a);
    // the digests are those of the expected answers under the run's salt
    const run = await seq.platform.getRun(rSeq.run_id);
    const tasks = await seq.platform.runTasks(rSeq.run_id);
    expect(a.digests).toEqual(tasks.map((t) => answerDigest(promptAgent(t.prompt), run.answer_salt!)));
    await reopened.close();
  });

  it("a CLI agent gives the same answers one task per process and in parallel batches", async () => {
    const one = await store();
    const rOne = await runAs(one, "cli", undefined, { concurrency: 1 });
    const batched = await store();
    const rBatched = await runAs(batched, "cli", undefined, { concurrency: 3, batchSize: 5 });
    expect(rOne.outcomes.every((o) => o.status === "answered")).toBe(true);
    const d1 = await fingerprint(one.platform, rOne);
    const d2 = await fingerprint(batched.platform, rBatched);
    expect(d2.plan).toEqual(d1.plan);
    expect(d2.digests).toEqual(d1.digests);
    expect(d2.accuracy).toEqual(d1.accuracy);
  }, 60_000);
});

describe("runner policies", () => {
  it("per-task timeout with policy skip: the task stays unanswered and the run is finalized", async () => {
    const s = await store();
    const r = await runAs(s, "sleepy", "sleep-on-5", { concurrency: 4, taskTimeoutMs: 5000 });
    const tasks = await s.platform.runTasks(r.run_id);
    const five = tasks.find((t) => t.prompt.includes("#5"))!;
    expect(r.outcomes.find((o) => o.ordinal === five.ordinal)).toMatchObject({ status: "timeout" });
    expect(r.outcomes.filter((o) => o.status === "answered")).toHaveLength(tasks.length - 1);
    expect(r.finalized!.counts.answered).toBe(tasks.length - 1);
    expect((await s.platform.getRun(r.run_id)).receipt!.tasks[five.ordinal]!.answer_digest).toBeNull();
  }, 60_000);

  it("garbage output after an answer is an invalid outcome under policy skip, and the run is finalized", async () => {
    const s = await store();
    const r = await runAs(s, "garbage", "garbage-after-0", { batchSize: 1, concurrency: 1 });
    expect(r.outcomes.find((o) => o.ordinal === 0)).toEqual({ ordinal: 0, status: "answered" });
    const rest = r.outcomes.filter((o) => o.ordinal !== 0);
    expect(rest).toHaveLength(r.task_count - 1);
    for (const o of rest)
      expect(o).toEqual({
        ordinal: o.ordinal,
        status: "invalid",
        reason: `stdout is not one JSON document: unexpected character "I" at offset 0, expected a value; stdout starts "I think it is rain\\n"`,
      });
    expect(r.finalized!.counts.answered).toBe(1);
  }, 60_000);

  // probe39 B-F3: an agent that exited 0 with no JSON document on stdout for every task was finalized with
  // zero answers (its attempt used up), while the same agent exiting 1 cost no attempt
  it("an agent that exits 0 with no JSON document before any answer costs no attempt: the run stays in progress, resume continues it", async () => {
    const s = await store();
    const cases = [
      {
        id: "garbage",
        agent: { kind: "command", command: `node ${AGENT}`, env: { AGENT_MODE: "garbage" } },
        says: `stdout is not one JSON document: unexpected character "I" at offset 0, expected a value; stdout starts "I think it is rain\\n"`,
      },
      {
        id: "silent",
        agent: { kind: "command", command: "cat >/dev/null; echo 'model error' >&2" },
        says: "stdout is not one JSON document: it is empty: the agent exited 0 and printed no answer; its stderr ends:\n    model error",
      },
      {
        id: "traceback",
        agent: {
          kind: "command",
          command:
            "cat >/dev/null; echo 'Traceback (most recent call last): ModuleNotFoundError: No module named openai'",
        },
        says: `stdout is not one JSON document: unexpected character "T" at offset 0, expected a value; stdout starts "Traceback (most recent call last): Modul"...`,
      },
      // probe39 V-F1: a Latin-1 error line, and NaN, which no JSON parser reads
      {
        id: "latin1",
        agent: { kind: "command", command: "cat >/dev/null; printf 'Erreur: \\351chec\\n'" },
        says: "stdout is not one JSON document: it is not UTF-8: invalid byte sequence at byte offset 8 ($)",
      },
      {
        id: "nan",
        agent: { kind: "command", command: `cat >/dev/null; echo '{"answers":NaN}'` },
        says: "stdout is not strict JSON (SPEC 2): nan at $.answers",
      },
    ] as const;
    for (const c of cases) {
      const e = await runBenchmark(await s.platform.backend(c.id), s.slug, c.id, c.agent, {
        batchSize: 4,
        concurrency: 2,
      }).catch((x: unknown) => x);
      expect(e, c.id).toBeInstanceOf(PlatformError);
      const err = e as PlatformError;
      expect(err.code).toBe("agent_failed");
      expect(err.details).toMatchObject({
        attempt: 1,
        attempt_used: false,
        status: "invalid",
        reason: c.says,
      });
      expect(err.message).toContain(
        `the agent failed before any answer was submitted (task ${err.details.ordinal as number}: invalid: ${c.says})`,
      );
      expect(err.message).toMatch(/attempt 1 is not used up/);
      expect(err.message).toMatch(/resume run-[0-9a-f]+\)$/);
      const runId = err.details.run_id as string;
      expect((await s.platform.getRun(runId)).status).toBe("in_progress");
      expect(Object.keys(readCheckpoint(await s.platform.backendOfRun(runId), runId).outcomes)).toEqual([]);
      // the same attempt goes on with a fixed agent
      expectSameAttemptFinished(await resumeHonest(s, runId));
    }
  }, 60_000);

  it("an agent that crashes before any answer costs no attempt: nothing is finalized, resume continues it", async () => {
    const s = await store();
    let err: unknown;
    try {
      await runAs(s, "crash", "exit", { batchSize: 4, concurrency: 2 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PlatformError);
    const e = err as PlatformError;
    expect(e.code).toBe("agent_failed");
    expect(e.details).toMatchObject({ attempt: 1, attempt_used: false, status: "error" });
    expect(e.message).toMatch(/failed before any answer was submitted/);
    expect(e.message).toMatch(/agent exited with status 3; its stderr ends:\n {4}agent crashed on purpose/);
    expect(e.message).toMatch(/attempt 1 is not used up/);
    const runId = e.details.run_id as string;
    const run = await s.platform.getRun(runId);
    expect(run.status).toBe("in_progress");
    // no failed outcome was recorded: resume asks every task again, in the same attempt
    expectSameAttemptFinished(await resumeHonest(s, runId));
  }, 60_000);

  // probe37 B-F3: the rule was judged on the run's answers, so a resume whose agent could not start once
  // (its file moved after the interruption) finalized the attempt with zeros for every task left
  it("a resume whose agent fails before any answer of its own costs no attempt either, and names the command it ran", async () => {
    const s = await store();
    const copy = join(tempDir(), "agent.mjs");
    writeFileSync(copy, readFileSync(AGENT));
    const ac = new AbortController();
    const cut = await runBenchmark(
      await s.platform.backend("moved"),
      s.slug,
      "moved",
      { kind: "command", command: `node ${copy}` },
      { signal: ac.signal, onOutcome: (_o, done) => done === 2 && ac.abort() },
    );
    expect(cut.interrupted).toBe(true);
    expect(cut.outcomes.filter((o) => o.status === "answered").length).toBeGreaterThanOrEqual(2);
    rmSync(copy); // a careless tidy-up between the interruption and the resume
    const backend = await s.platform.backendOfRun(cut.run_id);
    const e = await resumeRun(backend, cut.run_id).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PlatformError);
    expect(e).toMatchObject({
      code: "agent_failed",
      details: { run_id: cut.run_id, attempt: 1, attempt_used: false, status: "error" },
    });
    const message = (e as PlatformError).message;
    expect(message).toMatch(/failed before any answer was submitted/);
    expect(message).toContain(`the run's checkpoint records the agent command node ${copy}`);
    expect(message).toContain("add --agent CMD to run another");
    expect(message).toMatch(new RegExp(`\\(resume ${cut.run_id}\\)$`));
    const run = await s.platform.getRun(cut.run_id);
    expect(run.status).toBe("in_progress");
    // nothing of the failed session was recorded: the checkpoint still has the interrupted run's outcomes
    expect(Object.keys(readCheckpoint(backend, cut.run_id).outcomes)).toHaveLength(cut.outcomes.length);
    // another command continues the same attempt
    const r = await resumeRun(backend, cut.run_id, { kind: "command", command: `node ${AGENT}` });
    expect(r.attempt).toBe(1);
    expect(r.finalized!.counts.answered).toBe(r.task_count);
    expect(r.finalized!.attempts_remaining).toBe(2);
  }, 60_000);

  // probe16 B-F13: a batch's timer of taskTimeoutMs x batchSize over 2^31-1 ms fired after 1 ms (Node clamps it)
  it("a timeout over a timer's maximum (2147483647 ms per batch) is refused before the run starts", async () => {
    const s = await store();
    const backend = await s.platform.backend("patient");
    const agent: AgentSpec = { kind: "command", command: `node ${AGENT}` };
    for (const [opts, field] of [
      [{ taskTimeoutMs: 2 ** 31 }, "taskTimeoutMs"],
      [{ taskTimeoutMs: 100_000_000, batchSize: 40 }, "batchSize"],
    ] as const) {
      const e = await runBenchmark(backend, s.slug, "patient", agent, opts).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: "invalid_option", details: { field } });
      expect((e as Error).message).toMatch(/2147483647 ms/);
    }
    expect(await s.platform.ctx.store.db.selectFrom("runs").selectAll().execute()).toHaveLength(0);
  });

  it("an agent that times out before any answer costs no attempt either", async () => {
    const s = await store();
    await expect(runAs(s, "slow", "sleep", { taskTimeoutMs: 300 })).rejects.toMatchObject({
      code: "agent_failed",
      details: { status: "timeout", attempt_used: false },
      message: expect.stringMatching(/raise the per-task timeout/),
    });
  }, 60_000);

  it("the error shows the useful tail of the agent's stderr, bounded; the log keeps all of it", async () => {
    const s = await store();
    const err = (await runAs(s, "noisy", "exit-noisy", { batchSize: 16 }).catch(
      (e: unknown) => e,
    )) as PlatformError;
    expect(err.code).toBe("agent_failed");
    const tail = err.message.slice(err.message.indexOf("its stderr ends:"));
    expect(tail).toContain("Error: the model API refused the key"); // the last line, the useful one
    expect(tail).toContain("noise line 90 "); // and the lines before it
    expect(tail).not.toContain("noise line 80 "); // but not all of them
    expect(err.message.length).toBeLessThan(2600);
    const log = readFileSync(join(s.dir, "runs", `${err.details.run_id as string}.agent.log`), "utf8");
    expect(log).toContain("noise line 1 ");
  }, 60_000);

  it("an agent that crashes after answering some tasks: under skip the run is finalized, each failure with its stderr", async () => {
    const s = await store();
    const r = await runBenchmark(
      await s.platform.backend("flaky"),
      s.slug,
      "flaky",
      {
        kind: "command",
        // first process answers, every later one crashes
        command: `if [ -e first ]; then echo boom >&2; exit 4; fi; touch first; node ${AGENT}`,
        cwd: tempDir(),
      },
      { batchSize: 4 },
    );
    const calls = r.outcomes.filter((o) => o.status === "error").length;
    expect(calls).toBe(r.task_count - 4);
    expect(
      r.outcomes
        .filter((o) => o.status === "error")
        .every((o) => /status 4; its stderr ends:\n {4}boom/.test(o.reason!)),
    ).toBe(true);
    expect(r.finalized!.counts.answered).toBe(4);
  }, 60_000);

  it("policy abort stops on an empty answer, keeps the run in progress, and resume asks that task again", async () => {
    const s = await store();
    let err: unknown;
    try {
      await runAs(s, "strict", "empty-on-2", { invalidAnswerPolicy: "abort" });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PlatformError);
    expect((err as PlatformError).code).toBe("agent_failed");
    const runId = (err as PlatformError).details.run_id as string;
    expect((await s.platform.getRun(runId)).status).toBe("in_progress");
    const r = await resumeHonest(s, runId);
    expect(r.finalized).not.toBeNull();
    expect(r.outcomes.every((o) => o.status === "answered")).toBe(true);
  }, 60_000);

  it("resume refuses a finalized run", async () => {
    const s = await store();
    const r = await runBenchmark(await s.platform.backend("a"), s.slug, "a", inProcess(s.clock));
    await expect(
      resumeRun(await s.platform.backendOfRun(r.run_id), r.run_id, inProcess(s.clock)),
    ).rejects.toMatchObject({
      code: "run_not_in_progress",
    });
  });

  // probe32 B-F7: the run id named the lock and checkpoint files before it was checked: `../x` created
  // (and removed) a lock outside the store, or died with ENOENT (exit 4) where its directory was missing
  it("resume refuses a value that is no run id before any file is named after it", async () => {
    const s = await store();
    const backend = await s.platform.backend("a");
    const outside = tempDir();
    for (const runId of [
      `../../../../../../../..${outside}/evil`,
      "../nonexistent-dir/x",
      "",
      "RUN-0123456789ABCDEF",
    ])
      for (const agent of [undefined, inProcess(s.clock)])
        await expect(resumeRun(backend, runId, agent)).rejects.toMatchObject({
          code: "invalid_option",
          details: { field: "run_id" },
          message: expect.stringContaining("run- and 16 hex digits"),
        });
    expect(existsSync(join(outside, "evil.lock"))).toBe(false);
  });
});

// probe24 B-F1: an agent's stderr was copied whole into the run's agent log (2 GB from one task)
describe("the agent log is bounded (probe24 B-F1)", () => {
  it("keeps the first MAX_AGENT_LOG_BYTES of a run's stderr over its processes, then one note of the bytes dropped; the run completes", async () => {
    const s = await store();
    const perProcess = 6_000_000; // 4 processes of 4 tasks: 24 MB in all, beyond the 16 MiB bound
    const r = await runBenchmark(
      await s.platform.backend("flood"),
      s.slug,
      "flood",
      {
        kind: "command",
        command: `head -c ${perProcess} /dev/zero | tr '\\0' e >&2; node ${AGENT}`,
      },
      { concurrency: 2, batchSize: 4 },
    );
    expect(r.finalized).not.toBeNull();
    expect(r.outcomes.every((o) => o.status === "answered")).toBe(true);
    const log = readFileSync(join(s.dir, "runs", `${r.run_id}.agent.log`));
    const note = agentLogDroppedNote(4 * perProcess - MAX_AGENT_LOG_BYTES);
    expect(log.length).toBe(MAX_AGENT_LOG_BYTES + Buffer.byteLength(note));
    expect(log.subarray(MAX_AGENT_LOG_BYTES).toString("utf8")).toBe(note);
    expect(log.subarray(0, MAX_AGENT_LOG_BYTES).every((b) => b === 0x65)).toBe(true); // all of it "e"
  }, 120_000);
});

// probe28 B-F6, B-F7: odd stdout of a CLI agent is an invalid answer naming what is wrong, never a guess
describe("an agent's stdout is read strictly (probe28 B-F6, B-F7)", () => {
  // probe39 V-F1: bytes that are not UTF-8 are no JSON document (RFC 8259 8.1): before any answer, a failed
  // process that costs no attempt, as empty or non-JSON stdout
  it("stdout that is not UTF-8 is no JSON document naming the byte offset, not U+FFFD graded as the answer", async () => {
    const s = await store();
    const e = (await runAs(s, "bytes", "bad-utf8", { concurrency: 4 }).catch(
      (x: unknown) => x,
    )) as PlatformError;
    expect(e).toBeInstanceOf(PlatformError);
    expect(e.code).toBe("agent_failed");
    const at = `{"answers":[{"ordinal":${e.details.ordinal as number},"answer_text":"`.length;
    expect(e.details).toMatchObject({
      attempt_used: false,
      status: "invalid",
      reason: `stdout is not one JSON document: it is not UTF-8: invalid byte sequence at byte offset ${at} ($.answers[0].answer_text)`,
    });
    expect(await s.platform.runAnswers(e.details.run_id as string)).toHaveProperty("size", 0);
  }, 60_000);

  it("an answer list naming one ordinal twice is an invalid answer naming the ordinal and both entries", async () => {
    const s = await store();
    const r = await runAs(s, "twice", "dup-ordinal", { batchSize: 4, concurrency: 2 });
    const tasks = await s.platform.runTasks(r.run_id);
    for (const o of r.outcomes) {
      const i = tasks.findIndex((t) => t.ordinal === o.ordinal) % 4; // its place in its batch of 4
      expect(o).toEqual({
        ordinal: o.ordinal,
        status: "invalid",
        reason: `ordinal ${o.ordinal} is answered more than once ($.answers[${2 * i}] and $.answers[${2 * i + 1}])`,
      });
    }
    expect(r.finalized!.counts.answered).toBe(0);
  }, 60_000);
});

// probe39 B-F2: stdout was read with JSON.parse, so a key written twice gave its last value (stored and
// graded), and `"ordinal": 0.0` answered task 0
describe("an agent's stdout is read by the strict parser of SPEC 2 (probe39 B-F2)", () => {
  it("a key written twice in an answer's object makes the batch invalid, naming its JSON path; nothing is stored", async () => {
    const s = await store();
    const r = await runAs(s, "dupkey", "dup-key", { batchSize: 4, concurrency: 2 });
    expect(r.outcomes).toHaveLength(r.task_count);
    for (const o of r.outcomes)
      expect(o).toEqual({
        ordinal: o.ordinal,
        status: "invalid",
        reason:
          "stdout is not strict JSON (SPEC 2): a key written twice in one object (neither value is taken) at $.answers[0].answer_text",
      });
    expect(r.finalized!.counts.answered).toBe(0);
    expect(await s.platform.runAnswers(r.run_id)).toHaveProperty("size", 0);
  }, 60_000);

  it("an ordinal written with a fraction (`3.0`) answers no task, named by its JSON path", async () => {
    const s = await store();
    const r = await runAs(s, "floaty", "float-ordinal", { concurrency: 2 });
    expect(r.outcomes).toHaveLength(r.task_count);
    for (const o of r.outcomes)
      expect(o).toEqual({
        ordinal: o.ordinal,
        status: "invalid",
        reason: `no answer for this ordinal (answering no task of the batch: $.answers[0].ordinal ${o.ordinal}.0 is not an integer (an ordinal has no fraction or exponent))`,
      });
    expect(r.finalized!.counts.answered).toBe(0);
  }, 60_000);
});

// probe33 B-F10: an agent whose stdout passed 16 MiB and kept writing was read and discarded until the
// batch's timeout, then reported as a timeout ("raise the per-task timeout")
describe("an agent's stdout is bounded while streaming (probe33 B-F10)", () => {
  it("stops an agent the moment its stdout passes MAX_AGENT_STDOUT_BYTES and answers its batch invalid, naming the limit", async () => {
    const s = await store();
    const started = Date.now();
    const r = await runBenchmark(
      await s.platform.backend("flood"),
      s.slug,
      "flood",
      { kind: "command", command: `cat >/dev/null; yes '{"answers":[]}'` },
      { batchSize: 100, taskTimeoutMs: 120_000 }, // one batch of every task: a timeout of 32 minutes
    );
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(r.outcomes.length).toBeGreaterThan(0);
    for (const o of r.outcomes) {
      expect(o.status).toBe("invalid");
      expect(o.reason).toMatch(
        new RegExp(
          `^stdout passed ${MAX_AGENT_STDOUT_BYTES} bytes \\(MAX_AGENT_STDOUT_BYTES\\): the agent was stopped after \\d+ bytes$`,
        ),
      );
    }
    expect(r.finalized!.counts.answered).toBe(0);
  }, 90_000);

  // probe33 B-F10 addendum: an agent that printed its answers, closed stdout and lingered was told "no answer"
  it("an agent that prints its answers and does not exit is told it must exit, not 'no answer'", async () => {
    const s = await store();
    const e = await runBenchmark(
      await s.platform.backend("linger"),
      s.slug,
      "linger",
      { kind: "command", command: `cat >/dev/null; printf '{"answers":[]}'; exec 1>&-; sleep 60` },
      { batchSize: 1, taskTimeoutMs: 6_000 }, // long enough for the sandbox to start on a loaded machine
    ).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PlatformError);
    expect((e as PlatformError).message).toMatch(
      /task \d+: timeout: the agent printed a JSON document \(14 bytes\) but did not exit within 6000 ms \(process killed\): it must exit 0 once it has printed its answers/,
    );
    expect((e as PlatformError).message).not.toMatch(/no answer within/);
  }, 30_000);
});

// probe31 B-F8: an entry whose ordinal is a string ("0") or not one of the batch's was dropped without a
// word, and its task reported "no answer for this ordinal"
describe("answers that answer no task are named (probe31 B-F8)", () => {
  it("a string ordinal, an ordinal not in the batch, a bare value, a missing ordinal: each by its JSON path", async () => {
    const s = await store();
    const stray = [
      { ordinal: "0", answer_text: "x" },
      { ordinal: 99, answer_text: "y" },
      7,
      { answer_text: "z" },
      { ordinal: null },
    ];
    const r = await runBenchmark(
      await s.platform.backend("stray"),
      s.slug,
      "stray",
      { kind: "command", command: `cat >/dev/null; printf '%s' '${JSON.stringify({ answers: stray })}'` },
      { batchSize: 100 }, // one batch of every task
    );
    const ordinals = (await s.platform.runTasks(r.run_id)).map((t) => t.ordinal).sort((a, b) => a - b);
    expect(ordinals.length).toBeGreaterThan(5);
    for (const o of r.outcomes)
      expect(o).toEqual({
        ordinal: o.ordinal,
        status: "invalid",
        reason:
          `no answer for this ordinal (answering no task of the batch: $.answers[0].ordinal is a string ("0"), not a number; ` +
          `$.answers[1].ordinal 99 is not an ordinal of this batch (${ordinals.slice(0, 5).join(", ")}, ...); ` +
          `$.answers[2] is a number (7), not {"ordinal", "answer_text"}; and 2 more)`,
      });
    expect(r.finalized!.counts.answered).toBe(0);
  }, 60_000);
});

// probe31 B-F9: `run --agent ./agent.sh` failed "not found" (the agent runs in a directory of its own),
// and nothing said why; the printed resume ran the same relative command again
describe("a failed agent's command with a relative path (probe31 B-F9)", () => {
  it("the error says the agent runs elsewhere and gives the command with absolute paths, which resume runs", async () => {
    const s = await store();
    const mine = realpathSync(tempDir());
    writeFileSync(join(mine, "agent.sh"), `#!/bin/sh\nexec node ${AGENT}\n`, { mode: 0o755 });
    const cwd = vi.spyOn(process, "cwd").mockReturnValue(mine); // the runner started in `mine`
    let failed: unknown;
    try {
      failed = await runBenchmark(await s.platform.backend("rel"), s.slug, "rel", {
        kind: "command",
        command: "./agent.sh",
      }).catch((e: unknown) => e);
    } finally {
      cwd.mockRestore();
    }
    const fix = `--agent ${join(mine, "agent.sh")}`;
    expect(failed).toMatchObject({
      code: "agent_failed",
      details: { attempt_used: false },
      message: expect.stringContaining(
        `note: the agent runs in a temporary working directory of its own, not in yours (${mine}), so a relative path in its command names no file there; give it absolute paths: ${fix}`,
      ),
    });
    // the note's line ends with the --agent word (probe32 B-F9: it ended with the `)` of "(task 0: ...)")
    const noteLine = /^note: .*$/m.exec((failed as PlatformError).message)?.[0];
    expect(noteLine).toMatch(new RegExp(`give it absolute paths: ${fix}$`));
    const runId = (failed as PlatformError).details.run_id as string;
    const r = await resumeRun(await s.platform.backendOfRun(runId), runId, {
      kind: "command",
      command: join(mine, "agent.sh"),
    });
    expect(r.outcomes.every((o) => o.status === "answered")).toBe(true);
    expect(r.attempt).toBe(1);
  }, 60_000);

  it("names the relative words of a command that exist in the runner's directory, and nothing else", () => {
    const mine = realpathSync(tempDir());
    writeFileSync(join(mine, "agent.py"), "");
    writeFileSync(join(mine, "it's.py"), "");
    expect(relativePathNote("python3 agent.py --fast", mine)).toMatch(
      new RegExp(`give it absolute paths: --agent '?python3 ${join(mine, "agent.py")} --fast'?$`),
    );
    expect(relativePathNote("python3 other.py", mine)).toBeUndefined();
    expect(relativePathNote(`python3 ${join(mine, "agent.py")}`, mine)).toBeUndefined();
    expect(relativePathNote("python3 'it's.py'", mine)).toBeUndefined();
  });
});

// probe31 B-F10: more than 10 tasks in flight printed Node's MaxListenersExceededWarning
describe("--concurrency over 10 (probe31 B-F10)", () => {
  it("prints no MaxListenersExceededWarning with every task in flight at once", async () => {
    const s = await store();
    const warnings: unknown[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on("warning", onWarning);
    try {
      let inFlight = 0;
      let release!: () => void;
      const all = new Promise<void>((r) => (release = r));
      const backend = await s.platform.backend("wide");
      const total = (await s.platform.startRun(s.slug, "probe")).tasks.length;
      expect(total).toBeGreaterThan(10);
      const r = await runBenchmark(
        backend,
        s.slug,
        "wide",
        {
          kind: "function",
          name: "gated",
          answer: async (t) => {
            if (++inFlight === total) release();
            await all;
            return promptAgent(t.prompt);
          },
        },
        { concurrency: 1000 },
      );
      expect(r.finalized).not.toBeNull();
      await new Promise((res) => setImmediate(res)); // a warning is emitted on the next tick
      expect(warnings).not.toContain("MaxListenersExceededWarning");
    } finally {
      process.off("warning", onWarning);
    }
  }, 60_000);
});

// probe28 B-F1: a resume of a run that another live runner drives ran the agent twice on every task
describe("one runner per run (probe28 B-F1)", () => {
  it("a resume while the run is being run is refused before its agent starts, naming the live process", async () => {
    const s = await store();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let first!: (runId: string) => void;
    const started = new Promise<string>((r) => (first = r));
    const running = runBenchmark(
      await s.platform.backend("live"),
      s.slug,
      "live",
      {
        kind: "function",
        name: "held",
        answer: async (t) => {
          first(t.run_id);
          await gate;
          return promptAgent(t.prompt);
        },
      },
      { concurrency: 1 },
    );
    const runId = await started;
    let asked = 0;
    const second: AgentSpec = {
      kind: "function",
      name: "second",
      answer: (t) => (asked++, promptAgent(t.prompt)),
    };
    const backend = await s.platform.backendOfRun(runId);
    await expect(resumeRun(backend, runId, second)).rejects.toMatchObject({
      code: "run_in_progress",
      details: { run_id: runId, rule: "one_runner_per_run", pid: process.pid },
      message: expect.stringContaining(`run ${runId} is being run by process ${process.pid}`),
    });
    expect(asked).toBe(0);
    release();
    const r = await running;
    expect(r.finalized).not.toBeNull();
    expect(existsSync(runLockFile(backend.checkpointDir, runId))).toBe(false);
  }, 60_000);

  it("the lock of a runner killed with SIGKILL does not block resume: its process is gone", async () => {
    const s = await store();
    const ac = new AbortController();
    const cut = await runBenchmark(await s.platform.backend("killed"), s.slug, "killed", inProcess(s.clock), {
      signal: ac.signal,
      onOutcome: (_o, done) => {
        if (done === 3) ac.abort();
      },
    });
    expect(cut.interrupted).toBe(true);
    const backend = await s.platform.backendOfRun(cut.run_id);
    // a runner process holding the lock: refused while it lives, taken over once it is killed -9
    const runner = spawn("sleep", ["60"], { stdio: "ignore" });
    const gone = new Promise((r) => runner.once("exit", r));
    acquireRunLock(backend.checkpointDir, cut.run_id, runner.pid!);
    await expect(resumeRun(backend, cut.run_id, inProcess(s.clock))).rejects.toMatchObject({
      code: "run_in_progress",
      details: { pid: runner.pid },
    });
    runner.kill("SIGKILL");
    await gone;
    const r = await resumeRun(backend, cut.run_id, inProcess(s.clock));
    expect(r.finalized).not.toBeNull();
    expect(r.outcomes.every((o) => o.status === "answered")).toBe(true);
    expect(existsSync(runLockFile(backend.checkpointDir, cut.run_id))).toBe(false);
  }, 60_000);
});
