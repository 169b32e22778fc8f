/**
 * Issue 13 item 3, re-probed: under bubblewrap a CLI agent started by a root runner kept every
 * capability (`CapEff: 000001fffeffffff`), so it could `umount` the tmpfs that hides the store and
 * read every gold answer. The sandbox now drops every capability: the unmount is refused, the store
 * stays hidden, and the agent's effective capability set is empty. Re-probed again (F3): a store named
 * through a symlink made bwrap fail for every task; it is now hidden at its real path. SQLite only: a
 * PostgreSQL store is no local file to hide.
 */
import Database from "better-sqlite3";
import {
  chmodSync,
  chownSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { spawn } from "node:child_process";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  agentArgv,
  agentWorkRoot,
  bubblewrapAvailable,
  DATABASE_SOCKET_DIRS,
  hiddenMounts,
  runAgentProcess,
} from "../src/agent-process.js";
import { LocalRunBackend } from "../src/backend.js";
import { Store } from "../src/store.js";
import { checkAgentSandbox, resumeRun, runBenchmark } from "../src/runner.js";
import { seattlePublishArgs } from "../src/testing.js";
import {
  cities,
  CITIES_PUBLISH,
  cleanup,
  cliAccount,
  helperAddress,
  manualClock,
  openAt,
  openTemp,
  runCli,
  tempDir,
  TEST_ENGINE,
} from "./helpers.js";

afterEach(cleanup);

const AGENT = fileURLToPath(new URL("./fixtures/agent.mjs", import.meta.url));

/**
 * Where the runner's check of the agents' directory looks (undefined: the real `AGENTS_PARENT`): a test
 * that plants a directory of another owner does it in a directory of its own, never in the `/tmp` that
 * every runner of the machine (other tests included) shares.
 */
const planted = vi.hoisted(() => ({ parent: undefined as string | undefined }));
vi.mock("../src/agent-process.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../src/agent-process.js")>();
  return { ...real, agentWorkRoot: (parent?: string) => real.agentWorkRoot(parent ?? planted.parent) };
});

/** Runs `cmd` as an agent (hiding `hide`, in `cwd` when given); it must exit 0. @returns its stdout */
async function agentOutput(cmd: string, hide: string[], cwd?: string): Promise<string> {
  const r = await runAgentProcess(
    { command: cmd, hide, ...(cwd ? { cwd } : {}) },
    "",
    10_000,
    new AbortController().signal,
    join(tempDir(), "agent.log"),
  );
  if (r.kind !== "exit") throw new Error(`agent ${r.kind}`);
  expect(r.code, r.stderrTail).toBe(0);
  return Buffer.from(r.stdout).toString("utf8");
}

describe.skipIf(!bubblewrapAvailable() || TEST_ENGINE !== "sqlite")(
  "a sandboxed CLI agent cannot unhide the store",
  () => {
    it("has no capabilities, cannot umount the store's tmpfs, and never reads a gold", async () => {
      const clock = manualClock();
      const h = await openTemp({ clock: clock.now });
      const ds = await h.createDataset(cities(2));
      const { slug } = await h.publish(ds.dataset_id, {
        ...CITIES_PUBLISH,
      });
      const storeDir = h.ctx.store.dir;
      const spy = join(tempDir(), "escape.sh");
      // what the probe's agent did: umount the tmpfs over the store, then read the store file
      writeFileSync(
        spy,
        `#!/bin/sh
cat > /dev/null
cap=$(grep CapEff /proc/self/status | tr -s '\\t ' ' ' | cut -d' ' -f2)
umount ${JSON.stringify(storeDir)} 2>/dev/null && um=unmounted || um=refused
files=$(ls -A ${JSON.stringify(storeDir)} | wc -l)
printf '{"answers":[{"ordinal":0,"answer_text":"cap=%s umount=%s files=%s"}]}' "$cap" "$um" "$files"
`,
        { mode: 0o755 },
      );
      const r = await runBenchmark(await h.backend("escaper"), slug, "escaper", {
        kind: "command",
        command: `sh ${spy}`,
      });
      const answers = await h.runAnswers(r.run_id);
      const report = [...answers.values()][0]!;
      expect(report).toBe("cap=0000000000000000 umount=refused files=0");
    }, 60_000);
  },
);

