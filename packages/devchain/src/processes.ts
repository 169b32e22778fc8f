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
import type { ChildProcess } from "node:child_process";

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
 * milliseconds. Resolves when `exited` (the caller's promise of the child's `exit` event) resolves.
 */
export async function stopProcessGroup(
  child: ChildProcess,
  exited: Promise<unknown>,
  graceMs: number,
): Promise<void> {
  signalProcessGroup(child, "SIGTERM");
  const timer = setTimeout(() => signalProcessGroup(child, "SIGKILL"), graceMs);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
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
 * Tracks a running child: while it runs, its process group is killed (SIGKILL) when this process
 * exits or receives SIGINT/SIGTERM; once it exits it is forgotten.
 */
export function killOnExit(child: ChildProcess): void {
  installExitHook();
  if (child.exitCode !== null || child.signalCode !== null) return;
  live.add(child);
  child.once("exit", () => live.delete(child));
}
