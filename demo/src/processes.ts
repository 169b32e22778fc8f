/**
 * The demo's process registry: every child it starts (the devchain node, the
 * Ponder indexer, the evidence door server) is registered here, and all of them
 * are stopped, newest first, when the demo succeeds, fails, or receives
 * SIGINT/SIGTERM.
 */
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { reapWithParent, stopProcessGroup } from "@bench-bounty/devchain/processes";

/** One thing to stop at the end: a child process or an in-process server. */
export interface Stoppable {
  /** Human name used in the shutdown log, e.g. "devchain (hardhat node)". */
  readonly name: string;
  /** Stops it; must be safe to call more than once. */
  stop(): Promise<void>;
}

/** Options of {@link ProcessRegistry.spawn}. */
export interface SpawnChildOptions extends SpawnOptions {
  /** Called with each complete line the child writes to stdout or stderr. */
  onLine?: (line: string, stream: "stdout" | "stderr") => void;
  /** Milliseconds to wait after SIGTERM before SIGKILL (default 5000). */
  killAfterMs?: number;
}

/** A child started by {@link ProcessRegistry.spawn}. */
export interface ManagedChild extends Stoppable {
  readonly child: ChildProcess;
  /** The last lines the child wrote (for error messages). */
  tail(): string;
  /** Resolves with the exit code (or signal name) once the child has exited. */
  readonly exited: Promise<number | string>;
}

/** Keeps every started process and stops them all, newest first. */
export class ProcessRegistry {
  private readonly entries: Stoppable[] = [];
  private stopping: Promise<void> | undefined;

  /** Registers something to stop at the end; returns it. */
  add<T extends Stoppable>(entry: T): T {
    this.entries.push(entry);
    return entry;
  }

  /** Registers a stop function under a name. */
  addStop(name: string, stop: () => Promise<void> | void): Stoppable {
    let done: Promise<void> | undefined;
    return this.add({ name, stop: () => (done ??= Promise.resolve().then(stop)) });
  }

  /**
   * Spawns a child in its own process group (so stopping it also stops the
   * grandchildren it starts), hands it to the reaper (`reapWithParent`: its group dies with the demo,
   * even when the demo is killed by SIGKILL) and registers it. Output is kept in a small ring
   * buffer for error messages and forwarded line by line to `onLine`.
   */
  spawn(name: string, command: string, args: readonly string[], opts: SpawnChildOptions = {}): ManagedChild {
    const { onLine, killAfterMs = 5000, ...spawnOpts } = opts;
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], detached: true, ...spawnOpts });
    reapWithParent(child); // even a SIGKILLed demo leaves no child behind
    const lines: string[] = [];
    const exited = new Promise<number | string>((resolve) => {
      child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown"));
      child.once("error", (err) => {
        lines.push(`could not start ${command}: ${err.message}`);
        resolve("spawn-error");
      });
    });
    for (const stream of ["stdout", "stderr"] as const) {
      let partial = "";
      child[stream]?.setEncoding("utf8");
      child[stream]?.on("data", (chunk: string) => {
        partial += chunk;
        const parts = partial.split("\n");
        partial = parts.pop() ?? "";
        for (const line of parts) {
          lines.push(line);
          if (lines.length > 60) lines.shift();
          onLine?.(line, stream);
        }
      });
    }
    let stopped: Promise<void> | undefined;
    const managed: ManagedChild = {
      name,
      child,
      exited,
      tail: () => lines.slice(-20).join("\n"),
      stop: () => (stopped ??= stopProcessGroup(child, exited, killAfterMs)),
    };
    // A child that ended by itself has nothing left to stop.
    void exited.then(() => {
      const i = this.entries.indexOf(managed);
      if (i >= 0) this.entries.splice(i, 1);
    });
    return this.add(managed);
  }

  /** Stops every registered entry, newest first; never throws (errors are logged). */
  stopAll(log: (line: string) => void = () => {}): Promise<void> {
    return (this.stopping ??= (async () => {
      for (const entry of [...this.entries].reverse()) {
        try {
          await withTimeout(entry.stop(), 15_000, `stopping ${entry.name}`);
          log(`stopped ${entry.name}`);
        } catch (err) {
          log(`could not stop ${entry.name}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    })());
  }

  /**
   * On SIGINT/SIGTERM/SIGHUP, or when the parent process dies (polled every second: `process.ppid`
   * changes or the parent pid stops existing, e.g. `timeout 60 npm run demo` killed npm): stop
   * everything, then exit with `exitCode()` when it returns a number (the end of a `--keep-running`
   * session), else 130/143/129. A second signal more than 2 s after the first exits at once (one sooner
   * is the same interrupt delivered twice, e.g. by the terminal and by the wrapper forwarding it).
   */
  installSignalHandlers(
    log: (line: string) => void,
    exitCode: () => number | undefined = () => undefined,
  ): () => void {
    let receivedAt: number | undefined;
    const handler = (signal: NodeJS.Signals | "parent exited"): void => {
      const code = exitCode() ?? (signal === "SIGINT" ? 130 : signal === "SIGTERM" ? 143 : 129);
      if (receivedAt !== undefined) {
        if (Date.now() - receivedAt > 2000) process.exit(code);
        return;
      }
      receivedAt = Date.now();
      log(`\n${signal} received: stopping every process the demo started`);
      void this.stopAll(log).finally(() => process.exit(code));
    };
    const stopWatching = watchParent(() => handler("parent exited"));
    process.on("SIGINT", handler);
    process.on("SIGTERM", handler);
    process.on("SIGHUP", handler);
    return () => {
      stopWatching();
      process.off("SIGINT", handler);
      process.off("SIGTERM", handler);
      process.off("SIGHUP", handler);
    };
  }
}

/**
 * Calls `onGone` once when this process's parent dies: every `intervalMs` it checks that `process.ppid`
 * is unchanged and that the parent pid still exists (signal 0). The timer does not keep Node alive.
 * @returns a function that stops watching
 */
export function watchParent(onGone: () => void, intervalMs = 1000): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    let alive = process.ppid === parent;
    if (alive) {
      try {
        process.kill(parent, 0);
      } catch (e) {
        alive = (e as NodeJS.ErrnoException).code === "EPERM";
      }
    }
    if (!alive) {
      clearInterval(timer);
      onGone();
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Rejects with `what timed out after N s` when `promise` takes longer than `ms`. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000} s`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
