/**
 * `serve --dataset-bytes-per-account N` (probe10 R5): the bytes of dataset rows one account may keep
 * stored (default 256 MiB); past it an upload is 413 `dataset_quota_exceeded` naming the limit. Bad
 * values are refused before anything starts, naming the flag.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { post, serveUrl } from "./serve-process.js";

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, "..", "dist", "index.js");

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGTERM");
});

describe("serve --dataset-bytes-per-account", { timeout: 90_000 }, () => {
  it("is documented in serve --help", () => {
    const r = spawnSync(process.execPath, [bin, "serve", "--help"], { encoding: "utf8" });
    expect(r.stdout.replace(/\s+/g, " ")).toMatch(
      /--dataset-bytes-per-account <bytes> bytes of dataset rows/,
    );
  });

  it.each(["0", "-1", "1.5", "abc", "1e3", ""])("refuses %j naming the flag, before it listens", (bad) => {
    const store = mkdtempSync(join(tmpdir(), "bb-cli-dsquota-"));
    const r = spawnSync(
      process.execPath,
      [bin, "serve", "--store", store, "--port", "0", `--dataset-bytes-per-account=${bad}`],
      { encoding: "utf8", env: { PATH: process.env.PATH! }, timeout: 60_000 },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("--dataset-bytes-per-account must be an integer 1..999999999999999");
    expect(r.stdout).not.toContain("listening on");
  });

  it("N = 1000: a second dataset past 1000 bytes is 413 dataset_quota_exceeded", async () => {
    const store = mkdtempSync(join(tmpdir(), "bb-cli-dsquota-"));
    const child = spawn(
      process.execPath,
      [bin, "serve", "--store", store, "--port", "0", "--dataset-bytes-per-account", "1000"],
      { stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH! } },
    );
    children.push(child);
    const base = await serveUrl(child);
    const acct = await post(base, "/api/v1/accounts", { name: "dsquota" });
    expect(acct.status).toBe(201);
    const key = acct.json.api_key as string;
    const rows = Array.from({ length: 8 }, (_, i) => ({
      decision_ts: "2026-01-01T00:00:00Z",
      payload: { city: `City${i}` },
      label: `answer-${i}`,
    }));
    expect((await post(base, "/api/v1/datasets", { name: "one", rows }, key)).status).toBe(201);
    const second = await post(base, "/api/v1/datasets", { name: "two", rows }, key);
    expect(second.status).toBe(413);
    expect(second.json.error).toMatchObject({
      code: "dataset_quota_exceeded",
      details: { limit: "dataset_bytes_per_account", limit_bytes: 1000 },
    });
  });
});

describe("serve --dataset-bytes-all (probe11 O5)", { timeout: 90_000 }, () => {
  it("is documented in serve --help", () => {
    const r = spawnSync(process.execPath, [bin, "serve", "--help"], { encoding: "utf8" });
    expect(r.stdout.replace(/\s+/g, " ")).toMatch(
      /--dataset-bytes-all <bytes> bytes of dataset rows and published test sets all accounts but the operator's may keep stored together/,
    );
  });

  it.each(["0", "-1", "1.5", "abc", ""])("refuses %j naming the flag, before it listens", (bad) => {
    const store = mkdtempSync(join(tmpdir(), "bb-cli-dsall-"));
    const r = spawnSync(
      process.execPath,
      [bin, "serve", "--store", store, "--port", "0", `--dataset-bytes-all=${bad}`],
      { encoding: "utf8", env: { PATH: process.env.PATH! }, timeout: 60_000 },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("--dataset-bytes-all must be an integer 1..999999999999999");
    expect(r.stdout).not.toContain("listening on");
  });

  it("BENCH_BOUNTY_DATASET_BYTES_ALL=1000: another account's dataset past 1000 bytes in all is 413", async () => {
    const store = mkdtempSync(join(tmpdir(), "bb-cli-dsall-"));
    const child = spawn(process.execPath, [bin, "serve", "--store", store, "--port", "0"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: process.env.PATH!, BENCH_BOUNTY_DATASET_BYTES_ALL: "1000" },
    });
    children.push(child);
    const base = await serveUrl(child);
    const rows = Array.from({ length: 8 }, (_, i) => ({
      decision_ts: "2026-01-01T00:00:00Z",
      payload: { city: `City${i}` },
      label: `answer-${i}`,
    }));
    const keys: string[] = [];
    for (const name of ["dsall-a", "dsall-b"]) {
      const acct = await post(base, "/api/v1/accounts", { name });
      expect(acct.status).toBe(201);
      keys.push(acct.json.api_key as string);
    }
    expect((await post(base, "/api/v1/datasets", { name: "one", rows }, keys[0])).status).toBe(201);
    const second = await post(base, "/api/v1/datasets", { name: "two", rows }, keys[1]);
    expect(second.status).toBe(413);
    expect(second.json.error).toMatchObject({
      code: "dataset_quota_exceeded",
      details: { limit: "dataset_bytes_all_accounts", limit_bytes: 1000 },
    });
  });
});
