/**
 * probe32 B-F1: under bubblewrap an agent still connected to a listening unix socket renamed after bind
 * (`/proc/net/unix` names the bind-time path, which no longer existed, so nothing was covered) and to one
 * reached through a hard link (only the first name was covered); one bound after the agent started and
 * an abstract `@name` one were never covered at all. The sandbox now loads a seccomp filter in which no
 * unix socket can be created (`socket(AF_UNIX)`, a datagram `socketpair`), so none of them answers;
 * an agent still has stream socketpairs, TCP and child processes, and no descriptor of the filter.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { agentArgv, bubblewrapAvailable, runAgentProcess } from "../src/agent-process.js";
import { agentSeccompProgram } from "../src/agent-seccomp.js";
import { cleanup, tempDir, TEST_ENGINE } from "./helpers.js";

afterEach(cleanup);

/** A port of this test's range (48520..48539) for the TCP server an agent may still reach. */
const TCP_PORT = 48523;

describe("the agents' seccomp filter (probe32 B-F1)", () => {
  it("is classic BPF for x64 and arm64 only, and bubblewrap is given it on fd 3", () => {
    const x64 = agentSeccompProgram("x64")!;
    const arm64 = agentSeccompProgram("arm64")!;
    expect(x64.length % 8).toBe(0);
    expect(arm64.length).toBe(x64.length - 8); // no x32 ABI check
    // first: load seccomp_data.arch and compare it with the native AUDIT_ARCH_*
    expect([x64.readUInt16LE(0), x64.readUInt32LE(4)]).toEqual([0x20, 4]);
    expect(x64.readUInt32LE(12)).toBe(0xc000003e);
    expect(arm64.readUInt32LE(12)).toBe(0xc00000b7);
    // last two: allow, deny with EACCES
    expect(x64.readUInt32LE(x64.length - 12)).toBe(0x7fff0000);
    expect(x64.readUInt32LE(x64.length - 4)).toBe(0x00050000 | 13);
    for (const arch of ["ia32", "riscv64", "ppc64", "s390x"]) expect(agentSeccompProgram(arch)).toBeNull();
    const argv = agentArgv("true", realpathSync(tempDir()), [], true);
    expect(argv.slice(argv.indexOf("--seccomp"), argv.indexOf("--seccomp") + 2)).toEqual(["--seccomp", "3"]);
    expect(argv.indexOf("--seccomp")).toBeLessThan(argv.indexOf("sh"));
  });

  it("bubblewrap counts as usable only when it loads that filter: its probe gets the same program on fd 3", async () => {
    const bin = join(tempDir(), "bin");
    mkdirSync(bin);
    const seen = join(tempDir(), "seen.bpf");
    const fakeBwrap = (script: string) =>
      writeFileSync(join(bin, "bwrap"), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
    /** bubblewrapAvailable() of a fresh module (it probes once per process) with `bin` first on PATH. */
    const probe = async () => {
      const path = process.env.PATH;
      process.env.PATH = `${bin}:${path ?? ""}`;
      try {
        vi.resetModules();
        return (await import("../src/agent-process.js")).bubblewrapAvailable();
      } finally {
        process.env.PATH = path;
      }
    };
    // a bwrap that succeeds only when given --seccomp 3 (and keeps what it read there)
    fakeBwrap(`case " $* " in *" --seccomp 3 "*) cat <&3 > '${seen}'; exit 0;; esac; exit 1`);
    expect(await probe()).toBe(true);
    expect(readFileSync(seen)).toEqual(agentSeccompProgram());
    // a kernel or bwrap that cannot load it: not usable (the runner warns), never a sandbox without it
    fakeBwrap(`cat <&3 >/dev/null; echo 'bwrap: prctl(PR_SET_SECCOMP): Invalid argument' >&2; exit 1`);
    expect(await probe()).toBe(false);
    // an architecture with no filter: not usable, whatever bwrap says
    fakeBwrap("exit 0");
    vi.doMock("../src/agent-seccomp.js", () => ({ agentSeccompProgram: () => null }));
    try {
      expect(await probe()).toBe(false);
    } finally {
      vi.doUnmock("../src/agent-seccomp.js");
      vi.resetModules();
    }
  });
});

/**
 * The server of the probe: `a/plain.sock`; `a/tmp.sock` renamed to `b/renamed.sock` after listen;
 * `a/orig.sock` hard-linked as `b/hardlink.sock`; the abstract `@<abstract>`; a datagram socket
 * `a/dgram.sock` (prints what it receives); and, on a line on its stdin, `b/late.sock`. Each stream one
 * answers `THE-GOLD <name>`. Prints `up` once listening, `late` once the late one is.
 */
const SERVER = String.raw`
import os, socket, sys, threading
base, abstract = sys.argv[1], sys.argv[2]
def serve(s, name):
    s.listen(8)
    def loop():
        while True:
            c, _ = s.accept(); c.sendall(b"THE-GOLD " + name.encode()); c.close()
    threading.Thread(target=loop, daemon=True).start()
def bound(path):
    s = socket.socket(socket.AF_UNIX); s.bind(path); return s
serve(bound(base + "/a/plain.sock"), "plain")
s = bound(base + "/a/tmp.sock"); serve(s, "renamed"); os.rename(base + "/a/tmp.sock", base + "/b/renamed.sock")
s = bound(base + "/a/orig.sock"); serve(s, "hardlink"); os.link(base + "/a/orig.sock", base + "/b/hardlink.sock")
serve(bound("\0" + abstract), "abstract")
d = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); d.bind(base + "/a/dgram.sock")
def dgrams():
    while True:
        m, _ = d.recvfrom(100); print("dgram " + m.decode(), flush=True)
threading.Thread(target=dgrams, daemon=True).start()
print("up", flush=True)
sys.stdin.readline()
serve(bound(base + "/b/late.sock"), "late")
print("late", flush=True)
sys.stdin.readline()
`;

/**
 * The agent: notes whether its fd 3 is open (the filter's descriptor must not reach it) and whether
 * `b/late.sock` exists when it starts, connects to each stream socket (waiting
 * up to 5 s for the late one), sends a datagram through a datagram socketpair to `a/dgram.sock`, then
 * checks what it must keep: a stream socketpair, a TCP connection, a child process. One line each.
 */
const AGENT = String.raw`
import os, socket, subprocess, sys, time
base, abstract, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
try:
    print("fd3 open", os.readlink("/proc/self/fd/3"))
except OSError:
    print("fd3 closed")
print("late-at-start", os.path.exists(base + "/b/late.sock"))
def connect(name, addr):
    try:
        s = socket.socket(socket.AF_UNIX); s.settimeout(3); s.connect(addr)
        print(name, "CONNECTED", s.recv(100).decode())
    except OSError as e:
        print(name, "refused", e.errno)
for name, path in [("plain", "a/plain.sock"), ("renamed", "b/renamed.sock"), ("hardlink", "b/hardlink.sock")]:
    connect(name, base + "/" + path)
connect("abstract", "\0" + abstract)
for _ in range(50):
    if os.path.exists(base + "/b/late.sock"): break
    time.sleep(0.1)
connect("late", base + "/b/late.sock")
try:
    p, q = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
    p.sendto(b"from-agent", base + "/a/dgram.sock"); print("dgram sent")
except OSError as e:
    print("dgram refused", e.errno)
p, q = socket.socketpair(); p.sendall(b"pair"); print("socketpair", q.recv(10).decode())
t = socket.create_connection(("127.0.0.1", port), timeout=3); print("tcp", t.recv(10).decode())
print("child", subprocess.run(["sh", "-c", "echo ok"], capture_output=True, text=True).stdout.strip())
`;

function lines(child: ChildProcess): string[] {
  const out: string[] = [];
  child.stdout!.on("data", (d: Buffer) =>
    out.push(
      ...String(d)
        .split("\n")
        .filter((l) => l !== ""),
    ),
  );
  return out;
}

async function until(seen: string[], line: string): Promise<void> {
  for (let i = 0; i < 100 && !seen.includes(line); i++) await new Promise((ok) => setTimeout(ok, 50));
  if (!seen.includes(line)) throw new Error(`no "${line}" from the socket server: ${seen.join(" | ")}`);
}

describe.skipIf(!bubblewrapAvailable() || TEST_ENGINE !== "sqlite")(
  "a sandboxed agent reaches no unix socket, however it was bound (probe32 B-F1)",
  () => {
    it("plain, renamed after bind, hard-linked, abstract, bound after the agent started, datagram: none answers; socketpair, TCP and children still work", async () => {
      const base = realpathSync(tempDir());
      mkdirSync(join(base, "a"));
      mkdirSync(join(base, "b"));
      const abstract = `bb-sandbox32-${process.pid}`;
      writeFileSync(join(base, "server.py"), SERVER);
      writeFileSync(join(base, "agent.py"), AGENT);
      const server = spawn("python3", [join(base, "server.py"), base, abstract], {
        stdio: ["pipe", "pipe", "inherit"],
      });
      const said = lines(server);
      const tcp: Server = createServer((c) => c.end("tcp-ok"));
      await new Promise<void>((ok) => tcp.listen(TCP_PORT, "127.0.0.1", ok));
      try {
        await until(said, "up");
        const agent = runAgentProcess(
          { command: `python3 '${join(base, "agent.py")}' '${base}' '${abstract}' ${TCP_PORT}`, hide: [] },
          "",
          30_000,
          new AbortController().signal,
          join(base, "agent.log"),
        );
        await new Promise((ok) => setTimeout(ok, 1000)); // the agent is running, waiting for late.sock
        server.stdin!.write("bind late\n");
        await until(said, "late");
        const r = await agent;
        if (r.kind !== "exit") throw new Error(`agent ${r.kind}`);
        const out = Buffer.from(r.stdout).toString("utf8");
        expect(r.code, `${out}\n${r.stderrTail}`).toBe(0);
        expect(out).not.toContain("THE-GOLD");
        expect(out.trim().split("\n")).toEqual([
          "fd3 closed",
          "late-at-start False",
          "plain refused 13",
          "renamed refused 13",
          "hardlink refused 13",
          "abstract refused 13",
          "late refused 13",
          "dgram refused 13",
          "socketpair pair",
          "tcp tcp-ok",
          "child ok",
        ]);
        expect(said.filter((l) => l.startsWith("dgram"))).toEqual([]);
      } finally {
        server.kill("SIGKILL");
        await new Promise<void>((ok) => tcp.close(() => ok()));
      }
    }, 60_000);
  },
);
