/**
 * `serve --publish-budget-all N`: all accounts but the operator's together publish at most N
 * benchmarks per 24 h, for an operator who wants such a budget; by default there is none (probe8 P2:
 * free accounts filled the former default of 100 and locked every author out; the operator's anchor
 * transactions are bounded by batching instead). Bad values are refused before anything starts,
 * naming the flag.
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

async function startServe(extra: string[]): Promise<string> {
  const store = mkdtempSync(join(tmpdir(), "bb-cli-budget-"));
  const child = spawn(process.execPath, [bin, "serve", "--store", store, "--port", "0", ...extra], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH! },
  });
  children.push(child);
  return serveUrl(child);
}

async function publishAs(base: string, name: string) {
  const acct = await post(base, "/api/v1/accounts", { name });
  expect(acct.status, JSON.stringify(acct.json)).toBe(201);
  const key = acct.json.api_key as string;
  const rows = Array.from({ length: 4 }, (_, i) => ({
    decision_ts: `2026-01-0${i + 1}T00:00:00Z`,
    payload: { city: `City${i}`, index: i },
    label: `answer-${i}`,
  }));
  const ds = await post(base, "/api/v1/datasets", { name: `budget-${name}`, rows }, key);
  expect(ds.status, JSON.stringify(ds.json)).toBe(201);
  return post(
    base,
    `/api/v1/datasets/${ds.json.dataset_id}/benchmark`,
    { title: `Budget ${name}`, prompt_template: "Q {payload.city} #{payload.index}", grader_type: "exact" },
    key,
  );
}

describe("serve --publish-budget-all", { timeout: 90_000 }, () => {
  it("is documented in serve --help", () => {
    const r = spawnSync(process.execPath, [bin, "serve", "--help"], { encoding: "utf8" });
    expect(r.stdout).toMatch(/--publish-budget-all <n>\s+publishes per 24 h by all accounts/);
  });

  it.each(["0", "-1", "1.5", "abc", "1e3", ""])("refuses %j naming the flag, before it listens", (bad) => {
    const store = mkdtempSync(join(tmpdir(), "bb-cli-budget-"));
    const r = spawnSync(
      process.execPath,
      [bin, "serve", "--store", store, "--port", "0", `--publish-budget-all=${bad}`],
      { encoding: "utf8", env: { PATH: process.env.PATH! }, timeout: 60_000 },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("--publish-budget-all must be an integer 1..999999999");
    expect(r.stdout).not.toContain("listening on");
  });

  it("N = 2: the third account's publish is 429 publishes_all_accounts", async () => {
    const base = await startServe(["--publish-budget-all", "2"]);
    expect((await publishAs(base, "budget-a")).status).toBe(201);
    expect((await publishAs(base, "budget-b")).status).toBe(201);
    const third = await publishAs(base, "budget-c");
    expect(third.status).toBe(429);
    expect(third.json.error).toMatchObject({
      code: "publish_quota_exceeded",
      details: { limit: "publishes_all_accounts", count: 2 },
    });
  });
});
