/**
 * Starting a CLI agent (issue 13 item 3): the agent is somebody else's code, so it gets
 *
 * - an **allowlisted environment**: `PATH`, `LANG`, `LC_ALL`, `LC_CTYPE`, `TZ`, `TERM` from the runner's
 *   environment, `HOME` and `TMPDIR` set to its own working directory, plus exactly the variables the
 *   caller passes in `agent.env`. Never a private key, an API key or a database URL: nothing else of the
 *   runner's environment is passed, whatever its name;
 * - its **own temporary working directory** (`bb-agent-*` under {@link agentWorkRoot}, removed
 *   afterwards), unless the caller names one (`agent.cwd`);
 * - **no sight of the store** when Debian's `bubblewrap` (`bwrap`) works on this machine (user
 *   namespaces): the filesystem is mounted read-only, every `hide` path (the store's `localPaths`: its
 *   directory, its checkpoints, and the real directory of its database file, where SQLite writes the
 *   `-journal`, `-wal` and `-shm`) is hidden at its real path (a directory under an empty tmpfs, a file
 *   under `/dev/null`), and so is whatever the symlinks inside a hidden directory lead to (a file in one
 *   with another hard link is refused: its other name would stay readable); the other agents' working
 *   directories and PostgreSQL's socket directory are empty, only its working directory is writable,
 *   no unix socket can be created (a seccomp filter, {@link agentSeccompProgram}: no local service's
 *   socket is reachable, however it was bound; probe32 B-F1), and the agent gets a fresh `/proc` of its own PID
 *   namespace, no capabilities (`--cap-drop ALL`: a runner started as root would otherwise hand a root
 *   agent `CAP_SYS_ADMIN`, enough to `umount` the tmpfs and read the store), a new session, and dies
 *   with the runner. Without `bwrap` the runner prints one warning and runs the agent as a plain
 *   child process, which can read whatever the runner's user can read, the store included.
 *
 * What a local agent can still reach (also in the README): the network (it may call model APIs), every
 * file its user can read outside the hidden paths (read-only under bwrap), and the CPU and memory of the
 * machine. Strangers' agents belong on the network service, not on the operator's machine.
 */
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process";
import {
  type Dirent,
  type Stats,
  closeSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  openSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { AgentLogWriter } from "./agent-log.js";
import { agentSeccompProgram } from "./agent-seccomp.js";
import { PlatformError } from "./errors.js";
import { tmpdir } from "node:os";
import { join, resolve, sep } from "node:path";
import { terminalText } from "./terminal.js";
import { environNotUtf8, processEnviron } from "./utf8.js";

/** Environment variables copied from the runner to an agent (nothing else is). */
export const AGENT_ENV_ALLOWLIST = ["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TERM"] as const;

/** How an agent is started. */
export interface AgentCommand {
  command: string;
  /** Working directory (default: a fresh temporary directory). */
  cwd?: string;
  /** Extra environment variables, passed as given (the caller's explicit choice). */
  env?: Record<string, string>;
  /** Paths the agent must not see (the store directory); hidden under bwrap. */
  hide?: string[];
}

/** The environment an agent gets (see the module doc). */
export function agentEnvironment(
  home: string,
  extra: Record<string, string> = {},
  from: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of AGENT_ENV_ALLOWLIST) {
    const v = from[k];
    if (v !== undefined) env[k] = v;
  }
  return { ...env, HOME: home, TMPDIR: home, ...extra };
}

/** A POSIX environment variable name. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Names of the runner's own secrets and settings, never passed to an agent even when asked for: the
 * platform's keys and settings (`BENCH_BOUNTY_*`), database URLs and libpq's connection variables (`PG*`:
 * node-postgres logs in to the store with `PGPASSWORD` when the URL has none, probe17 B-F2), RPC URLs (they
 * may carry a provider key), and anything named a private key; `HOME` and `TMPDIR` are the agent's own
 * directory.
 */
const RUNNER_ONLY_ENV = /^(BENCH_BOUNTY_.*|.*DATABASE_URL.*|PG.*|.*RPC_URL.*|.*PRIVATE_KEY.*|HOME|TMPDIR)$/i;

/**
 * The variables an operator passes to an agent by name (`run --agent-env NAME`, D3-F15: a model API key
 * the agent needs): each value read from `from` (the runner's environment), never printed or stored.
 * @param names variable names, each at most once
 * @param notUtf8 the names of the variables whose raw bytes are not UTF-8 (default: this process's,
 *   {@link environNotUtf8} of {@link processEnviron})
 * @returns `{NAME: value}` for {@link AgentCommand.env}
 * @throws PlatformError `invalid_option` (field `agent-env`) naming the variable when the name is not a
 *   variable name, is one of the runner's own secrets or settings, is not set in `from`, or its value is
 *   not UTF-8 (Node reads it with U+FFFD in place of its bytes: the agent would get another value;
 *   probe33 B-F11)
 */
