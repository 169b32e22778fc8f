/**
 * The platform commands on PostgreSQL: with `DATABASE_URL` set, `account create`, `publish`, `run`,
 * `leaderboard` and `show` use that database (the same way `serve` does), and `--store` holds only
 * the local runner's checkpoints. Runs when `TEST_DATABASE_URL` is set (and under `CI`, where a missing
 * database fails loudly), on a fresh schema of it.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  databaseUrlWithSchema,
  dropPostgresSchema,
  freshPostgresTarget,
  seattlePublishArgs,
} from "@bench-bounty/platform/testing";
import { bubblewrapAvailable } from "@bench-bounty/platform";
import { afterAll, describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, "..", "dist", "index.js");
const AGENT = join(here, "..", "..", "platform", "test", "fixtures", "agent.mjs");
const dirs: string[] = [];
let schema: string | null = null;

afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  if (schema) await dropPostgresSchema(schema);
});

/** Runs `bench-bounty ARGS` with `env` (and PATH only). */
function cli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  const p = spawn(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH!, ...env } });
  let out = "";
  let err = "";
  p.stdout.on("data", (d: Buffer) => (out += d.toString()));
  p.stderr.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((res) => p.once("close", (code) => res({ code, out, err })));
}

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "bb-cli-pg-"));
  dirs.push(d);
  return d;
}

