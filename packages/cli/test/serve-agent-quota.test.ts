/**
 * `serve --agents-per-account N` / `--agents-per-benchmark N`: the operator sets the agent quota
 * (default 20 per account, 3 of them per benchmark; probe10 R9). Bad values are refused before
 * anything starts, naming the flag.
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

describe("serve --agents-per-account", { timeout: 90_000 }, () => {
  it("is documented in serve --help", () => {
    const r = spawnSync(process.execPath, [bin, "serve", "--help"], { encoding: "utf8" });
    // commander wraps the help to the terminal's width: compare with the line breaks folded
    const help = r.stdout.replace(/\s+/g, " ");
    expect(help).toMatch(/--agents-per-account <n> agents one account may register \(default 20\)/);
    expect(help).toMatch(/--agents-per-benchmark <n> agents of one account that may start runs/);
  });

  it.each(["0", "1.5", "abc"])("refuses %j naming the flag, before it listens", (bad) => {
    const store = mkdtempSync(join(tmpdir(), "bb-cli-agents-"));
    const r = spawnSync(
      process.execPath,
      [bin, "serve", "--store", store, "--port", "0", `--agents-per-account=${bad}`],
      { encoding: "utf8", env: { PATH: process.env.PATH! }, timeout: 60_000 },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("--agents-per-account must be an integer 1..999999999");
    expect(r.stdout).not.toContain("listening on");
  });

  it("N = 2: an account's third agent is 429 agent_quota_exceeded naming agents_per_account", async () => {
    const store = mkdtempSync(join(tmpdir(), "bb-cli-agents-"));
    const child = spawn(
      process.execPath,
      [bin, "serve", "--store", store, "--port", "0", "--agents-per-account", "2"],
      { stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH! } },
    );
    children.push(child);
    const base = await serveUrl(child);
    const acct = await post(base, "/api/v1/accounts", { name: "agents-cli" });
    expect(acct.status, JSON.stringify(acct.json)).toBe(201);
    const key = acct.json.api_key as string;
    expect((await post(base, "/api/v1/accounts/me/agents", { agent_id: "agents-cli-2" }, key)).status).toBe(
      201,
    );
    const third = await post(base, "/api/v1/accounts/me/agents", { agent_id: "agents-cli-3" }, key);
    expect(third.status).toBe(429);
    expect(third.json.error).toMatchObject({
      code: "agent_quota_exceeded",
      details: { limit: "agents_per_account", max_agents: 2 },
    });
  });
});