describe("hidden paths are mounted at their real path (issue 13 re-probe F3)", () => {
  it("hides a store named through a symlink at the real directory, skips missing and nested paths", () => {
    const base = realpathSync(tempDir());
    mkdirSync(join(base, "real", "runs"), { recursive: true });
    symlinkSync(join(base, "real"), join(base, "link"));
    expect(hiddenMounts([join(base, "link"), join(base, "real", "runs"), join(base, "missing")])).toEqual([
      { path: join(base, "real"), kind: "dir" },
    ]);
    const argv = agentArgv("true", base, [join(base, "link")], true);
    expect(argv[argv.indexOf(join(base, "real")) - 1]).toBe("--tmpfs");
    expect(argv).not.toContain(join(base, "link"));
  });
});

describe.skipIf(!bubblewrapAvailable() || TEST_ENGINE !== "sqlite")(
  "a store named through a symlink (issue 13 re-probe F3)",
  () => {
    it("runs the agent, which sees neither the link nor the real directory's files", async () => {
      const base = tempDir();
      mkdirSync(join(base, "real"));
      symlinkSync(join(base, "real"), join(base, "link"));
      const link = join(base, "link");
      const real = join(base, "real");
      const clock = manualClock();
      const h = await openAt({ dir: link, clock: clock.now });
      const ds = await h.createDataset(cities(2));
      const { slug } = await h.publish(ds.dataset_id, CITIES_PUBLISH);
      const spy = join(tempDir(), "spy.sh");
      writeFileSync(
        spy,
        `#!/bin/sh
cat > /dev/null
l=$(ls -A ${JSON.stringify(link)} | wc -l)
r=$(ls -A ${JSON.stringify(real)} | wc -l)
printf '{"answers":[{"ordinal":0,"answer_text":"link=%s real=%s"}]}' "$l" "$r"
`,
        { mode: 0o755 },
      );
      const r = await runBenchmark(await h.backend("spy"), slug, "spy", {
        kind: "command",
        command: `sh ${spy}`,
      });
      const answers = await h.runAnswers(r.run_id);
      expect(answers.size).toBeGreaterThan(0);
      for (const a of answers.values()) expect(a).toBe("link=0 real=0");
    }, 60_000);
  },
);

/**
 * Issue 13 re-probe (probe/sandbox-store.mts): a platform.sqlite symlinked to a file outside the store
 * directory was readable by the sandboxed agent (only the store directory was hidden, not the file's
 * real directory, where SQLite also writes its -journal), and an agent whose working directory was the
 * store's parent saw the store (its bind was mounted after the tmpfs and covered it). Each layout the
 * probe tried, through the runner's own process starter.
 */
