/** Test helper: a spawned `bench-bounty serve` process, waited for until it prints its banner. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect } from "vitest";

/**
 * Collects `child`'s stdout and stderr (reported through `onOutput` as they grow) and resolves the URL
 * of its `listening on` line once the banner is whole (its `MCP:` line), within 30 s.
 * @throws Error with everything printed when the process exits or the 30 s pass first
 */
export async function serveUrl(
  child: ChildProcess,
  onOutput: (out: string, err: string) => void = () => {},
): Promise<string> {
  let out = "";
  let err = "";
  child.stdout!.on("data", (d: Buffer) => onOutput((out += d.toString()), err));
  child.stderr!.on("data", (d: Buffer) => onOutput(out, (err += d.toString())));
  const end = Date.now() + 30_000;
  while (Date.now() < end) {
    const m = /listening on (\S+)/.exec(out);
    if (m && /MCP: /.test(out)) return m[1]!;
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`serve did not start: ${out}\n${err}`);
}

/** The serve processes {@link startServe} started and {@link killStartedServes} has not killed yet. */
const started: ChildProcess[] = [];

/**
 * Starts `serve` on `store` (with `--port 0` and a bare `PATH` only) and waits for its banner.
 * @returns its process, URL, exit (its code, or the signal's name) and its output so far
 */
export async function startServe(store: string) {
  const child = spawn(process.execPath, [CLI_BIN, "serve", "--store", store, "--port", "0"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH! },
  });
  started.push(child);
  const exited = new Promise<number | string | null>((res) =>
    child.once("exit", (code, signal) => res(code ?? signal)),
  );
  let printed = { out: "", err: "" };
  const url = await serveUrl(child, (out, err) => (printed = { out, err }));
  return { child, url, exited, printed: () => printed };
}

/** Kills every serve {@link startServe} started that still runs (a file's `afterEach`). */
export function killStartedServes(): void {
  for (const c of started.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
}

/** POSTs `body` as JSON to a serve under test (with `key` as `x-api-key`); the status and the parsed answer. */
export async function post(base: string, path: string, body: unknown, key?: string) {
  const r = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { "x-api-key": key } : {}) },
    body: JSON.stringify(body),
  });
  return { status: r.status, json: (await r.json()) as Record<string, any> };
}

/**
 * {@link post} from the loopback address `from` (127.x.y.z): another client address, and another client
 * network when its /24 differs (the accounts of one network share a quarter of each all-accounts
 * budget, probe30 A-F7).
 */
export function postFrom(from: string, base: string, path: string, body: unknown, key?: string) {
  return new Promise<{ status: number; json: Record<string, any> }>((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      {
        method: "POST",
        localAddress: from,
        headers: { "content-type": "application/json", ...(key ? { "x-api-key": key } : {}) },
      },
      (res) => {
        let text = "";
        res.on("data", (d: Buffer) => (text += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode!, json: JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

/** The CLI's built entry point: the tests spawn what the package builds. */
export const CLI_BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "index.js");

/** `serve --help` with its line breaks folded (commander wraps the help to the terminal's width). */
export function serveHelp(): string {
  return spawnSync(process.execPath, [CLI_BIN, "serve", "--help"], { encoding: "utf8" }).stdout.replace(
    /\s+/g,
    " ",
  );
}

/**
 * Runs `serve --flag=value` on a fresh store (`prefix` names its temp folder) and expects the refusal
 * of a bad value: exit 1, `message` on stderr, never listening.
 */
export function expectFlagRefused(prefix: string, flag: string, value: string, message: string): void {
  const store = mkdtempSync(join(tmpdir(), prefix));
  const r = spawnSync(
    process.execPath,
    [CLI_BIN, "serve", "--store", store, "--port", "0", `${flag}=${value}`],
    {
      encoding: "utf8",
      env: { PATH: process.env.PATH! },
      timeout: 60_000,
    },
  );
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(message);
  expect(r.stdout).not.toContain("listening on");
}

/**
 * A starter of `serve` processes for a test file: each on a fresh store (`prefix` names its temp
 * folder), port 0, with `args` and the environment `env` (PATH only by default); every one started is
 * stopped (SIGTERM) after each test.
 * @returns the starter: resolves the server's base URL once its banner is whole
 */
export function useServe(prefix: string): (args?: string[], env?: Record<string, string>) => Promise<string> {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGTERM");
  });
  return (args = [], env = {}) => {
    const store = mkdtempSync(join(tmpdir(), prefix));
    const child = spawn(process.execPath, [CLI_BIN, "serve", "--store", store, "--port", "0", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: process.env.PATH!, ...env },
    });
    children.push(child);
    return serveUrl(child);
  };
}

/** `n` labelled dataset rows `{decision_ts, payload: {city: CityI}, label: answer-I}`. */
export function cityRows(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    decision_ts: "2026-01-01T00:00:00Z",
    payload: { city: `City${i}` },
    label: `answer-${i}`,
  }));
}