export function passedAgentEnv(
  names: readonly string[],
  from: NodeJS.ProcessEnv = process.env,
  notUtf8: ReadonlySet<string> = environNotUtf8(processEnviron()),
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of names) {
    const refuse = (why: string) =>
      new PlatformError("invalid_option", `--agent-env ${terminalText(name)}: ${why}`, {
        field: "agent-env",
        name,
      });
    if (!ENV_NAME.test(name)) throw refuse("not an environment variable name ([A-Za-z_][A-Za-z0-9_]*)");
    if (RUNNER_ONLY_ENV.test(name))
      throw refuse(
        "the runner's own secrets and settings (BENCH_BOUNTY_*, database URLs, PG*, RPC URLs, private keys, HOME, TMPDIR) never reach an agent",
      );
    const value = from[name];
    if (value === undefined) throw refuse("is not set in the runner's environment");
    if (notUtf8.has(name))
      throw refuse(
        "its value is not UTF-8: set it as UTF-8 text (its bytes would reach the agent as U+FFFD, another value)",
      );
    env[name] = value;
  }
  return env;
}

/** Flags of every sandbox: no capabilities (even for a root runner), a new session. */
const SANDBOX_FLAGS = ["--cap-drop", "ALL", "--new-session"] as const;

/** The descriptor bubblewrap reads the seccomp filter from (`--seccomp 3`): the child's fd after stdio. */
const SECCOMP_FD = 3;

let bwrapState: boolean | undefined;
let warned = false;

/**
 * True when `bwrap` is installed and can create a sandbox here, with the agents' seccomp filter loaded
 * ({@link agentSeccompProgram}; probed once per process). False where `bwrap` is missing, user
 * namespaces are disabled, the kernel or bwrap cannot load the filter, or there is no filter for this
 * architecture (anything but x64 and arm64): agents are then never run under a sandbox without it.
 */