describe("the store's files are hidden at their real paths, whatever the layout (issue 13 re-probe)", () => {
  /** What an agent started with `hide` (and `cwd`) reads of `paths`: the first bytes of each, joined. */
  async function agentReads(hide: string[], paths: string[], cwd?: string): Promise<string> {
    const cmd = paths.map((p) => `(cat '${p}' 2>/dev/null | head -c 40 || true)`).join("; ");
    return agentOutput(cmd, hide, cwd);
  }

  it("a store whose platform.sqlite is a symlink lists the real file and its real directory as local paths", async () => {
    const base = realpathSync(tempDir());
    mkdirSync(join(base, "disk"));
    mkdirSync(join(base, "store"));
    symlinkSync(join(base, "disk", "bb.sqlite"), join(base, "store", "platform.sqlite"));
    const store = await Store.open({ dir: join(base, "store") });
    try {
      expect(store.localPaths).toEqual(
        expect.arrayContaining([join(base, "store"), join(base, "disk", "bb.sqlite"), join(base, "disk")]),
      );
      expect(hiddenMounts(store.localPaths).map((m) => m.path)).toEqual([
        join(base, "disk"),
        join(base, "store"),
      ]);
    } finally {
      await store.close();
    }
  });

  it("mounts a working directory that contains the store before hiding the store in it", () => {
    const base = realpathSync(tempDir());
    mkdirSync(join(base, "store"));
    const argv = agentArgv("true", base, [join(base, "store")], true);
    const bind = argv.indexOf("--bind");
    const tmpfs = argv.indexOf(join(base, "store")) - 1;
    expect(bind).toBeGreaterThan(0);
    expect(argv[tmpfs]).toBe("--tmpfs");
    expect(tmpfs).toBeGreaterThan(bind);
    // a working directory inside the hidden store is bound after the tmpfs (the other way round)
    const inside = mkdtempSync(join(base, "store", "bb-agent-"));
    const argv2 = agentArgv("true", inside, [join(base, "store")], true);
    expect(argv2.indexOf(join(base, "store"))).toBeLessThan(argv2.indexOf("--bind"));
  });

  it("refuses layouts it cannot hide: the working directory is the store, a database file with another hard link", () => {
    const base = realpathSync(tempDir());
    mkdirSync(join(base, "store"));
    expect(() => agentArgv("true", join(base, "store"), [join(base, "store")], true)).toThrow(
      /working directory .* is .*, a path hidden from the agents/,
    );
    writeFileSync(join(base, "store", "platform.sqlite"), "GOLD");
    linkSync(join(base, "store", "platform.sqlite"), join(base, "elsewhere.sqlite"));
    expect(() => hiddenMounts([join(base, "store", "platform.sqlite")])).toThrow(/2 hard links/);
  });

  describe.skipIf(!bubblewrapAvailable())(
    "under bubblewrap (skipped: bwrap or user namespaces unavailable)",
    () => {
      it("the store directory given through a symlink", async () => {
        const root = realpathSync(tempDir());
        mkdirSync(join(root, "real"));
        writeFileSync(join(root, "real", "platform.sqlite"), "GOLD-1");
        symlinkSync(join(root, "real"), join(root, "link"));
        const read = await agentReads(
          [join(root, "link")],
          [join(root, "link", "platform.sqlite"), join(root, "real", "platform.sqlite")],
        );
        expect(read).toBe("");
      });

      it("platform.sqlite symlinked to a file outside the store directory, with its -journal, -wal and -shm", async () => {
        const root = realpathSync(tempDir());
        mkdirSync(join(root, "disk"));
        mkdirSync(join(root, "store"));
        symlinkSync(join(root, "disk", "bb.sqlite"), join(root, "store", "platform.sqlite"));
        const store = await Store.open({ dir: join(root, "store") });
        try {
          for (const ext of ["-journal", "-wal", "-shm"])
            writeFileSync(join(root, "disk", `bb.sqlite${ext}`), "GOLD");
          const files = ["", "-journal", "-wal", "-shm"].map((ext) => join(root, "disk", `bb.sqlite${ext}`));
          // hiding the store directory alone hides the database (its symlink is followed), not its
          // companion files: the store lists their real directory too
          expect(await agentReads([join(root, "store")], files)).toBe("GOLDGOLDGOLD");
          expect(await agentReads(store.localPaths, [join(root, "store", "platform.sqlite"), ...files])).toBe(
            "",
          );
        } finally {
          await store.close();
        }
      });

      it("a store path written with ..", async () => {
        const root = realpathSync(tempDir());
        mkdirSync(join(root, "a", "store3"), { recursive: true });
        writeFileSync(join(root, "a", "store3", "platform.sqlite"), "GOLD-3");
        expect(
          await agentReads(
            [join(root, "a", "x", "..", "store3")],
            [join(root, "a", "store3", "platform.sqlite")],
          ),
        ).toBe("");
      });

      it("the agent's working directory inside the store directory (the store is the system temp dir)", async () => {
        const root = realpathSync(tempDir());
        writeFileSync(join(root, "platform.sqlite"), "GOLD-4");
        const cwd = mkdtempSync(join(root, "bb-agent-"));
        expect(await agentReads([root], [join(root, "platform.sqlite")], cwd)).toBe("");
      });

      it("the agent's working directory is the store's parent", async () => {
        const work = realpathSync(tempDir());
        mkdirSync(join(work, "store"));
        writeFileSync(join(work, "store", "platform.sqlite"), "GOLD-5");
        writeFileSync(join(work, "notes.txt"), "mine");
        // the agent still sees (and may write) the rest of its working directory
        expect(
          await agentReads(
            [join(work, "store")],
            [join(work, "store", "platform.sqlite"), join(work, "notes.txt")],
            work,
          ),
        ).toBe("mine");
      });
    },
  );
});

