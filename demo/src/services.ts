/**
 * The platform as the demo's agents meet it: `bench-bounty serve` started as its own process (as an
 * operator would run it), and the `bench-bounty` CLI run as a child (the remote runner), each through
 * the {@link ProcessRegistry} so Ctrl-C stops them.
 */
import { REPO_ROOT } from "@bench-bounty/devchain";
import { join } from "node:path";
import { withTimeout, type ManagedChild, type ProcessRegistry } from "./processes.js";

/** The built `bench-bounty` bin. */
export const CLI_BIN = join(REPO_ROOT, "packages", "cli", "dist", "index.js");

/** Milliseconds `bench-bounty serve` may take to print where it listens. */
const SERVE_START_MS = 60_000;

/** A running `bench-bounty serve`. */
export interface RunningServe {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** What it printed at start (database, chain, operator key, endpoints). */
  readonly banner: readonly string[];
  readonly child: ManagedChild;
}

/**
 * Starts `bench-bounty serve` with the given flags and environment and waits for its
 * `listening on URL` line.
 * @throws Error with its last lines when it exits or stays silent for {@link SERVE_START_MS}
 */
export async function startServe(
  registry: ProcessRegistry,
  args: readonly string[],
  env: Record<string, string>,
  note: (line: string) => void,
  verbose: boolean,
): Promise<RunningServe> {
  const banner: string[] = [];
  let resolveUrl: (url: string) => void = () => {};
  const listening = new Promise<string>((res) => (resolveUrl = res));
  // --exit-with-parent: serve stops by itself if the demo dies without stopping it (SIGKILL, a crash)
  const argv = [CLI_BIN, "serve", "--exit-with-parent", ...args];
  const child = registry.spawn("bench-bounty serve", process.execPath, argv, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    onLine: (line) => {
      if (banner.length < 8) banner.push(line);
      const m = /listening on (http:\/\/\S+)/.exec(line);
      if (m) resolveUrl(m[1]!);
      if (verbose && line.trim() !== "") note(`│ serve: ${line}`);
    },
  });
  const url = await withTimeout(
    Promise.race([
      listening,
      child.exited.then((code) => {
        throw new Error(`bench-bounty serve exited with ${code}:\n${child.tail()}`);
      }),
    ]),
    SERVE_START_MS,
    "bench-bounty serve",
  );
  return { url, banner, child };
}

/**
 * Runs the `bench-bounty` CLI as a child and resolves with its stdout; its stderr lines are shown
 * under the phase when `verbose`.
 * @throws Error with its last lines when it exits non-zero or runs past `timeoutMs`
 */
export async function runCli(
  registry: ProcessRegistry,
  args: readonly string[],
  opts: { env?: Record<string, string>; note: (line: string) => void; verbose: boolean; timeoutMs: number },
): Promise<string> {
  const out: string[] = [];
  const child = registry.spawn(`bench-bounty ${args[0]}`, process.execPath, [CLI_BIN, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...opts.env },
    onLine: (line, stream) => {
      if (stream === "stdout") out.push(line);
      else if (opts.verbose && line.trim() !== "") opts.note(`│ ${line}`);
    },
  });
  let code: number | string;
  try {
    code = await withTimeout(child.exited, opts.timeoutMs, `bench-bounty ${args[0]}`);
  } catch (e) {
    await child.stop();
    throw e;
  }
  if (code !== 0) throw new Error(`bench-bounty ${args.join(" ")} exited with ${code}:\n${child.tail()}`);
  return out.join("\n");
}
