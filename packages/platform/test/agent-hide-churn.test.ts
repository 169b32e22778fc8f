/**
 * probe36 B-F2: the walk that finds what a hidden directory links to (`linksInside` of `hiddenMounts`,
 * run before every agent process) read a directory, then `lstat`ed each entry: a file of a live store
 * (its `-journal`, a checkpoint's `*.tmp-PID`, a run's lock) removed between the two ended the run with
 * `internal error: ENOENT ... lstat`, exit 4, the run left in progress with no word of resume; and
 * `--agent-hide /proc` was an internal error too (`ENOENT ... scandir '/proc/9330'`). An entry that
 * vanishes is skipped (it hides nothing), `/proc` is refused naming the option, and an agent process
 * that cannot be made after the run started stops the run as `agent_failed`, its resume printed.
 */
import { spawn } from "node:child_process";
import { linkSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { agentHidePaths, bubblewrapAvailable, hiddenMounts } from "../src/agent-process.js";
import { LocalRunBackend } from "../src/backend.js";
import { runBenchmark } from "../src/runner.js";
import { seattlePublishArgs } from "../src/testing.js";
import {
  cities,
  CITIES_PUBLISH,
  cleanup,
  cliAccount,
  helperAddress,
  manualClock,
  openTemp,
  runCli,
  tempDir,
} from "./helpers.js";

afterEach(cleanup);

/**
 * The deterministic hook: an entry named `*-vanishing` is removed the moment the walk looks at it (after
 * its directory was read), as a live store's file is by its writer.
 */
vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs")>();
  const gone = (p: unknown) => String(p).endsWith("-vanishing");
  return {
    ...real,
    lstatSync: ((p: string, o?: object) => {
      if (gone(p)) real.rmSync(p, { recursive: true, force: true });
      return real.lstatSync(p, o);
    }) as typeof real.lstatSync,
    readdirSync: ((p: string, o?: object) => {
      if (gone(p)) real.rmSync(p, { recursive: true, force: true });
      return real.readdirSync(p, o as never);
    }) as typeof real.readdirSync,
  };
});

describe("an entry that vanishes while a hidden directory is walked hides nothing (probe36 B-F2)", () => {
  it("a file removed between the read of its directory and its lstat, a directory removed before its read: skipped", () => {
    const dir = realpathSync(tempDir());
    writeFileSync(join(dir, "platform.sqlite-journal-vanishing"), "x");
    mkdirSync(join(dir, "runs-vanishing"));
    writeFileSync(join(dir, "runs-vanishing", "run-1.json"), "{}");
    writeFileSync(join(dir, "kept"), "x");
    expect(hiddenMounts([dir])).toEqual([{ path: dir, kind: "dir" }]);
  });

  it("a symbolic link's target directory removed before its read: skipped", () => {
    const dir = realpathSync(tempDir());
    const target = join(realpathSync(tempDir()), "target-vanishing");
    mkdirSync(target);
    writeFileSync(join(target, "f"), "x");
    symlinkSync(target, join(dir, "link"));
    // the target is read (its real path): removed at its readdir, nothing of it left to hide or check
    expect(hiddenMounts([dir]).map((m) => m.path)).toContain(dir);
  });

  it("a directory whose files another process creates and deletes all along (bounded): every walk succeeds", async () => {
    const dir = realpathSync(tempDir());
    const churn = spawn(
      process.execPath,
      [
        "-e",
        `const fs=require("fs"),p=require("path");const end=Date.now()+2500;let i=0;` +
          `while(Date.now()<end){const f=p.join(${JSON.stringify(dir)},"f"+(i++%64)+"-journal");` +
          `fs.writeFileSync(f+".tmp","x");fs.renameSync(f+".tmp",f);fs.rmSync(f,{force:true});` +
          `const d=p.join(${JSON.stringify(dir)},"d"+(i%8));fs.mkdirSync(d,{recursive:true});` +
          `fs.writeFileSync(p.join(d,"x"),"x");fs.rmSync(d,{recursive:true,force:true});}`,
      ],
      { stdio: "ignore" },
    );
    const exited = new Promise<void>((resolve) => churn.on("exit", () => resolve()));
    let ended = false;
    void exited.then(() => (ended = true));
    let walks = 0;
    while (!ended) {
      expect(hiddenMounts([dir])).toEqual([{ path: dir, kind: "dir" }]);
      walks++;
      await new Promise((r) => setImmediate(r));
    }
    expect(walks).toBeGreaterThan(10);
  }, 20_000);
});