export function bubblewrapAvailable(): boolean {
  if (bwrapState === undefined) {
    let fd: number | null = null;
    try {
      fd = openSeccompProgram();
      if (fd === null) bwrapState = false;
      else {
        execFileSync(
          "bwrap",
          ["--ro-bind", "/", "/", "--dev", "/dev", ...SANDBOX_FLAGS, "--seccomp", String(SECCOMP_FD), "true"],
          { stdio: ["ignore", "ignore", "ignore", fd], timeout: 5000 },
        );
        bwrapState = true;
      }
    } catch (e) {
      // ENOENT (not installed), a non-zero exit (user namespaces disabled, filter refused), or the filter
      // could not be written: no sandbox.
      if (!(e instanceof Error)) throw e;
      bwrapState = false;
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }
  return bwrapState;
}

/**
 * A read-only descriptor of {@link agentSeccompProgram} for a child's fd {@link SECCOMP_FD}: written to
 * a file in a fresh directory of the system temp dir (`mkdtemp`: mode 0700, a name no other user can
 * guess or plant), opened, and removed at once, so nothing but the descriptor is left. It is `O_CLOEXEC` in the runner; bubblewrap
 * reads it to its end and closes it before the agent starts. The caller closes it after the spawn.
 * @returns the descriptor, or null where there is no filter for this architecture
 */
function openSeccompProgram(): number | null {
  const program = agentSeccompProgram();
  if (program === null) return null;
  const dir = mkdtempSync(join(tmpdir(), "bb-seccomp-"));
  try {
    const file = join(dir, "filter.bpf");
    writeFileSync(file, program, { mode: 0o600 });
    return openSync(file, "r");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One path hidden inside the sandbox: a directory under an empty tmpfs, a file under `/dev/null`. */
export interface HiddenMount {
  path: string;
  kind: "dir" | "file";
}

/**
 * The mount points that hide `hide` inside the sandbox. bwrap mounts inside its new root, where an
 * absolute symlink does not lead where it leads outside (`--tmpfs /x/link` failed with "No such file or
 * directory" and every task errored), so each path is hidden at its real path (`realpathSync`): the path
 * as given, and every symlink to it, then lead to the hidden mount. Paths that do not exist hide nothing
 * and are skipped; a path under another hidden directory is covered by it (a nested tmpfs would have no
 * mount point).
 * An entry that vanishes while the tree is walked (a live store's files come and go) is skipped: it
 * hides nothing (probe36 B-F2). The walk runs before every agent process, so a link made in a hidden
 * directory during a run is followed by the next agent's mounts.
 * @throws PlatformError `invalid_option` for a layout that cannot be hidden: the root directory, a
 *   file with other hard links (another name of it, anywhere, would stay readable), a path of the tree
 *   the walk cannot read (`EACCES`: it could hold a link; the system's code named), a path or a link in
 *   the tree that leads into `/proc` (`/dev/fd -> /proc/self/fd`: the sandbox's own /proc has no such
 *   mount point; probe36 V-F4), `details.path` naming the link and the reason its target
 */
export function hiddenMounts(hide: readonly string[]): HiddenMount[] {
  const points = new Map<string, HiddenMount>();
  const todo = [...hide];
  for (let h = todo.shift(); h !== undefined; h = todo.shift()) {
    let real: string;
    let st: Stats;
    try {
      real = realpathSync(resolve(h));
      if (points.has(real)) continue;
      st = statSync(real);
    } catch (e) {
      // gone (or never there: a link to `pipe:[..]`): hides nothing (probe36 B-F2)
      if (vanished(e)) continue;
      throw unreadable(h, e);
    }
    if (real === sep) throw unhideable(h, "it is the root directory");
    // a link into /proc (`/dev/fd -> /proc/self/fd`): the sandbox's /proc is a fresh one, where the
    // runner's `/proc/<pid>/..` is no mount point, and bwrap failed every agent (probe36 V-F4)
    if (isProcessView(real))
      throw unhideable(
        h,
        `it leads to ${real}, in the processes' view (/proc): every sandboxed agent gets a /proc of its own, where that path cannot be hidden (and nothing of the runner's is there to hide)`,
      );
    if (!st.isDirectory() && st.nlink > 1)
      throw unhideable(h, `it has ${st.nlink} hard links: another name of the file would stay readable`);
    points.set(real, { path: real, kind: st.isDirectory() ? "dir" : "file" });
    if (st.isDirectory()) todo.push(...linksInside(real));
  }
  const dirs = [...points.values()].filter((m) => m.kind === "dir").map((m) => m.path);
  return [...points.values()]
    .filter((m) => !dirs.some((q) => q !== m.path && isUnder(m.path, q)))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Most entries {@link linksInside} reads under one hidden directory before refusing the layout. */
export const MAX_HIDDEN_ENTRIES = 200_000;

/**
 * What hiding the directory `dir` leaves readable elsewhere: the targets of the symlinks inside it (a
 * `runs` or checkpoint directory symlinked to another disk; hidden in turn, at their real paths), and
 * refuses a file inside with other hard links (its other name, outside, would stay readable).
 * An entry removed between the read of its directory and the look at it is skipped ({@link vanished}).
 * @throws PlatformError `invalid_option` for a file with other hard links, a tree over
 *   {@link MAX_HIDDEN_ENTRIES} entries, or an entry that cannot be read ({@link unreadable})
 */
function linksInside(dir: string): string[] {
  const targets: string[] = [];
  const stack = [dir];
  let seen = 0;
  for (let d = stack.pop(); d !== undefined; d = stack.pop()) {
    let entries: Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch (e) {
      if (vanished(e)) continue; // removed since its parent was read: nothing left to hide
      throw unreadable(d, e);
    }
    for (const e of entries) {
      if (++seen > MAX_HIDDEN_ENTRIES)
        throw unhideable(dir, `it holds more than ${MAX_HIDDEN_ENTRIES} entries to check for links`);
      const p = join(d, e.name);
      if (e.isSymbolicLink()) targets.push(p);
      else if (e.isDirectory()) stack.push(p);
      else if (e.isFile()) {
        let n: number;
        try {
          n = lstatSync(p).nlink;
        } catch (x) {
          if (vanished(x)) continue; // a live store's journal, a checkpoint's temporary file: gone, hides nothing
          throw unreadable(p, x);
        }
        if (n > 1)
          throw unhideable(p, `it has ${n} hard links: another name of the file would stay readable`);
      }
    }
  }
  return targets;
}

/**
 * Whether `e` says the path is gone: removed between a directory's read and the look at its entry
 * (`ENOENT`, `ENOTDIR` when a directory on the way was replaced, `ESRCH` for a process's `/proc` entry
 * whose process ended). A live store's files come and go while the walk runs (its `-journal`, a
 * checkpoint's `*.tmp-PID`, a run's lock): such an entry hides nothing and needs no check (probe36 B-F2:
 * the run died with `internal error: ENOENT ... lstat`).
 */
function vanished(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  return code === "ENOENT" || code === "ENOTDIR" || code === "ESRCH";
}

/** The system's answers that say a path of a hidden tree cannot be read, whatever the moment ({@link unreadable}). */
const UNREADABLE_CODES = new Set(["EACCES", "EPERM", "ELOOP", "EINVAL", "ENAMETOOLONG"]);

/**
 * A path of a hidden tree the walk cannot read (`EACCES`: a directory of another user; `EPERM`, `ELOOP`,
 * `EINVAL`, `ENAMETOOLONG`): it could hold a link the walk does not see, so the layout is refused as one
 * that cannot be hidden, naming the path and the system's code. Any other error (`EMFILE`: the moment's,
 * not the layout's; a bug) is `e` itself.
 */
function unreadable(path: string, e: unknown): unknown {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== "string" || !UNREADABLE_CODES.has(code)) return e;
  return unhideable(path, `it cannot be read to check for links (${code})`);
}

/**
 * PostgreSQL's socket directories: every sandbox gets them empty (a tmpfs) when they exist, so a local
 * database that trusts the runner's OS user (peer authentication) does not let its agent in.
 */
export const DATABASE_SOCKET_DIRS = ["/run/postgresql", "/var/run/postgresql"] as const;

/**
 * Where every runner of this machine puts its agents' `bb-agents-<uid>`: `/tmp`, whatever `TMPDIR` says
 * (probe29 B-F1: a root that followed `TMPDIR` was emptied only in its own runner's sandboxes, and an
 * agent of a runner started with another `TMPDIR` read a running agent's files there). Not POSIX (no
 * uid, no bubblewrap): the system temp dir.
 */
export const AGENTS_PARENT = process.platform === "win32" ? tmpdir() : "/tmp";

/**
 * The parent of the agents' own working directories: `bb-agents-<uid>` in {@link AGENTS_PARENT}
 * (`/tmp`: one per user on the machine, never following `$TMPDIR`), mode 0700, created once and kept,
 * and emptied in every sandbox, so an agent sees no other agent's directory, of this runner or
 * another (whatever `TMPDIR` either was started with), present or future.
 * It is checked with `lstat` every time: a directory (not a symlink) owned by this user with no group or
 * other permission bits. Anything else (a directory or link planted by another user in a shared `/tmp`,
 * probe28 B-F9) is refused: the agents' directories never fall back to the shared temp dir, which the
 * sandbox does not empty (one agent read another's files there).
 * @param parent where `bb-agents-<uid>` is (tests only: every runner uses {@link AGENTS_PARENT})
 * @returns the real path of the directory
 * @throws PlatformError `invalid_option` (field `agents_dir`, `details.path`) naming the path, what is
 *   wrong with it (its owner's uid, its mode, a symlink) and the fix
 */
export function agentWorkRoot(parent: string = AGENTS_PARENT): string {
  const uid = process.getuid?.();
  const root = join(parent, `bb-agents-${uid ?? "user"}`);
  try {
    mkdirSync(root, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  const st = lstatSync(root);
  const why = st.isSymbolicLink()
    ? "it is a symbolic link"
    : !st.isDirectory()
      ? "it is not a directory"
      : uid !== undefined && st.uid !== uid
        ? `it is owned by uid ${st.uid}, not by this user (uid ${uid})`
        : (st.mode & 0o077) !== 0
          ? `its mode is ${(st.mode & 0o777).toString(8)}, not 700`
          : null;
  if (why !== null)
    throw new PlatformError(
      "invalid_option",
      `the agents' directory ${root} is not safe: ${why}; another user may have planted it, and agents in it would not be kept from each other's files. Remove it (its owner or root can), or, if it is yours, chmod 700 it; every runner of this user keeps its agents there, whatever TMPDIR says`,
      { field: "agents_dir", path: root, reason: why },
    );
  return realpathSync(root);
}

/** Directories emptied (a tmpfs) in every sandbox when they exist: the database sockets, the agents' root. */
function emptiedDirs(): string[] {
  const out = new Set<string>();
  for (const d of [...DATABASE_SOCKET_DIRS, agentWorkRoot()]) {
    try {
      const real = realpathSync(d);
      if (real !== sep && statSync(real).isDirectory()) out.add(real);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
  }
  return [...out];
}

/** Whether the real path `p` is `/proc` or inside it (Linux's view of the processes, not files of anyone's). */
const isProcessView = (p: string): boolean => p === "/proc" || isUnder(p, "/proc");

/** True when `p` is strictly inside the directory `dir`. */
const isUnder = (p: string, dir: string): boolean => p.startsWith(dir === sep ? dir : dir + sep);

/** The environment form of `--agent-hide`: a `:`-separated list of paths, as `PATH` is (read by the CLI's `run`/`resume`). */
export const AGENT_HIDE_ENV = "BENCH_BOUNTY_AGENT_HIDE";

/**
 * Whether the path `p` is the agents' directory ({@link agentWorkRoot}) or inside it, and not the agent's
 * working directory `cwd` (a real path) nor inside it: emptied in every sandbox ({@link emptiedDirs}) and
 * not bound again with `cwd`, so a hide path there is already hidden. A path that cannot be resolved is
 * not (the walk of {@link hiddenMounts} says what is wrong with it).
 */
function inAgentsRoot(p: string, cwd?: string): boolean {
  let real: string;
  try {
    real = realpathSync(resolve(p));
  } catch {
    return false;
  }
  if (cwd !== undefined && (real === cwd || isUnder(real, cwd))) return false;
  const root = agentWorkRoot();
  return real === root || isUnder(real, root);
}

const depth = (p: string): number => p.split(sep).filter((x) => x !== "").length;

function unhideable(path: string, why: string): PlatformError {
  return new PlatformError(
    "invalid_option",
    `the store path ${path} cannot be hidden from a sandboxed agent: ${why}; move the store (its directory and its platform.sqlite) to a directory of its own`,
    { field: "store", path, reason: why },
  );
}

/**
 * The extra paths an operator hides from a runner's agents (`run`/`resume --agent-hide PATH`, env
 * `BENCH_BOUNTY_AGENT_HIDE`: probe35 A-F1, a `run --server` agent on the serving host read the
 * service's store, every gold, with one `cp`), each made absolute (against the working directory),
 * and checked as the store's own paths are: hidden through {@link hiddenMounts} at its real path, with
 * the same refusals. A path that does not exist is refused too (a misspelt path would hide nothing).
 * @param paths the paths as given, in order
 * @param option how a refusal names the option (`--agent-hide`, or its environment variable)
 * @returns the absolute paths, for {@link AgentCommand.hide} (through the backend's `privatePaths`)
 * @throws PlatformError `invalid_option` (field `agent-hide`, `details.path`) naming the option and the
 *   path: empty, does not exist, `/proc` or a path in it (probe36 B-F2: its walk ended in an internal
 *   error), or cannot be hidden (the root directory, a file with another hard link, a directory holding
 *   one or a symbolic link into `/proc` such as `/dev`'s `fd` (probe36 V-F4: the run started and every
 *   agent died in bwrap), a tree over {@link MAX_HIDDEN_ENTRIES} entries, a directory in the tree that cannot be read)
 */
export function agentHidePaths(paths: readonly string[], option = "--agent-hide"): string[] {
  return paths.map((given) => {
    const refuse = (why: string) =>
      new PlatformError("invalid_option", `${option} ${terminalText(given)}: ${why}`, {
        field: "agent-hide",
        path: given,
      });
    if (given === "") throw refuse("an empty path hides nothing: name a file or directory");
    const path = resolve(given);
    try {
      // followed to its target: a dangling symbolic link hides nothing either (probe35 V-N1)
      statSync(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
      const dangling = lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true;
      throw refuse(
        dangling
          ? `${terminalText(path)} is a symbolic link to a path that does not exist: it would hide nothing`
          : `${terminalText(path)} does not exist: a misspelt path would hide nothing`,
      );
    }
    if (isProcessView(realpathSync(path)))
      throw refuse(
        `${terminalText(path)} is the processes' view (/proc): every sandboxed agent gets a /proc of its own, showing its own processes only, so nothing of the runner's is there to hide`,
      );
    // the agents' own directory is emptied in every sandbox anyway: nothing to walk here (probe37 B-N1);
    // an agent working in it is checked at its mounts (`agentArgv`)
    if (inAgentsRoot(path)) return path;
    try {
      hiddenMounts([path]);
    } catch (e) {
      if (!(e instanceof PlatformError) || e.code !== "invalid_option") throw e;
      const at = typeof e.details.path === "string" && e.details.path !== path ? ` (${e.details.path})` : "";
      throw refuse(`cannot be hidden from a sandboxed agent${at}: ${String(e.details.reason)}`);
    }
    return path;
  });
}

/**
 * The argv that starts `command` (sandboxed when bwrap works); `cwd` is bound at its real path.
 * Mounts are applied outermost first (bwrap applies them in order, a later one covering an earlier
 * one): a working directory that contains the store is bound before the store is hidden inside it (the
 * other order rebound the whole directory, store included, over the hidden store: found by a probe),
 * and a working directory inside a hidden directory is bound after it. A `hide` path that is the agents'
 * directory or in it (not `cwd` nor in it) is left out: that directory is emptied anyway, `cwd` bound over it.
 * @throws PlatformError `invalid_option` when the working directory is a hidden path (or inside a hidden
 *   file's place: field `agent.cwd`, `details.hidden` the `hide` path that hides it, named in the message
 *   with where hidden paths come from, probe37 B-N1), or a hidden path cannot be hidden ({@link hiddenMounts})
 */
export function agentArgv(command: string, cwd: string, hide: string[], sandbox: boolean): string[] {
  if (!sandbox) return ["sh", "-c", command];
  const dir = realpathSync(cwd);
  // the agents' own directory (and anything in it) is emptied below in every sandbox, the agent's own
  // directory bound over it: hiding it again adds nothing, and walking the other agents' files for links
  // would let one of them refuse this agent's mounts (probe37 B-N1)
  const listed = hide.filter((h) => !inAgentsRoot(h, dir));
  const hidden = hiddenMounts(listed);
  const clash = hidden.find((m) => m.path === dir || (m.kind === "file" && isUnder(dir, m.path)));
  if (clash) {
    // which path given hides it, by its own walk (only now: a refusal's cost)
    const given = listed.find((h) => hiddenMounts([h]).some((m) => m.path === clash.path));
    const as =
      given !== undefined && resolve(given) !== clash.path ? ` (hidden as ${terminalText(given)})` : "";
    throw new PlatformError(
      "invalid_option",
      `the agent's working directory ${terminalText(cwd)} is ${terminalText(clash.path)}${as}, a path hidden from the agents (the store's, its --store directory, or one named by --agent-hide or ${AGENT_HIDE_ENV}): give the agent a directory that is not hidden, or none: it then gets a fresh one of its own under the agents' directory bb-agents-<uid>, which is always hidden from the other agents and need not be listed`,
      { field: "agent.cwd", path: cwd, hidden: given ?? clash.path },
    );
  }
  const emptied = emptiedDirs();
  const mounts: { path: string; args: string[] }[] = emptied.map((d) => ({
    path: d,
    args: ["--tmpfs", d],
  }));
  for (const m of hidden)
    mounts.push({
      path: m.path,
      args: m.kind === "dir" ? ["--tmpfs", m.path] : ["--ro-bind", "/dev/null", m.path],
    });
  mounts.push({ path: dir, args: ["--bind", dir, dir] });
  mounts.sort((a, b) => depth(a.path) - depth(b.path)); // stable: equal depths keep their order
  const argv = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  for (const m of mounts) argv.push(...m.args);
  // --cap-drop ALL: bwrap keeps every capability when the runner is root, and a root agent could then
  // `umount` the tmpfs and read the store (found by a probe); --new-session: no TIOCSTI into the terminal
  argv.push("--chdir", dir, "--unshare-pid", "--die-with-parent", ...SANDBOX_FLAGS);
  // no unix socket: no local service lets the agent in, however its socket was bound (probe32 B-F1)
  argv.push("--seccomp", String(SECCOMP_FD));
  argv.push("sh", "-c", command);
  return argv;
}

/**
 * The one warning a runner prints when bubblewrap cannot be used: what an unsandboxed agent reaches
 * (the store, the runner's environment through `/proc`, the other agents' files; processes it detaches
 * outlive the run: probe30 B-F2, B-F3).
 */
export const NO_SANDBOX_WARNING =
  "warning: bubblewrap (bwrap) is not usable here: agents run as plain processes of your user: they can read the store (gold included), this runner's environment through /proc/<pid>/environ (keys, DATABASE_URL) and the other agents' files, and processes they detach outlive the run; run only your own agents so, or install it with apt-get install -y bubblewrap";

/** Linux's `O_CLOEXEC` in `/proc/self/fdinfo/<fd>`'s octal `flags`: closed at exec, never inherited. */
const O_CLOEXEC = 0o2000000;

/**
 * Closes the file descriptors above 2 that this process inherited open across exec (no `O_CLOEXEC`:
 * `exec 300<store/platform.sqlite` in the shell that started the runner, a supervisor's or a CI
 * harness's pipe), so that no agent inherits them: Node keeps only its own descriptors from a child
 * (each is `O_CLOEXEC`: libuv, SQLite and the PostgreSQL sockets open theirs so), and bubblewrap passes
 * the rest on, so an agent read the store's gold through `/proc/self/fd/300` however well the store's
 * path was hidden (probe30 B-F1). Node's IPC channel (`NODE_CHANNEL_FD`) is kept. Linux only (read from
 * `/proc/self/fdinfo`); elsewhere nothing is closed.
 * @returns the descriptors closed
 */
export function closeInheritedDescriptors(): number[] {
  let fds: string[];
  try {
    fds = readdirSync("/proc/self/fd");
  } catch {
    return [];
  }
  const channel = Number(process.env.NODE_CHANNEL_FD);
  const closed: number[] = [];
  for (const name of fds) {
    const fd = Number(name);
    if (!Number.isSafeInteger(fd) || fd <= 2 || fd === channel) continue;
    let flags: number;
    try {
      const m = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"));
      if (m === null) continue;
      flags = parseInt(m[1]!, 8);
    } catch {
      continue; // gone meanwhile (the directory's own descriptor of the listing)
    }
    if ((flags & O_CLOEXEC) !== 0) continue;
    try {
      closeSync(fd);
      closed.push(fd);
    } catch {
      // closed meanwhile
    }
  }
  return closed;
}

/** How much of an agent's stderr an error shows: its last lines, each cut to a length, all bounded. */
export const STDERR_TAIL_LINES = 12;
/** Longest line shown (its start is kept: a message says what it is about first). */
export const STDERR_TAIL_LINE_CHARS = 160;
export const STDERR_TAIL_CHARS = 2000;

/**
 * The useful end of an agent's stderr: the last {@link STDERR_TAIL_LINES} non-empty lines, each cut to
 * {@link STDERR_TAIL_LINE_CHARS} characters (marked `...`), at most {@link STDERR_TAIL_CHARS} in all.
 * The agent is somebody else's code and the tail is printed on the operator's terminal: its control
 * characters are shown escaped ({@link terminalText}: `ESC` as `\x1b`), never sent to the terminal.
 */
export function stderrTailOf(text: string): string {
  const lines = text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((l) => terminalText(l.trimEnd()))
    .filter((l) => l !== "")
    .map((l) => (l.length > STDERR_TAIL_LINE_CHARS ? l.slice(0, STDERR_TAIL_LINE_CHARS - 3) + "..." : l));
  const tail = lines.slice(-STDERR_TAIL_LINES).join("\n");
  return tail.length > STDERR_TAIL_CHARS ? "..." + tail.slice(-(STDERR_TAIL_CHARS - 3)) : tail;
}

/** Most bytes of an agent's stdout kept (16 MiB): one JSON document of a batch's answers. */
export const MAX_AGENT_STDOUT_BYTES = 16 * 1024 * 1024;

/** The result of one agent process. */
export type AgentProcessResult =
  | { kind: "aborted" }
  | {
      kind: "timeout";
      stderrTail: string;
      /**
       * Its stdout's bytes read by the timeout (at most {@link MAX_AGENT_STDOUT_BYTES}): a whole document
       * there is an agent that answered and did not exit (probe33 B-F10's addendum, said "no answer").
       */
      stdout: Uint8Array;
    }
  | {
      /**
       * Its stdout passed {@link MAX_AGENT_STDOUT_BYTES}: the process group was killed at once (probe33
       * B-F10: a flooding agent was read and discarded until the batch's timeout).
       */
      kind: "stdout_over_limit";
      /** Bytes of stdout read when the limit was passed (more than {@link MAX_AGENT_STDOUT_BYTES}). */
      stdoutBytes: number;
      stderrTail: string;
    }
  | {
      kind: "exit";
      code: number | null;
      signal: NodeJS.Signals | null;
      /**
       * The bytes of its stdout, as written (not decoded here: the runner refuses bytes that are not
       * UTF-8, naming the offset, rather than reading U+FFFD), at most {@link MAX_AGENT_STDOUT_BYTES}.
       */
      stdout: Uint8Array;
      /** {@link stderrTailOf} the agent's stderr. */
      stderrTail: string;
    };

/**
 * Runs an agent once: writes `input` to its stdin, collects stdout's bytes, appends stderr to
 * `logFile` (the run's agent log, bounded: {@link AgentLogWriter}, `MAX_AGENT_LOG_BYTES`), kills
 * its process group at `timeoutMs`, when `signal` aborts, or the moment its stdout passes
 * {@link MAX_AGENT_STDOUT_BYTES} (`stdout_over_limit`: the limit is enforced while streaming).
 */
export async function runAgentProcess(
  agent: AgentCommand,
  input: string,
  timeoutMs: number,
  signal: AbortSignal,
  logFile: string,
): Promise<AgentProcessResult> {
  if (signal.aborted) return { kind: "aborted" };
  const own = agent.cwd === undefined ? mkdtempSync(join(agentWorkRoot(), "bb-agent-")) : null;
  const cwd = agent.cwd ?? own!;
  const sandbox = bubblewrapAvailable();
  if (!sandbox && !warned) {
    warned = true;
    process.stderr.write(`${NO_SANDBOX_WARNING}\n`);
  }
  closeInheritedDescriptors(); // none reaches the agent (probe30 B-F1)
  let seccomp: number | null = null;
  try {
    const [file, ...args] = agentArgv(agent.command, cwd, agent.hide ?? [], sandbox);
    seccomp = sandbox ? openSeccompProgram() : null;
    return await spawnAgent(
      file!,
      args,
      cwd,
      agentEnvironment(cwd, agent.env),
      input,
      timeoutMs,
      signal,
      logFile,
      seccomp,
    );
  } finally {
    if (seccomp !== null) closeSync(seccomp);
    if (own) rmSync(own, { recursive: true, force: true });
  }
}

function spawnAgent(
  file: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  input: string,
  timeoutMs: number,
  signal: AbortSignal,
  logFile: string,
  seccomp: number | null,
): Promise<AgentProcessResult> {
  return new Promise((resolve) => {
    // the filter on fd 3 for bwrap's `--seccomp 3`, which closes it before the agent starts; 0-2 are
    // pipes either way (the cast: Node types only a 3-entry stdio so)
    const child = spawn(file, args, {
      cwd,
      env,
      stdio: ["pipe", "pipe", "pipe", ...(seccomp === null ? [] : [seccomp])],
      detached: true,
    }) as ChildProcessWithoutNullStreams;
    const log = new AgentLogWriter(logFile);
    const out: Buffer[] = [];
    let outLen = 0;
    let errTail = "";
    let settled: "timeout" | "aborted" | "stdout_over_limit" | null = null;
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch (e) {
        // ESRCH: the group is already gone.
        if ((e as NodeJS.ErrnoException).code !== "ESRCH") throw e;
      }
    };
    const timer = setTimeout(() => {
      settled ??= "timeout";
      kill();
    }, timeoutMs);
    const onAbort = () => {
      settled = "aborted";
      kill();
    };
    signal.addEventListener("abort", onAbort);
    child.stdout.on("data", (d: Buffer) => {
      if (settled !== null) return;
      outLen += d.length;
      if (outLen <= MAX_AGENT_STDOUT_BYTES) out.push(d);
      else {
        // decided now, not when the agent stops writing (probe33 B-F10)
        settled = "stdout_over_limit";
        out.length = 0;
        kill();
      }
    });
    child.stderr.on("data", (d: Buffer) => {
      // kept a little longer than the shown tail, so the last lines survive a long final line
      errTail = (errTail + d.toString("utf8")).slice(-4 * STDERR_TAIL_CHARS);
      log.append(d);
    });
    child.stdin.on("error", (e: NodeJS.ErrnoException) => {
      // The agent may exit without reading stdin (EPIPE); anything else goes to the agent log.
      if (e.code !== "EPIPE") log.append(`stdin: ${e.message}\n`);
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      log.append(`the agent could not be started: ${e.message}\n`);
      log.close();
      resolve({
        kind: "exit",
        code: 127,
        signal: null,
        stdout: new Uint8Array(0),
        stderrTail: e.message,
      });
    });
    child.on("close", (code, sig) => {
      clearTimeout(timer);
      log.close();
      signal.removeEventListener("abort", onAbort);
      if (settled === "aborted") resolve({ kind: "aborted" });
      else if (settled === "timeout")
        resolve({ kind: "timeout", stderrTail: stderrTailOf(errTail), stdout: Buffer.concat(out) });
      else if (settled === "stdout_over_limit")
        resolve({ kind: "stdout_over_limit", stdoutBytes: outLen, stderrTail: stderrTailOf(errTail) });
      else
        resolve({
          kind: "exit",
          code,
          signal: sig,
          stdout: Buffer.concat(out),
          stderrTail: stderrTailOf(errTail),
        });
    });
    child.stdin.end(input + "\n");
  });
}