describe.runIf(Boolean(process.env.TEST_DATABASE_URL || process.env.CI))(
  "platform commands on PostgreSQL (DATABASE_URL)",
  { timeout: 120_000 },
  () => {
    it("publish, account, run, leaderboard and show share the database; --store keeps only checkpoints", async () => {
      const t = await freshPostgresTarget();
      schema = t.schema!;
      const env = { DATABASE_URL: databaseUrlWithSchema(t.url, schema) };
      const storeA = tempDir();
      const pub = await cli([...seattlePublishArgs("seattle-pg"), "--store", storeA], env);
      expect(pub.code, pub.err).toBe(0);
      expect(JSON.parse(pub.out).benchmark).toMatchObject({ slug: "seattle-pg", leaf_count: 15 });
      // nothing of the store went to the directory: the data is in PostgreSQL
      expect(existsSync(join(storeA, "platform.sqlite"))).toBe(false);

      // another directory, the same database: the account, the benchmark and the run are there
      const storeB = tempDir();
      const acct = await cli(["account", "create", "--name", "pg-bot-owner", "--store", storeB], env);
      expect(acct.code, acct.err).toBe(0);
      const key = JSON.parse(acct.out).api_key as string;
      const run = await cli(
        [
          "run",
          "seattle-pg",
          "--store",
          storeB,
          "--api-key",
          key,
          "--agent",
          `node ${AGENT}`,
          "--agent-id",
          "pg-bot",
          "--no-progress",
        ],
        env,
      );
      expect(run.code, run.err).toBe(0);
      const summary = JSON.parse(run.out);
      expect(summary).toMatchObject({ agent_id: "pg-bot", tasks: 15, outcomes: { answered: 15 } });
      // the local runner's checkpoint is the one thing kept under --store
      expect(readdirSync(join(storeB, "runs")).some((f) => f.startsWith(summary.run_id))).toBe(true);
      expect(existsSync(join(storeB, "platform.sqlite"))).toBe(false);

      // probeD3 F1, nearby: --store holds only the checkpoints here, but a platform.sqlite of an earlier
      // SQLite use may sit in it; the sandboxed agent sees the whole directory empty
      if (bubblewrapAvailable()) {
        const storeD = tempDir();
        writeFileSync(join(storeD, "platform.sqlite"), "GOLD-MARKER", { mode: 0o600 });
        const spy = `{ ls -A ${storeD}; cat ${storeD}/platform.sqlite; } >&2 2>&1; exec node ${AGENT}`;
        const spied = await cli(
          ["run", "seattle-pg", "--store", storeD, "--api-key", key, "--agent", spy].concat([
            "--agent-id",
            "pg-spy",
            "--no-progress",
          ]),
          env,
        );
        expect(spied.code, spied.err).toBe(0);
        const id = JSON.parse(spied.out).run_id as string;
        const log = readFileSync(join(storeD, "runs", `${id}.agent.log`), "utf8");
        expect(log).toMatch(/No such file/);
        expect(log).not.toMatch(/GOLD-MARKER|^runs$/m);
      }

      const storeC = tempDir();
      const lb = await cli(["leaderboard", "seattle-pg", "--store", storeC, "--json"], env);
      expect(lb.code, lb.err).toBe(0);
      // the spy agent (when bubblewrap runs it) answers as well; which of the two ranks first depends on
      // their wall time (SPEC 7.1), so the board is checked for both rows in rank order, not for a place
      const rows = JSON.parse(lb.out).rows as { rank: number; agent_id: string; run_id: string }[];
      expect(rows.map((r) => r.rank)).toEqual(rows.map((_, i) => i + 1));
      expect(rows.find((r) => r.agent_id === "pg-bot")).toMatchObject({ run_id: summary.run_id });
      expect(rows.map((r) => r.agent_id).sort()).toEqual(
        bubblewrapAvailable() ? ["pg-bot", "pg-spy"] : ["pg-bot"],
      );
      const show = await cli(["show", "seattle-pg", "--store", storeC], env);
      expect(show.code, show.err).toBe(0);
      expect(show.out).toContain("seattle-pg");

      // without DATABASE_URL the same commands use --store (SQLite), where nothing was published
      const sqlite = await cli(["leaderboard", "seattle-pg", "--store", storeC, "--json"], {});
      expect(sqlite.code).toBe(1);
      expect(sqlite.err).toMatch(/^error: .*no store at/m);
      // a malformed URL is refused, naming the variable and not echoing it
      const bad = await cli(["leaderboard", "seattle-pg", "--store", storeC], {
        DATABASE_URL: "postgres:/u:secretpw@h/db",
      });
      expect(bad.code).toBe(1);
      expect(bad.err).toMatch(/^error: DATABASE_URL must be a postgresql:\/\/ URL/);
      expect(bad.err).not.toContain("secretpw");
    });

    // probe16 B-F11: a read-only database (a standby, default_transaction_read_only) was
    // `internal error: cannot execute INSERT in a read-only transaction`, exit 4, at the first write
    it("a read-only database is one line naming it (never the password), exit 1, before anything is written", async () => {
      const t = await freshPostgresTarget();
      const env = { DATABASE_URL: databaseUrlWithSchema(t.url, t.schema!) };
      const made = await cli(["account", "create", "--name", "ro-owner", "--store", tempDir()], env);
      expect(made.code, made.err).toBe(0);
      const readOnly = new URL(env.DATABASE_URL);
      readOnly.searchParams.set(
        "options",
        `${readOnly.searchParams.get("options")} -c default_transaction_read_only=on`,
      );
      const shown = `${readOnly.hostname}:${readOnly.port || "5432"}${readOnly.pathname}`;
      for (const args of [
        ["account", "create", "--name", "ro-second"],
        ["leaderboard", "nothing-here"],
      ]) {
        const r = await cli([...args, "--store", tempDir()], { DATABASE_URL: readOnly.toString() });
        expect(r.code, r.err).toBe(1);
        expect(r.err).toMatch(/^error: the PostgreSQL store postgresql .* is read-only/m);
        expect(r.err).toContain(shown);
        expect(r.err).toMatch(/DATABASE_URL must name a writable primary/);
        expect(r.err).not.toMatch(/internal error|cannot execute INSERT/);
        if (readOnly.password) expect(r.err).not.toContain(`:${readOnly.password}@`);
      }
      await dropPostgresSchema(t.schema!);
    });
  },
);
