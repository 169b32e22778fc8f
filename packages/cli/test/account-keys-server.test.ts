/**
 * keys29 item 2: `account keys | issue-key | revoke` took only the local store. With `--server URL
 * --api-key KEY` (env `BENCH_BOUNTY_SERVER`, `BENCH_BOUNTY_API_KEY`) they act on the key's account on
 * that server through the typed client, printing what the local commands print; `revoke` sends a whole
 * key's prefix only (the server refuses a whole key in its URL); `--server` is checked as `run`'s.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_BIN, post, useServe } from "./serve-process.js";

const serve = useServe("bb-cli-keys-");

/** The bin with `args` in an empty folder (nothing of the local store may appear there), PATH and `env` only. */
function cli(args: string[], env: Record<string, string> = {}) {
  const cwd = mkdtempSync(join(tmpdir(), "bb-cli-keys-cwd-"));
  const r = spawnSync(process.execPath, [CLI_BIN, ...args], {
    cwd,
    encoding: "utf8",
    env: { PATH: process.env.PATH!, ...env },
    timeout: 60_000,
  });
  expect(readdirSync(cwd)).toEqual([]);
  return r;
}

describe("account keys | issue-key | revoke --server (keys29 item 2)", () => {
  it("list, issue and revoke the key's account's keys on a server; the last active key is refused", async () => {
    const base = await serve();
    const reg = await post(base, "/api/v1/accounts", { name: "cli-keys" });
    expect(reg.status).toBe(201);
    const oldKey = reg.json.api_key as string;
    const oldPrefix = reg.json.key_prefix as string;

    const listed = cli(["account", "keys", "--server", base, "--api-key", oldKey]);
    expect(listed.stderr).toBe("");
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      { key_prefix: oldPrefix, created_at: expect.any(String), revoked_at: null },
    ]);

    // the environment's server and key, as `run`
    const issued = cli(["account", "issue-key"], { BENCH_BOUNTY_SERVER: base, BENCH_BOUNTY_API_KEY: oldKey });
    expect(issued.status).toBe(0);
    const fresh = JSON.parse(issued.stdout) as { account_id: string; key_prefix: string; api_key: string };
    expect(fresh).toEqual({
      account_id: reg.json.account.account_id,
      key_prefix: expect.stringMatching(/^bbk_[0-9a-f]{12}$/),
      api_key: expect.stringMatching(/^bbk_/),
    });

    // the whole old key names it: only its prefix goes into the server's URL (a whole key there is 422)
    const revoked = cli(["account", "revoke", oldKey, "--server", base, "--api-key", fresh.api_key]);
    expect(revoked.stderr).toBe("");
    expect(revoked.status).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({
      key_prefix: oldPrefix,
      created_at: expect.any(String),
      revoked_at: expect.any(String),
    });
    const after = JSON.parse(cli(["account", "keys", "--server", base, "--api-key", fresh.api_key]).stdout);
    expect(
      after.map((k: { key_prefix: string; revoked_at: string | null }) => [k.key_prefix, !!k.revoked_at]),
    ).toEqual(
      expect.arrayContaining([
        [oldPrefix, true],
        [fresh.key_prefix, false],
      ]),
    );
    expect(cli(["account", "keys", "--server", base, "--api-key", oldKey]).status).toBe(1);

    const last = cli(["account", "revoke", fresh.key_prefix, "--server", base, "--api-key", fresh.api_key]);
    expect(last.status).toBe(1);
    expect(last.stderr).toMatch(/^error: key bbk_[0-9a-f]{12} is the account's last active key/);
    expect(last.stderr).toContain('"code": "last_active_key"');
    expect(last.stderr + last.stdout).not.toContain(fresh.api_key.slice(17));
  });

  it("--server is checked as run's (never echoed), needs --api-key; a text that is no key is refused before any request", () => {
    for (const cmd of [["keys"], ["issue-key"], ["revoke", "bbk_0123456789ab"]]) {
      const bad = cli(["account", ...cmd, "--server", "ftp://u:SRVPW@x/SRVKEY", "--api-key", "k"]);
      expect(bad.status).toBe(1);
      expect(bad.stderr.startsWith("error: --server must be an http:// or https:// URL")).toBe(true);
      expect(bad.stderr).not.toMatch(/SRVPW|SRVKEY/);
      const keyless = cli(["account", ...cmd, "--server", "http://127.0.0.1:1"]);
      expect(keyless.status).toBe(1);
      expect(keyless.stderr).toMatch(/^error: --server needs --api-key \(or BENCH_BOUNTY_API_KEY\)/);
    }
    // a mistyped key is not sent anywhere (127.0.0.1:1 would be a network error) nor echoed
    const typo = "bbk_0123456789ab_" + "A".repeat(44);
    const r = cli(["account", "revoke", typo, "--server", "http://127.0.0.1:1", "--api-key", "k"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^error: not a key prefix/);
    expect(r.stderr).toContain('"code": "unknown_key"');
    expect(r.stderr).not.toContain("A".repeat(44));
  });
});
