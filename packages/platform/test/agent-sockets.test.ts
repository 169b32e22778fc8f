/**
 * probe31 B-F2: under bubblewrap an agent still connected to a listening unix socket bound by a relative
 * path (a daemon that `chdir`s to its run directory and binds `rel.sock`: `/proc/net/unix` says only
 * `rel.sock`) and to one at a path with two consecutive spaces (`/proc/net/unix` was split on whitespace,
 * which collapsed them): both answered the agent. Every listening socket is now covered, found by its
 * verbatim path or, when bound relatively, through the processes holding it; one that cannot be found
 * is refused, named, before the agent starts.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  agentArgv,
  bubblewrapAvailable,
  listeningSocketPaths,
  parseUnixSockets,
  runAgentProcess,
} from "../src/agent-process.js";
import { PlatformError } from "../src/errors.js";
import { cleanup, tempDir, TEST_ENGINE } from "./helpers.js";

afterEach(cleanup);

const HEADER = "Num       RefCount Protocol Flags    Type St Inode Path\n";

describe("/proc/net/unix is parsed without losing a byte of a path (probe31 B-F2)", () => {
  it("keeps runs of spaces, trailing spaces and a newline in a path; reads padded inodes; unbound and abstract sockets", () => {
    const table =
      HEADER +
      "0000000000000000: 00000002 00000000 00010000 0001 01 9875963 rel.sock\n" +
      "0000000000000000: 00000002 00000000 00010000 0001 01 9875964 /tmp/sock  dir/abs.sock\n" +
      "0000000000000000: 00000002 00000000 00010000 0001 01 9875965 /tmp/trail.sock  \n" +
      "0000000000000000: 00000002 00000000 00010000 0001 01   123 /tmp/new\nline.sock\n" +
      "0000000000000000: 00000003 00000000 00000000 0001 03 9875966\n" +
      "0000000000000000: 00000002 00000000 00000000 0002 01 9875968 /run/dgram.sock\n" +
      "0000000000000000: 00000002 00000000 00010000 0001 01 9875967 @abstract name\n";
    expect(parseUnixSockets(table)).toEqual([
      { flags: 0x10000, type: 1, inode: 9875963, path: "rel.sock" },
      { flags: 0x10000, type: 1, inode: 9875964, path: "/tmp/sock  dir/abs.sock" },
      { flags: 0x10000, type: 1, inode: 9875965, path: "/tmp/trail.sock  " },
      { flags: 0x10000, type: 1, inode: 123, path: "/tmp/new\nline.sock" },
      { flags: 0, type: 1, inode: 9875966, path: null },
      { flags: 0, type: 2, inode: 9875968, path: "/run/dgram.sock" },
      { flags: 0x10000, type: 1, inode: 9875967, path: "@abstract name" },
    ]);
  });
});

/**
 * Starts a separate process listening on each of `paths` (relative ones against `cwd`), each answering
 * `THE-GOLD`; once all listen it changes directory to `away` when given. @returns the process
 */
async function serve(paths: string[], cwd: string, away?: string): Promise<ChildProcess> {
  const script = `const net = require("net"); const paths = JSON.parse(process.argv[1]); let n = 0;
for (const p of paths) net.createServer((c) => c.end("THE-GOLD " + p)).listen(p, () => {
  if (++n < paths.length) return; if (process.argv[2]) process.chdir(process.argv[2]); process.stdout.write("ready\\n"); });`;
  const child = spawn(process.execPath, ["-e", script, JSON.stringify(paths), away ?? ""], {
    cwd,
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((ok, fail) => {
    child.stdout!.on("data", (d: Buffer) => String(d).includes("ready") && ok());
    child.on("exit", (code) => fail(new Error(`socket server exited ${code}`)));
  });
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((ok) => {
    child.removeAllListeners("exit");
    child.on("exit", () => ok());
    child.kill("SIGKILL");
  });
}

/** What an agent (sandboxed when bubblewrap works) connecting to `path` is answered, or `refused <code>`. */
async function agentConnects(path: string): Promise<string> {
  const connect = `node -e "require('net').connect(process.argv[1]).on('data',d=>process.stdout.write(String(d))).on('error',e=>process.stdout.write('refused '+e.code))" '${path}'`;
  const r = await runAgentProcess(
    { command: connect, hide: [] },
    "",
    10_000,
    new AbortController().signal,
    join(tempDir(), "agent.log"),
  );
  if (r.kind !== "exit") throw new Error(`agent ${r.kind}`);
  return Buffer.from(r.stdout).toString("utf8");
}

describe.skipIf(!bubblewrapAvailable() || TEST_ENGINE !== "sqlite")(
  "a sandboxed agent connects to no listening unix socket, however it was bound (probe31 B-F2)",
  () => {
    it("a relative bind after chdir, a path with two spaces and one with a trailing space are all covered", async () => {
      const base = realpathSync(tempDir());
      const rundir = join(base, "sockdir");
      mkdirSync(rundir);
      mkdirSync(join(base, "sock  dir"));
      const rel = join(rundir, "rel.sock");
      const spaced = join(base, "sock  dir", "abs.sock");
      const trailing = join(base, "trail.sock ");
      const server = await serve(["rel.sock", spaced, trailing], rundir);
      try {
        const said = await Promise.all([rel, spaced, trailing].map(agentConnects));
        expect(said.filter((s) => s.includes("THE-GOLD"))).toEqual([]);
        for (const s of said) expect(s).toMatch(/^refused /);
        expect(listeningSocketPaths()).toEqual(expect.arrayContaining([rel, spaced, trailing]));
      } finally {
        await stop(server);
      }
    });

    it("a relative bind whose holder has changed directory since cannot be found: the agent is refused, naming it", async () => {
      const base = realpathSync(tempDir());
      mkdirSync(join(base, "run"));
      mkdirSync(join(base, "elsewhere"));
      const name = `lost-${process.pid}.sock`;
      const server = await serve([name], join(base, "run"), join(base, "elsewhere"));
      let err: unknown;
      try {
        agentArgv("true", base, [], true);
      } catch (e) {
        err = e;
      } finally {
        await stop(server);
      }
      expect(err).toBeInstanceOf(PlatformError);
      expect((err as PlatformError).code).toBe("invalid_option");
      expect((err as PlatformError).details).toMatchObject({ field: "sandbox.unix_sockets", path: name });
      expect((err as PlatformError).message).toContain(JSON.stringify(name));
      expect((err as PlatformError).message).toMatch(/changed directory since/);
    });
  },
);