/**
 * Issue 13's known gap (stop 23): the sandbox hid a symlinked store's real directory but did not follow
 * the symlinks found inside hidden directories, nor check the hard links of the files in them; and what
 * else an agent can reach of the runner (its /proc, its fds, other agents' working directories).
 */
describe("links out of hidden directories, /proc and other agents (issue 13 gap)", () => {
  const agentSays = async (cmd: string, hide: string[], cwd?: string) =>
    (await agentOutput(cmd, hide, cwd)).trim();

  it("hides the targets of symlinks inside a hidden directory, at their real paths", () => {
    const base = realpathSync(tempDir());
    mkdirSync(join(base, "store"));
    mkdirSync(join(base, "disk", "runs"), { recursive: true });
    symlinkSync(join(base, "disk", "runs"), join(base, "store", "runs"));
    symlinkSync(join(base, "nowhere"), join(base, "store", "dangling"));
    expect(hiddenMounts([join(base, "store")]).map((m) => m.path)).toEqual([
      join(base, "disk", "runs"),
      join(base, "store"),
    ]);
  });

  it("refuses a hidden directory holding a file with another hard link outside it", () => {
    const base = realpathSync(tempDir());
    mkdirSync(join(base, "store", "runs"), { recursive: true });
    writeFileSync(join(base, "store", "runs", "answers.jsonl"), "GOLD");
    linkSync(join(base, "store", "runs", "answers.jsonl"), join(base, "copy.jsonl"));
    expect(() => hiddenMounts([join(base, "store")])).toThrow(/answers\.jsonl .*2 hard links/);
  });

  describe.skipIf(!bubblewrapAvailable())(
    "under bubblewrap (skipped: bwrap or user namespaces unavailable)",
    () => {
      it("a store directory symlinking to another disk: the agent reads nothing there, by any path", async () => {
        const base = realpathSync(tempDir());
        mkdirSync(join(base, "store"));
        mkdirSync(join(base, "disk"));
        writeFileSync(join(base, "disk", "gold.json"), "GOLD-6");
        symlinkSync(join(base, "disk"), join(base, "store", "runs"));
        // a link someone left in the agent's working directory and one in the temp dir lead nowhere either
        const cwd = mkdtempSync(join(tempDir(), "work-"));
        symlinkSync(join(base, "disk", "gold.json"), join(cwd, "peek"));
        symlinkSync(join(base, "store", "runs", "gold.json"), join(base, "peek2"));
        const cmd = ["disk/gold.json", "store/runs/gold.json", "peek2"]
          .map((f) => `cat '${join(base, f)}' 2>/dev/null`)
          .concat(["cat peek 2>/dev/null", "true"])
          .join("; ");
        expect(await agentSays(cmd, [join(base, "store")], cwd)).toBe("");
      });

      it("sees no process of the runner in /proc, none of the store files it holds open, and only allowlisted variables", async () => {
        const store = await Store.open({ dir: tempDir() }); // the runner holds platform.sqlite open
        try {
          const out = await agentSays(
            `ls /proc | grep -x '${process.pid}' || echo no-runner; ` +
              `cat /proc/${process.pid}/environ 2>/dev/null | tr '\\0' '\\n' | head -c 200; ` +
              `ls -l /proc/self/fd | grep -c ${JSON.stringify(store.dir)}; env | cut -d= -f1 | sort | tr '\\n' ' '`,
            store.localPaths,
          );
          const [proc, storeFds, vars] = out.split("\n");
          expect(proc).toBe("no-runner");
          expect(storeFds).toBe("0");
          const allowed = ["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TERM", "HOME", "TMPDIR"];
          for (const v of vars!.trim().split(" "))
            expect([...allowed, "PWD", "SHLVL", "_", "OLDPWD"]).toContain(v);
        } finally {
          await store.close();
        }
      });

      it("connects to no listening unix socket outside Debian's directory: a PostgreSQL socket in /tmp-like dirs is unreachable (probe30 B-F4)", async () => {
        const dir = mkdtempSync(join(tmpdir(), "pgsock-"));
        const path = join(dir, ".s.PGSQL.5999");
        const server = createNetServer((c) => c.end("THE-GOLD"));
        await new Promise<void>((ok) => server.listen(path, ok));
        try {
          const connect = `node -e "require('net').connect(process.argv[1]).on('data',d=>process.stdout.write(String(d))).on('error',e=>process.stdout.write('refused '+e.code))" '${path}'`;
          // the runner itself reaches it: the agent must not
          const said = await agentSays(connect, []);
          expect(said).not.toContain("THE-GOLD");
          expect(said).toMatch(/^refused /);
        } finally {
          await new Promise<void>((ok) => server.close(() => ok()));
          rmSync(dir, { recursive: true, force: true });
        }
      });

      // probe31 B-F2 (third variant): a bound datagram socket is never "listening" (no __SO_ACCEPTCON), and
      // an agent's sendto() reached it (`DGRAM REPLY b'THE-GOLD via dgram'`); now the agent cannot create
      // the unix socket at all (probe32 B-F1)
      it("sends to no datagram unix socket bound outside its own directories (probe31 B-F2)", async () => {
        const dir = mkdtempSync(join(tmpdir(), "dgramsock-"));
        const path = join(dir, "dgram.sock");
        const server = spawn(
          "/usr/bin/python3",
          [
            "-c",
            "import socket,sys\ns=socket.socket(socket.AF_UNIX,socket.SOCK_DGRAM);s.bind(sys.argv[1]);print('up',flush=True)\n" +
              "while True:\n d,a=s.recvfrom(100)\n if a: s.sendto(b'THE-GOLD',a)",
            path,
          ],
          { stdio: ["ignore", "pipe", "inherit"] },
        );
        try {
          await new Promise<void>((ok) => server.stdout.once("data", () => ok()));
          const send =
            `/usr/bin/python3 -c "import socket,os,sys\ntry:\n c=socket.socket(socket.AF_UNIX,socket.SOCK_DGRAM);c.bind(os.environ['TMPDIR']+'/me.sock');c.settimeout(3)\n` +
            ` c.sendto(b'hi',sys.argv[1]);print('reply',c.recv(100))\nexcept Exception as e: print('refused',type(e).__name__)" '${path}'`;
          const said = await agentSays(send, []);
          expect(said).not.toContain("THE-GOLD");
          expect(said).toMatch(/^refused /);
        } finally {
          server.kill("SIGTERM");
          rmSync(dir, { recursive: true, force: true });
        }
      });

      it("another agent's working directory is empty to it, and so is PostgreSQL's socket directory", async () => {
        const other = mkdtempSync(join(agentWorkRoot(), "bb-agent-"));
        try {
          writeFileSync(join(other, "answers.txt"), "THEIRS");
          expect(await agentSays(`cat '${join(other, "answers.txt")}' 2>/dev/null; true`, [])).toBe("");
          for (const d of DATABASE_SOCKET_DIRS)
            if (existsSync(d)) expect(await agentSays(`ls -A ${d} | wc -l`, [])).toBe("0");
        } finally {
          rmSync(other, { recursive: true, force: true });
        }
      });
    },
  );
});

