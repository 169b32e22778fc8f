/**
 * probe38 B-F2 / B-F3: `run --server` reads a run's task pages within a bound and stops at an interrupt.
 * A fake server on loopback answers a run start with a first page and `next_offset`, then:
 * - pages for ever (a strictly moving `next_offset`): the runner refuses the answer past
 *   `MAX_DATASET_ROWS` tasks as `invalid_answer`, exit 1, quickly, its memory bounded;
 * - pages whose ordinals go back: refused at the first such page, naming the ordinal;
 * - answers every task page 429 with `Retry-After: 60`: a SIGINT 2 s in stops the paging at once, the
 *   runner prints the run id and its `resume` line (with `--agent`: no checkpoint yet), exit 130, and
 *   that line, pasted, adopts the run and finishes it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { MAX_DATASET_ROWS } from "@bench-bounty/platform";
import { afterEach, describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, "..", "dist", "index.js");
const RUN = "run-00000000000000aa";

type Mode = "endless" | "backwards" | "rate_limited" | "gap" | "short" | "finalize429" | "reread_wait";

/** The fake server's state: its mode, whether task pages are refused 429 yet, the answers posted. */
interface Fake {
  mode: Mode;
  limited: boolean;
  taskPages: number;
  answers: Map<number, string>;
  status: "in_progress" | "finalized";
}

const task = (ordinal: number) => ({
  ordinal,
  prompt: `prompt ${ordinal} ${"x".repeat(64)}`,
  visibility: "public",
  grader_type: "exact",
});
const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => task(from + i));

/** A small run of the rate-limited fake: 3 tasks, the first page 0..1, the second 2 (the last). */
function smallPage(offset: number): { tasks: ReturnType<typeof task>[]; next_offset: number | null } {
  return offset === 0
    ? { tasks: range(0, 2), next_offset: 2 }
    : { tasks: range(offset, 3 - offset), next_offset: null };
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return chunks.length === 0 ? null : JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

function handler(f: Fake) {
  const run = () => ({
    id: RUN,
    run_id: RUN,
    benchmark: "some-slug",
    agent_id: "a1",
    attempt: 1,
    max_attempts: 3,
    attempts_remaining: 2,
    status: f.status,
  });
  return async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://x");
    const body = await bodyOf(req);
    if (req.method === "POST" && url.pathname === "/api/v1/benchmarks/some-slug/runs") {
      // gap: the first page names a next one past its end (2..4 never served); short: fewer tasks than it says
      if (f.mode === "gap")
        return send(res, 201, { run: run(), tasks: range(0, 2), next_offset: 5, task_count: 7 });
      if (f.mode === "short")
        return send(res, 201, { run: run(), tasks: range(0, 2), next_offset: null, task_count: 3 });
      const small = f.mode === "rate_limited" || f.mode === "finalize429" || f.mode === "reread_wait";
      const first = small ? smallPage(0) : { tasks: range(0, 1000), next_offset: 1000 };
      return send(res, 201, { run: run(), ...first, task_count: small ? 3 : 100_000 });
    }
    if (req.method === "GET" && url.pathname === `/api/v1/benchmarks/runs/${RUN}/tasks`) {
      f.taskPages++;
      const offset = Number(url.searchParams.get("offset") ?? "0");
      const answered_ordinals = [...f.answers.keys()].sort((a, b) => a - b);
      if (f.mode === "endless")
        return send(res, 200, {
          run_id: RUN,
          tasks: range(offset, 1000),
          next_offset: offset + 1000,
          answered_ordinals,
        });
      if (f.mode === "backwards")
        return send(res, 200, {
          run_id: RUN,
          tasks: range(0, 1000),
          next_offset: offset + 1000,
          answered_ordinals,
        });
      // reread_wait: the start's own page from 2 is served, the runner's re-read of it waits out a 429
      if (f.limited || (f.mode === "reread_wait" && offset === 2 && f.taskPages > 1))
        return send(
          res,
          429,
          { error: { code: "rate_limited", message: "slow down" } },
          { "retry-after": "60" },
        );
      return send(res, 200, { run_id: RUN, ...smallPage(offset), offset, answered_ordinals });
    }
    if (req.method === "GET" && url.pathname === `/api/v1/benchmarks/runs/${RUN}`)
      return send(res, 200, run());
    if (req.method === "POST" && url.pathname === `/api/v1/benchmarks/runs/${RUN}/submissions`) {
      const answers = (body as { answers: { ordinal: number; answer_text: string }[] }).answers;
      for (const a of answers) f.answers.set(a.ordinal, a.answer_text);
      return send(res, 200, { run_id: RUN, accepted: answers.length, answered: f.answers.size, total: 3 });
    }
    if (
      req.method === "POST" &&
      url.pathname === `/api/v1/benchmarks/runs/${RUN}/finalize` &&
      f.mode === "finalize429"
    )
      return send(
        res,
        429,
        { error: { code: "rate_limited", message: "rate limit: 60 requests a minute" } },
        { "retry-after": "1" },
      );
    if (req.method === "POST" && url.pathname === `/api/v1/benchmarks/runs/${RUN}/finalize`) {
      f.status = "finalized";
      return send(res, 200, { run_id: RUN, attempts_remaining: 2, score_public: "1", wall_seconds: 1 });
    }
    return send(res, 404, { error: { code: "not_found", message: `${req.method} ${url.pathname}` } });
  };
}