describe("--agent-hide /proc is refused naming the option (probe36 B-F2)", () => {
  it.each(["/proc", "/proc/self", "/proc/sys"])("%s: invalid_option, field agent-hide", (path) => {
    let e: unknown;
    try {
      agentHidePaths([path]);
    } catch (x) {
      e = x;
    }
    expect(e).toMatchObject({
      code: "invalid_option",
      details: { field: "agent-hide", path },
      message: expect.stringMatching(
        /^--agent-hide \/proc\S*: .* is the processes' view \(\/proc\)/,
      ) as unknown,
    });
  });

  it("run --agent-hide /proc and BENCH_BOUNTY_AGENT_HIDE=/proc: exit 1 naming it, never an internal error", async () => {
    const store = tempDir();
    expect((await runCli(...seattlePublishArgs("seattle"), "--store", store)).code).toBe(0);
    const key = await cliAccount(store, "b-f2-owner");
    const args = [
      ...["run", "seattle", "--store", store, "--api-key", key, "--agent", "true"],
      ...["--agent-id", "bf2agent", "--withdrawal-address", helperAddress("bf2agent"), "--no-progress"],
    ];
    const flag = await runCli(...args, "--agent-hide", "/proc");
    expect(flag.code, flag.err).toBe(1);
    expect(flag.err).toMatch(/^error: --agent-hide \/proc: \/proc is the processes' view/);
    vi.stubEnv("BENCH_BOUNTY_AGENT_HIDE", "/proc");
    try {
      const env = await runCli(...args);
      expect(env.code, env.err).toBe(1);
      expect(env.err).toMatch(
        /^error: BENCH_BOUNTY_AGENT_HIDE \(the environment form of --agent-hide\) \/proc: \/proc is the processes' view/,
      );
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe.skipIf(!bubblewrapAvailable())(
  "an agent process that cannot be made after the run started stops the run as agent_failed (probe36 B-F2)",
  () => {
    it("a hard link made in a hidden directory mid-run: agent_failed naming the cause, the run in progress", async () => {
      const h = await openTemp({ clock: manualClock().now });
      const ds = await h.createDataset(cities(3));
      const { slug } = await h.publish(ds.dataset_id, { ...CITIES_PUBLISH });
      const dir = realpathSync(tempDir());
      const backend = new LocalRunBackend(h.real, await h.principal("bf2"), [dir]);
      // one task per process: the agent answers the ordinal it is asked (read from its stdin)
      const agent = `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const t=JSON.parse(s).tasks[0];process.stdout.write(JSON.stringify({answers:[{ordinal:t.ordinal,answer_text:"x"}]}))})'`;
      let planted = false;
      const e = await runBenchmark(
        backend,
        slug,
        "bf2agent",
        { kind: "command", command: agent },
        {
          onOutcome: () => {
            if (planted) return;
            planted = true;
            writeFileSync(join(dir, "gold.txt"), "GOLD");
            linkSync(join(dir, "gold.txt"), join(tempDir(), "other-name"));
          },
        },
      ).catch((x: unknown) => x);
      expect(e).toMatchObject({
        code: "agent_failed",
        details: { attempt_used: false, cause_code: "invalid_option", ordinal: 1 },
      });
      const runId = (e as { details: { run_id: string } }).details.run_id;
      expect((e as Error).message).toMatch(
        new RegExp(
          `^the agent's process for task 1 could not be started: the store path \\S+gold\\.txt cannot be hidden .*2 hard links.*\\nrun ${runId} was not finalized and stays in progress .*\\(resume ${runId}\\)$`,
          "s",
        ),
      );
      expect((await h.getRun(runId)).status).toBe("in_progress");
    }, 60_000);
  },
);

describe("a hidden directory holding a link into /proc is refused before the run (probe36 V-F4)", () => {
  it("a directory with a link to /proc/self/fd: invalid_option, field agent-hide, naming the link and its target", () => {
    const dir = realpathSync(tempDir());
    symlinkSync("/proc/self/fd", join(dir, "fdlink"));
    let e: unknown;
    try {
      agentHidePaths([dir]);
    } catch (x) {
      e = x;
    }
    expect(e).toMatchObject({ code: "invalid_option", details: { field: "agent-hide", path: dir } });
    expect((e as Error).message).toMatch(
      new RegExp(
        `^--agent-hide ${dir}: cannot be hidden from a sandboxed agent \\(${join(dir, "fdlink")}\\): it leads to /proc/\\d+/fd, in the processes' view \\(/proc\\)`,
      ),
    );
    expect(() => hiddenMounts([dir])).toThrow(/fdlink cannot be hidden .*leads to \/proc\/\d+\/fd/);
  });

  it.skipIf(!realpathSync("/dev/fd").startsWith("/proc/"))("/dev (its fd -> /proc/self/fd): refused", () => {
    expect(() => agentHidePaths(["/dev"])).toThrow(
      /^--agent-hide \/dev: cannot be hidden from a sandboxed agent \(\/dev\/\S+\): it leads to \/proc\//,
    );
  });

  it("run --agent-hide DIR (a link into /proc inside): exit 1 naming it before the run starts", async () => {
    const store = tempDir();
    expect((await runCli(...seattlePublishArgs("seattle"), "--store", store)).code).toBe(0);
    const key = await cliAccount(store, "v-f4-owner");
    const dir = realpathSync(tempDir());
    symlinkSync("/proc/self/fd", join(dir, "fdlink"));
    const r = await runCli(
      ...["run", "seattle", "--store", store, "--api-key", key, "--agent", "true"],
      ...["--agent-id", "vf4agent", "--withdrawal-address", helperAddress("vf4agent"), "--no-progress"],
      ...["--agent-hide", dir],
    );
    expect(r.code, r.err).toBe(1);
    expect(r.err).toMatch(
      /^error: --agent-hide \S+: cannot be hidden from a sandboxed agent \(\S+fdlink\): it leads to \/proc\//,
    );
    expect(r.out + r.err).not.toMatch(/resume|run-[0-9a-f]{16}/);
  });
});
