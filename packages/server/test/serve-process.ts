/**
 * Test support: real `bench-bounty serve` processes (the built bin, or the test-only fault entry
 * `fixtures/fault-serve.mjs` with one fault point armed) on a store of the engine under test.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  databaseUrlWithSchema,
  dropPostgresSchema,
  freshPostgresTarget,
  TEST_ENGINE,
} from "@bench-bounty/platform/testing";

const CLI = new URL("../../cli/dist/index.js", import.meta.url).pathname;
const FAULT_CLI = new URL("./fixtures/fault-serve.mjs", import.meta.url).pathname;

/** A store of the engine under test: an SQLite `--store` directory, or a PostgreSQL schema's URL (and a checkpoint directory). */
export interface ServeStore {
  dir: string;
  databaseUrl: string | null;
}

/** A running (or exited) serve process. */
export interface Serve {
  url: string;
  proc: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the signal name or `exit N` once the process has exited. */
  exited: Promise<string>;
}

const children: ChildProcess[] = [];
const dirs: string[] = [];
const schemas: string[] = [];

/** A fresh directory removed by {@link cleanupServes}. */
export function tempDir(prefix = "bb-serve-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** A fresh store of the engine under test (`BB_TEST_ENGINE`). */
export async function freshStore(): Promise<ServeStore> {
  const dir = tempDir();
  if (TEST_ENGINE !== "postgres") return { dir, databaseUrl: null };
  const t = await freshPostgresTarget();
  schemas.push(t.schema!);
  return { dir, databaseUrl: databaseUrlWithSchema(t.url, t.schema!) };
}

/**
 * Starts `bench-bounty serve --store DIR --port 0 ARGS` (with `DATABASE_URL` on PostgreSQL); with
 * `fault`, through the test entry that SIGKILLs the process at that platform fault point.
 * Resolves once the banner is printed.
 */
export function startServe(
  store: ServeStore,
  opts: { fault?: string; args?: string[]; env?: Record<string, string> } = {},
): Promise<Serve> {
  const proc = spawn(
    process.execPath,
    [opts.fault ? FAULT_CLI : CLI, "serve", "--store", store.dir, "--port", "0", ...(opts.args ?? [])],
    {
      env: {
        PATH: process.env.PATH!,
        ...opts.env,
        ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
        ...(opts.fault ? { BB_TEST_FAULT: opts.fault } : {}),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  children.push(proc);
  let out = "";
  const exited = new Promise<string>((res) =>
    proc.once("exit", (code, signal) => res(signal ?? `exit ${code}`)),
  );
  return new Promise((resolve, reject) => {
    proc.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    proc.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)[\s\S]*\n {2}MCP: \S+/.exec(out);
      if (m) resolve({ url: m[1]!, proc, output: () => out, exited });
    });
    void exited.then((how) => reject(new Error(`serve exited (${how}) before listening: ${out}`)));
    // a serve that neither listens nor exits fails the test with what it printed, not a bare timeout
    const slow = setTimeout(() => reject(new Error(`serve not listening after 60 s: ${out}`)), 60_000);
    slow.unref();
  });
}

/** SIGTERM (a clean stop), then waits for the exit. */
export async function stopServe(s: Serve): Promise<void> {
  if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill("SIGTERM");
  await s.exited;
}

/** Kills every process still running, removes the directories and drops the schemas. */
export async function cleanupServes(): Promise<void> {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  for (const s of schemas.splice(0)) await dropPostgresSchema(s);
}