// probe29 B-F1: the sandbox emptied only its own runner's `$TMPDIR/bb-agents-<uid>`: an agent of a runner
// started with the default TMPDIR read a running agent's files of a runner started with another TMPDIR
describe.skipIf(!bubblewrapAvailable())(
  "an agent of one runner never sees a running agent of another runner with another TMPDIR (probe29 B-F1)",
  () => {
    /** Sets `TMPDIR` (undefined: unset) for what `body` starts; restores it. */
    async function withTmpdir<T>(tmp: string | undefined, body: () => Promise<T> | T): Promise<T> {
      const saved = process.env.TMPDIR;
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
      try {
        return await body();
      } finally {
        if (saved === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = saved;
      }
    }
    const uid = process.getuid!();
    /** Where a running agent's `scratch.txt` holding `secret` is, found by the (unsandboxed) test. */
    async function scratchOf(roots: string[], secret: string): Promise<string> {
      for (let i = 0; i < 200; i++) {
        for (const root of roots) {
          if (!existsSync(root)) continue;
          for (const d of readdirSync(root)) {
            const f = join(root, d, "scratch.txt");
            if (existsSync(f) && readFileSync(f, "utf8").includes(secret)) return f;
          }
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error("the victim agent never wrote its scratch file");
    }

    for (const [victimTmp, peekTmp] of [
      ["own", undefined],
      [undefined, "own"],
      ["own", "other"],
    ] as const)
      it(`a runner with TMPDIR ${peekTmp ?? "unset"} cannot read an agent of a runner with TMPDIR ${victimTmp ?? "unset"}`, async () => {
        const dirs = { own: realpathSync(tempDir()), other: realpathSync(tempDir()) };
        chmodSync(dirs.own, 0o700);
        chmodSync(dirs.other, 0o700);
        const secret = `SECRET-${victimTmp}-${peekTmp}-${process.pid}`;
        // started, not awaited: its directory is made before runAgentProcess's first await
        const victim = await withTmpdir(victimTmp && dirs[victimTmp], () => ({
          done: runAgentProcess(
            { command: `echo ${secret} > scratch.txt; sleep 5` },
            "",
            20_000,
            new AbortController().signal,
            join(tempDir(), "victim.log"),
          ),
        }));
        try {
          const roots = [dirs.own, dirs.other, "/tmp", tmpdir()].map((t) => join(t, `bb-agents-${uid}`));
          const scratch = await scratchOf(roots, secret);
          const seen = await withTmpdir(peekTmp && dirs[peekTmp], () =>
            agentOutput(`cat '${scratch}' 2>/dev/null; ls '${dirname(scratch)}' 2>/dev/null; true`, []),
          );
          expect(seen).toBe("");
        } finally {
          await victim.done;
        }
      }, 30_000);
  },
);

// probe31 B-F4: a store layout the sandbox refuses was refused at the first agent process, after the
// agent was registered and the attempt started (one of the account's agent slots taken, and the same
// command, the layout fixed, refused `run_in_progress`)
describe.skipIf(!bubblewrapAvailable())(
  "a layout that cannot be hidden is refused before anything is written (probe31 B-F4)",
  () => {
    const answers = `cat >/dev/null; printf '{"answers":[{"ordinal":0,"answer_text":"x"},{"ordinal":1,"answer_text":"x"}]}'`;
    it("a symlink to / or a hard-linked file in the --store directory: no agent registered, no run started", async () => {
      const h = await openTemp({ clock: manualClock().now });
      const ds = await h.createDataset(cities(2));
      const { slug } = await h.publish(ds.dataset_id, { ...CITIES_PUBLISH });
      const dir = realpathSync(tempDir()); // the CLI's --store directory, hidden as a local store's own
      const backend = new LocalRunBackend(h.real, await h.principal("f4"), [dir]);
      const refusedBy = async (layout: () => void, undo: () => void, why: RegExp) => {
        layout();
        await expect(
          runBenchmark(backend, slug, "f4agent", { kind: "command", command: answers }),
        ).rejects.toMatchObject({ code: "invalid_option", details: { field: "store" }, message: why });
        expect(await h.getAgent("f4agent")).toBeNull();
        expect(await h.listRuns(slug)).toEqual([]);
        undo();
      };
      await refusedBy(
        () => symlinkSync("/", join(dir, "rootlink")),
        () => rmSync(join(dir, "rootlink")),
        /rootlink cannot be hidden .*: it is the root directory/,
      );
      const outside = join(tempDir(), "other-name");
      await refusedBy(
        () => {
          writeFileSync(join(dir, "gold.txt"), "GOLD");
          linkSync(join(dir, "gold.txt"), outside);
        },
        () => rmSync(outside),
        /gold\.txt cannot be hidden .*2 hard links/,
      );
      // the same command, the layout fixed: attempt 1 of a new agent
      const r = await runBenchmark(backend, slug, "f4agent", { kind: "command", command: answers });
      expect(r.attempt).toBe(1);
      expect(r.finalized).not.toBeNull();
    });

    it("run on the CLI, registering the agent first (--withdrawal-address): the same command, the layout fixed, is attempt 1", async () => {
      const store = tempDir();
      expect((await runCli(...seattlePublishArgs("seattle"), "--store", store)).code).toBe(0);
      const key = await cliAccount(store, "f4-owner");
      const args = [
        ...["run", "seattle", "--store", store, "--api-key", key, "--agent", `node ${AGENT}`],
        ...["--agent-id", "f4agent", "--withdrawal-address", helperAddress("f4agent"), "--no-progress"],
      ];
      symlinkSync("/", join(store, "rootlink"));
      const refused = await runCli(...args);
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(
        /rootlink cannot be hidden from a sandboxed agent: it is the root directory/,
      );
      const db = new Database(join(store, "platform.sqlite"), { readonly: true });
      try {
        // nothing written: no agent (not even the one --withdrawal-address registers first), no run
        expect(db.prepare("select count(*) as n from agents").get()).toEqual({ n: 0 });
        expect(db.prepare("select count(*) as n from runs").get()).toEqual({ n: 0 });
      } finally {
        db.close();
      }
      rmSync(join(store, "rootlink"));
      const again = await runCli(...args);
      expect(again.code, again.err).toBe(0);
      expect(JSON.parse(again.out)).toMatchObject({ agent_id: "f4agent", attempt: 1, interrupted: false });
    });

    it("resume refuses it before the run is adopted or locked", async () => {
      const h = await openTemp({ clock: manualClock().now });
      const ds = await h.createDataset(cities(2));
      const { slug } = await h.publish(ds.dataset_id, { ...CITIES_PUBLISH });
      const dir = realpathSync(tempDir());
      const backend = new LocalRunBackend(h.real, await h.principal("f4"), [dir]);
      const started = await h.startRun(slug, "f4");
      symlinkSync("/", join(dir, "rootlink"));
      await expect(
        resumeRun(backend, started.run.id, { kind: "command", command: answers }),
      ).rejects.toMatchObject({ code: "invalid_option", details: { field: "store" } });
      expect(existsSync(join(backend.checkpointDir, `${started.run.id}.json`))).toBe(false);
    });
  },
);

// probe28 B-F9: a `bb-agents-<uid>` planted by another user made the runner put the agents' directories
// straight into the shared temp dir, which no sandbox empties: one agent read another's files
describe("the agents' directory is this user's own or refused (probe28 B-F9)", () => {
  const uid = process.getuid!();
  /**
   * Runs `body` with a fresh parent directory (`agentWorkRoot(parent)`: the real one, `/tmp`, is shared
   * by every runner of the machine), passing the parent and the path of `bb-agents-<uid>` there.
   */
  function withTmp(body: (root: string, parent: string) => void): void {
    const parent = realpathSync(tempDir());
    body(join(parent, `bb-agents-${uid}`), parent);
  }
  const refusal = (root: string, reason: string) => ({
    code: "invalid_option",
    details: { field: "agents_dir", path: root, reason },
    message: expect.stringContaining(`the agents' directory ${root} is not safe: ${reason}`),
  });

  it("creates it with mode 700 and returns it", () => {
    withTmp((root, parent) => {
      expect(agentWorkRoot(parent)).toBe(root);
      expect(statSync(root).mode & 0o777).toBe(0o700);
      expect(agentWorkRoot(parent)).toBe(root); // kept
    });
  });

  it("refuses a symlink, a directory others may enter, and a file, naming the path", () => {
    withTmp((root, parent) => {
      const elsewhere = mkdtempSync(join(tempDir(), "planted-"));
      chmodSync(elsewhere, 0o700);
      symlinkSync(elsewhere, root);
      expect(() => agentWorkRoot(parent)).toThrow(
        expect.objectContaining(refusal(root, "it is a symbolic link")),
      );
    });
    withTmp((root, parent) => {
      mkdirSync(root, { mode: 0o755 });
      chmodSync(root, 0o755);
      expect(() => agentWorkRoot(parent)).toThrow(
        expect.objectContaining(refusal(root, "its mode is 755, not 700")),
      );
    });
    withTmp((root, parent) => {
      writeFileSync(root, "");
      expect(() => agentWorkRoot(parent)).toThrow(
        expect.objectContaining(refusal(root, "it is not a directory")),
      );
    });
  });

  it.skipIf(uid !== 0)("refuses a directory another user planted, before the attempt starts", async () => {
    const h = await openTemp({ clock: manualClock().now });
    const ds = await h.createDataset(cities(2));
    const { slug } = await h.publish(ds.dataset_id, { ...CITIES_PUBLISH });
    const backend = await h.backend("planted");
    const tmp = realpathSync(tempDir());
    planted.parent = tmp; // the runner's check looks there, not in the /tmp every runner shares
    try {
      const root = join(tmp, `bb-agents-${uid}`);
      mkdirSync(root, { mode: 0o700 });
      chownSync(root, 65534, 65534);
      await expect(
        runBenchmark(backend, slug, "planted", { kind: "command", command: "true" }),
      ).rejects.toMatchObject(refusal(root, `it is owned by uid 65534, not by this user (uid ${uid})`));
      // nothing was started: the attempt is not used up
      rmSync(root, { recursive: true });
      const r = await runBenchmark(backend, slug, "planted", {
        kind: "command",
        command: `printf '{"answers":[{"ordinal":0,"answer_text":"x"},{"ordinal":1,"answer_text":"x"}]}'`,
      });
      expect(r.attempt).toBe(1);
    } finally {
      planted.parent = undefined;
    }
  });
});

// probe37 B-N1: `run --agent-hide /tmp/bb-agents-<uid>` with no working directory was refused as "the
// agent's working directory /tmp/bb-agents-<uid> is the store's ...": the agents' directory itself stood
// in for the agent's own fresh directory in it, and the message blamed the store and an `agent.cwd` nobody gave
describe("the agents' directory bb-agents-<uid> named as a hidden path (probe37 B-N1)", () => {
  it("a working directory that is a hidden path is refused naming the path as given and where hidden paths come from", () => {
    const base = realpathSync(tempDir());
    mkdirSync(join(base, "service-store"));
    symlinkSync(join(base, "service-store"), join(base, "link"));
    let err: unknown;
    try {
      agentArgv("true", join(base, "service-store"), [join(base, "link")], true);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({
      code: "invalid_option",
      details: { field: "agent.cwd", path: join(base, "service-store"), hidden: join(base, "link") },
    });
    const message = (err as Error).message;
    expect(message).toContain(`is ${join(base, "service-store")} (hidden as ${join(base, "link")})`);
    expect(message).toContain("--agent-hide or BENCH_BOUNTY_AGENT_HIDE");
    expect(message).not.toContain("is the store's");
  });

  describe.skipIf(!bubblewrapAvailable() || TEST_ENGINE !== "sqlite")(
    "under bubblewrap (skipped: bwrap or user namespaces unavailable)",
    () => {
      it("is accepted: each agent works in its own fresh directory there and sees no other agent's", async () => {
        const root = agentWorkRoot();
        expect(() => checkAgentSandbox({ privatePaths: [root] })).not.toThrow();
        const other = mkdtempSync(join(root, "bb-agent-"));
        try {
          writeFileSync(join(other, "answers.txt"), "THEIRS");
          const said = await agentOutput(
            `echo mine > own.txt && cat own.txt; cat '${join(other, "answers.txt")}' 2>/dev/null; true`,
            [root],
          );
          expect(said.trim()).toBe("mine");
        } finally {
          rmSync(other, { recursive: true, force: true });
        }
      });

      it("a hidden path inside a working directory that is in the agents' directory stays hidden", async () => {
        const cwd = mkdtempSync(join(agentWorkRoot(), "bb-agent-"));
        try {
          mkdirSync(join(cwd, "store"));
          writeFileSync(join(cwd, "store", "platform.sqlite"), "GOLD-N1");
          writeFileSync(join(cwd, "notes.txt"), "mine");
          const said = await agentOutput(
            "cat store/platform.sqlite 2>/dev/null; cat notes.txt",
            [join(cwd, "store"), agentWorkRoot()],
            cwd,
          );
          expect(said.trim()).toBe("mine");
        } finally {
          rmSync(cwd, { recursive: true, force: true });
        }
      });

      it("run --agent-hide with the agents' directory runs the attempt to the end", async () => {
        const store = tempDir();
        expect((await runCli(...seattlePublishArgs("seattle"), "--store", store)).code).toBe(0);
        const key = await cliAccount(store, "hider-owner");
        const r = await runCli(
          ...["run", "seattle", "--store", store, "--api-key", key, "--agent", `node ${AGENT}`],
          ...["--agent-id", "hider", "--agent-hide", agentWorkRoot(), "--no-progress"],
        );
        expect(r.code, r.err).toBe(0);
        expect(JSON.parse(r.out)).toMatchObject({ attempt: 1, interrupted: false });
      });
    },
  );
});
