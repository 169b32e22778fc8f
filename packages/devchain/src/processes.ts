/**
 * Child processes of the local tooling (the Hardhat node, the Ponder indexer, the demo's servers).
 * Each is spawned in its own process group (`spawn(..., { detached: true })`), so signalling the
 * group also reaches the grandchildren it starts (Hardhat's and Ponder's workers), and none of them
 * outlives the process that started it.
 *
 * Imported as `@bench-bounty/devchain/processes` (Node built-ins only), so a helper that only
 * manages processes does not load viem.
 * @packageDocumentation
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import type { Socket } from "node:net";

/**
 * Sends `signal` to the child's whole process group, or to the child alone when the group is gone;
 * does nothing once the child has exited. Never throws.
 */
export function signalProcessGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch (e) {
    // ESRCH: the group is gone (the child may still be alive, so it is signalled alone below).
    if ((e as NodeJS.ErrnoException).code !== "ESRCH") throw e;
    try {
      child.kill(signal);
    } catch (e2) {
      if ((e2 as NodeJS.ErrnoException).code !== "ESRCH") throw e2; // already gone
    }
  }
}

/**
 * Stops a child's process group: SIGTERM, then SIGKILL if it has not exited after `graceMs`
 * milliseconds. Resolves once `exited` (the caller's promise of the child's `exit` event) has resolved
 * and no live member of the group is left (a grandchild still running when the grace ends gets
 * SIGKILL; one that survives even that for another second is left to the reaper, never waited on
 * forever).
 */
export async function stopProcessGroup(
  child: ChildProcess,
  exited: Promise<unknown>,
  graceMs: number,
): Promise<void> {
  const deadline = Date.now() + graceMs;
  signalProcessGroup(child, "SIGTERM");
  const timer = setTimeout(() => signalProcessGroup(child, "SIGKILL"), graceMs);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
  if (child.pid === undefined) return;
  if (await groupEnded(child.pid, deadline)) return;
  killGroup(child.pid, "SIGKILL");
  await groupEnded(child.pid, Date.now() + 1000);
}

/** Polls every 20 ms until no live member of process group `pgid` is left; false at `deadline`. */
async function groupEnded(pgid: number, deadline: number): Promise<boolean> {
  for (;;) {
    if (!groupHasLiveMember(pgid)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * True while a process of group `pgid` runs. On Linux it reads `/proc/<pid>/stat` (a zombie, an exited
 * process nobody reaped yet, does not count); elsewhere it asks the kernel (`kill(-pgid, 0)`).
 */
function groupHasLiveMember(pgid: number): boolean {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  }
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // exited while we looked
    }
    // Fields after the command's closing parenthesis: state, ppid, pgrp, ...
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z") return true;
  }
  return false;
}

/** Signals process group `pgid`; ESRCH (the group is gone) is not an error. */
function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ESRCH") throw e;
  }
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Kills every tracked group (SIGKILL, synchronously) on exit, SIGINT and SIGTERM. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const child of live) signalProcessGroup(child, "SIGKILL");
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      for (const child of live) signalProcessGroup(child, "SIGKILL");
      // Re-raise with the default behaviour unless somebody else handles it.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}

/**
 * The reaper: a small detached Node process that holds the read end of a pipe from this process.
 * This process writes `+PGID` for each tracked group and `-PGID` when it exits by itself. When the
 * pipe closes without a goodbye (this process died, even by SIGKILL, which no exit hook sees), the
 * reaper sends SIGTERM to every group still listed, SIGKILL 3 s later, and exits. ESRCH (the group
 * is already gone) is the only error it ignores.
 */
const REAPER_SCRIPT = `
const groups = new Set();
let buffered = "";
const signal = (sig) => {
  for (const g of groups) {
    try { process.kill(-g, sig); } catch (e) { if (e.code !== "ESRCH") throw e; }
  }
};
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffered += chunk;
  const lines = buffered.split("\\n");
  buffered = lines.pop();
  for (const line of lines) {
    const pgid = Number(line.slice(1));
    if (line[0] === "+") groups.add(pgid);
    else groups.delete(pgid);
  }
});
process.stdin.on("end", () => {
  signal("SIGTERM");
  setTimeout(() => { signal("SIGKILL"); process.exit(0); }, 3000);
});
`;

let reaper: ChildProcess | undefined;

/** Tells the reaper (started on first use) that `pgid` is tracked (`+`) or gone (`-`). */
function tellReaper(line: `+${number}` | `-${number}`): void {
  if (reaper === undefined) {
    reaper = spawn(process.execPath, ["-e", REAPER_SCRIPT], {
      detached: true, // not in our group: a signal to it does not reach the reaper
      stdio: ["pipe", "ignore", "ignore"],
    });
    reaper.unref();
    (reaper.stdin as Socket).unref(); // neither keeps this process alive
  }
  reaper.stdin?.write(`${line}\n`);
}

/**
 * Has the reaper kill the child's process group if this process dies without the child having
 * exited first (SIGKILL, a crash past the exit hooks); nothing else changes (this process's own
 * signal handling stays as it is). The child must have been spawned `detached` (its pid is its
 * process group id).
 */
export function reapWithParent(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const pgid = child.pid;
  tellReaper(`+${pgid}`);
  child.once("exit", () => tellReaper(`-${pgid}`));
}

/**
 * Tracks a running child: while it runs, its process group is killed (SIGKILL) when this process
 * exits or receives SIGINT/SIGTERM, and by the reaper ({@link reapWithParent}) when this process is
 * killed by SIGKILL; once it exits it is forgotten. The child must have been spawned `detached`.
 */
export function killOnExit(child: ChildProcess): void {
  installExitHook();
  if (child.exitCode !== null || child.signalCode !== null) return;
  live.add(child);
  child.once("exit", () => live.delete(child));
  reapWithParent(child);
}