const servers: Server[] = [];
/** The runners spawned: one still running when its test ends (a failure) is killed then. */
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
});

async function fake(mode: Mode): Promise<{ url: string; f: Fake }> {
  const f: Fake = {
    mode,
    limited: mode === "rate_limited",
    taskPages: 0,
    answers: new Map(),
    status: "in_progress",
  };
  const server = createServer((req, res) => void handler(f)(req, res));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, f };
}

/** An agent that answers `a` to every task it is given. */
function answeringAgent(): string {
  const dir = mkdtempSync(join(tmpdir(), "bb-pages-agent-"));
  const file = join(dir, "agent.mjs");
  writeFileSync(
    file,
    `let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
  const j = JSON.parse(s);
  process.stdout.write(JSON.stringify({ answers: j.tasks.map((t) => ({ ordinal: t.ordinal, answer_text: "a" })) }));
});\n`,
  );
  return `${process.execPath} ${file}`;
}

/** `bench-bounty run some-slug --server URL ...`, spawned; its exit, output and the highest RSS seen (MB). */
function runRemote(
  url: string,
  store: string,
  agent: string,
  onSpawn: (pid: number) => void = () => {},
): Promise<{ code: number | null; stdout: string; stderr: string; maxRssMb: number; ms: number }> {
  const t0 = Date.now();
  const child = spawn(
    process.execPath,
    [bin, "run", "some-slug", "--server", url, "--store", store, "--agent", agent, "--agent-id", "a1"],
    { env: { ...process.env, BENCH_BOUNTY_API_KEY: "k".repeat(40) }, stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  let maxRssMb = 0;
  const sample = setInterval(() => {
    try {
      const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1];
      if (kb !== undefined) maxRssMb = Math.max(maxRssMb, Number(kb) / 1024);
      // an unbounded runner is stopped here rather than let grow (the machine is shared)
      if (maxRssMb > 800) child.kill("SIGKILL");
    } catch {
      // the process is gone
    }
  }, 50);
  onSpawn(child.pid!);
  return new Promise((resolve) =>
    child.on("exit", (code) => {
      clearInterval(sample);
      // the pipes' last bytes
      setTimeout(() => resolve({ code, stdout, stderr, maxRssMb, ms: Date.now() - t0 }), 50);
    }),
  );
}

describe("run --server reads a run's task pages within MAX_DATASET_ROWS (probe38 B-F2)", () => {
  it("a server whose pages never end: refused past the most tasks a run has, exit 1, quickly, memory bounded", async () => {
    const { url, f } = await fake("endless");
    const store = mkdtempSync(join(tmpdir(), "bb-pages-"));
    const r = await runRemote(url, store, "true");
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(
      `error: GET ${url}/api/v1/benchmarks/runs/:id/tasks: the run has more than ${MAX_DATASET_ROWS} tasks (the most a run has)`,
    );
    expect(r.stderr).toContain('"code": "invalid_answer"');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // the first page held 1,000 tasks: the pages past the total are never asked for
    expect(f.taskPages).toBe(MAX_DATASET_ROWS / 1000);
    expect(r.ms).toBeLessThan(30_000);
    expect(r.maxRssMb).toBeLessThan(500);
  }, 60_000);

  it("a page whose ordinals go back: refused at that page, naming the ordinal", async () => {
    const { url, f } = await fake("backwards");
    const store = mkdtempSync(join(tmpdir(), "bb-pages-"));
    const r = await runRemote(url, store, "true");
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(
      `error: GET ${url}/api/v1/benchmarks/runs/:id/tasks: the page from offset 1000 has ordinal 0 at tasks[0], not 1000`,
    );
    expect(f.taskPages).toBe(1);
    // the run was started on the server: its id and the resume line that adopts it (no checkpoint yet)
    expect(r.stderr).toContain(`run ${RUN} was started (attempt 1) before its tasks could all be read`);
    const line = /continue it with:\n {2}(.*)\n/.exec(r.stderr)?.[1];
    expect(line, r.stderr).toContain(`resume ${RUN} --store`);
    expect(line).toContain(`--server ${url}`);
    expect(line).toContain("--agent");
  }, 60_000);
});

describe("a start's first page and task_count (probe38 W-F4)", () => {
  it("a first page whose next_offset skips past its tasks is refused, no agent run", async () => {
    const { url, f } = await fake("gap");
    const store = mkdtempSync(join(tmpdir(), "bb-pages-"));
    const r = await runRemote(url, store, "true");
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('"code": "invalid_answer"');
    expect(f.taskPages).toBe(0);
    expect(f.answers.size).toBe(0);
  }, 60_000);

  it("pages holding fewer tasks than the start's task_count: refused with the run id and the adopting resume line", async () => {
    const { url, f } = await fake("short");
    const store = mkdtempSync(join(tmpdir(), "bb-pages-"));
    const r = await runRemote(url, store, "true");
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain("the start says task_count 3, its pages hold 2 tasks");
    const line = /continue it with:\n {2}(.*)\n/.exec(r.stderr)?.[1];
    expect(line, r.stderr).toContain(`resume ${RUN} --store`);
    expect(line).toContain("--agent");
    expect(f.answers.size).toBe(0);
  }, 60_000);
});

describe("a rate limit at the final finalize (probe38 W-F1)", () => {
  it("429 rate_limited: exit 1 with the run id and the resume line, the run left in progress", async () => {
    const { url, f } = await fake("finalize429");
    const store = mkdtempSync(join(tmpdir(), "bb-pages-"));
    const r = await runRemote(url, store, answeringAgent());
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain("rate limit: 60 requests a minute");
    expect(r.stderr).toMatch(
      /stays in progress \(attempt 1 is not used up\); once the cause is gone, resume it:\n/,
    );
    expect(r.stderr).toContain(`resume ${RUN} --store`);
    expect(f.answers.size).toBe(3);
    expect(f.status).toBe("in_progress");
  }, 60_000);
});

describe("an interrupt while the runner re-reads a started run's tasks (probe38 W-N2)", () => {
  it("SIGINT during the re-read's 429 wait: one message naming the run, then its resume line", async () => {
    const { url, f } = await fake("reread_wait");
    const store = mkdtempSync(join(tmpdir(), "bb-pages-"));
    const r = await runRemote(url, store, answeringAgent(), (pid) => {
      setTimeout(() => process.kill(pid, "SIGINT"), 2000);
    });
    expect(f.taskPages).toBeGreaterThanOrEqual(3); // the start's page, then the re-read's two
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain(
      `run ${RUN} was interrupted while its tasks were read; it stays in progress; continue it with:\n  `,
    );
    expect(r.stderr).not.toContain("was not finalized");
    expect(r.stderr.match(/ resume run-/g)).toHaveLength(1);
  }, 60_000);
});

describe("an interrupt while a run start's task pages are read (probe38 B-F3)", () => {
  it.each(["SIGINT", "SIGTERM"] as const)(
    "%s during a 429 Retry-After: 60 wait: exit 130 within seconds with the resume line; pasted, it finishes the run",
    async (sig) => {
      const { url, f } = await fake("rate_limited");
      const store = mkdtempSync(join(tmpdir(), "bb-pages-"));
      const agent = answeringAgent();
      let sentAt = 0;
      const r = await runRemote(url, store, agent, (pid) => {
        setTimeout(() => {
          sentAt = Date.now();
          process.kill(pid, sig);
        }, 2000);
      });
      expect(f.taskPages).toBeGreaterThanOrEqual(1); // it was waiting out a 429
      expect(r.code, r.stderr).toBe(130);
      expect(Date.now() - sentAt).toBeLessThan(5000);
      expect(r.stderr).toContain("interrupt: stopping after the tasks in flight; the run stays resumable");
      expect(r.stderr).toContain(
        `run ${RUN} was started (attempt 1) and interrupted while its tasks were read, before any agent ran`,
      );
      expect(r.stderr).not.toMatch(/^error:/m);
      const line = /continue it with:\n {2}(.*)\n/.exec(r.stderr)?.[1];
      expect(line, r.stderr).toContain(`resume ${RUN} --store`);
      expect(line).toContain(`--server ${url}`);
      expect(line).toContain("--agent");
      expect(f.answers.size).toBe(0);

      // the server lets the pages through now: the pasted line adopts the run and finishes it
      f.limited = false;
      // (spawned, not spawnSync: the fake server answers from this process)
      const pasted = await new Promise<{ status: number | null; stdout: string; stderr: string }>(
        (resolve) => {
          const child = spawn("sh", ["-c", line!], {
            env: { ...process.env, BENCH_BOUNTY_API_KEY: "k".repeat(40) },
            stdio: ["ignore", "pipe", "pipe"],
          });
          children.push(child);
          let stdout = "";
          let stderr = "";
          child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
          child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
          child.on("close", (status) => resolve({ status, stdout, stderr }));
        },
      );
      expect(pasted.status, pasted.stderr).toBe(0);
      expect(JSON.parse(pasted.stdout)).toMatchObject({ run_id: RUN, tasks: 3, outcomes: { answered: 3 } });
      expect([...f.answers.keys()].sort()).toEqual([0, 1, 2]);
      expect(f.status).toBe("finalized");
    },
    60_000,
  );
});
