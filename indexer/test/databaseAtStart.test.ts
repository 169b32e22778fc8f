/**
 * probe15 B-F5 / D2-F23 / B-F15: a DATABASE_URL PostgreSQL refuses (a wrong password, a bad
 * `?options=`) stopped the indexer with two raw pg stack traces, and PostgreSQL's own text quotes the
 * user and the options' values. The indexer now checks the connection before anything else and stops
 * with one line naming DATABASE_URL by host, port and database only. PostgreSQL only (TEST_DATABASE_URL).
 */
import { describe, expect, it } from "vitest";
import pg from "pg";
import { databaseProblemAtStart, ponderSchemas } from "../lib/databaseCheck";

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const base = new URL(TEST_DATABASE_URL || "postgresql://x");
/** How the start-up lines name the test database. */
const shown = `postgresql ${base.hostname}:${base.port || "5432"}${base.pathname}`;

/** Makes a login role with CREATE on the test database (as an indexer's own role); resolves its URL. */
async function indexerRole(admin: InstanceType<typeof pg.Client>, role: string, password: string): Promise<URL> {
  await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
  await admin.query(`GRANT CREATE ON DATABASE "${base.pathname.slice(1)}" TO ${role}`);
  const url = new URL(base);
  url.username = role;
  url.password = password;
  return url;
}

describe.runIf(TEST_DATABASE_URL !== undefined && TEST_DATABASE_URL !== "")(
  "the indexer's DATABASE_URL checked at start (probe15 B-F5, B-F15)",
  () => {
    it("a wrong password: one line naming DATABASE_URL, never the password or the user", async () => {
      const url = new URL(base);
      url.password = "wrong-secret-pw";
      const problem = await databaseProblemAtStart(url.href);
      expect(problem).toBe(
        `DATABASE_URL: cannot connect to ${shown} (SQLSTATE 28P01; PostgreSQL's message is not shown: it may quote the URL's user or options)`,
      );
    });

    it("a bad options parameter: its value is never quoted", async () => {
      const url = new URL(base);
      url.searchParams.set("options", '-c search_path="MYSECRET;x');
      const problem = await databaseProblemAtStart(url.href);
      expect(problem).toMatch(
        new RegExp(`^DATABASE_URL: cannot connect to ${shown.replaceAll(".", "\\.")} \\(SQLSTATE `),
      );
      expect(problem).not.toMatch(/MYSECRET|search_path/);
    });

    it("a good URL: no problem", async () => {
      expect(await databaseProblemAtStart(base.href)).toBeNull();
    });
  },
);

describe("a DATABASE_URL pg cannot read (probe16 B-F1)", () => {
  const unreadable = "DATABASE_URL: not a PostgreSQL URL pg can read (the value is not shown)";

  it.each([
    ["a port out of range", "postgresql://postgres:S3CRETPW@127.0.0.1:99999/db"],
    ["an unclosed IPv6 bracket", "postgresql://postgres:S3CRETPW@[::1/db"],
    [
      "an sslcert path that does not exist",
      "postgresql://postgres:S3CRETPW@127.0.0.1:5432/db?sslmode=require&sslcert=/nonexistent/x.crt",
    ],
  ])("%s: one line naming DATABASE_URL, no throw, nothing of the value", async (_name, url) => {
    const problem = await databaseProblemAtStart(url);
    expect(problem).toMatch(/^DATABASE_URL: /);
    expect(problem).not.toMatch(/S3CRETPW|postgres:|nonexistent|99999|::1/);
    if (!url.includes("sslcert")) expect(problem).toBe(unreadable);
  });
});

describe.runIf(TEST_DATABASE_URL !== undefined && TEST_DATABASE_URL !== "")(
  "a DATABASE_URL that connects but whose session cannot serve Ponder (probe17 B-F4)",
  () => {
    it("a role without CREATE on the database: one line naming DATABASE_URL, the database and SQLSTATE 42501", async () => {
      const role = `idx_nocreate_${process.pid}`;
      const admin = new pg.Client({ connectionString: base.href });
      await admin.connect();
      try {
        await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD 'ro-secret-pw'`);
        const url = new URL(base);
        url.username = role;
        url.password = "ro-secret-pw";
        const problem = await databaseProblemAtStart(url.href);
        expect(problem).toBe(
          `DATABASE_URL: the role may not create schemas in ${shown} (SQLSTATE 42501): Ponder creates its schemas there; GRANT CREATE ON DATABASE to the role`,
        );
      } finally {
        await admin.query(`DROP ROLE IF EXISTS ${role}`);
        await admin.end();
      }
    });

    it("a statement_timeout in the URL's options under the floor: one line naming it", async () => {
      const url = new URL(base);
      url.searchParams.set("options", "-c statement_timeout=1");
      const problem = await databaseProblemAtStart(url.href);
      // the check itself is canceled, or reads the 1 ms
      expect(problem).toMatch(
        new RegExp(
          `^DATABASE_URL: the session's statement_timeout (is 1 ms|canceled the check \\(SQLSTATE 57014\\)) in ${shown.replaceAll(".", "\\.")} \\(at least 10000 ms or 0`,
        ),
      );
    });

    it("a read-only session (default_transaction_read_only in the URL's options): one line, SQLSTATE 25006 (probe18 F1)", async () => {
      const url = new URL(base);
      url.searchParams.set("options", "-c default_transaction_read_only=on");
      expect(await databaseProblemAtStart(url.href)).toBe(
        `DATABASE_URL: the session of ${shown} is read-only (SQLSTATE 25006: a standby, or default_transaction_read_only on): Ponder writes its tables there; name a writable primary`,
      );
    });

    it.each(["idle_session_timeout", "idle_in_transaction_session_timeout"])(
      "an %s that would close Ponder's pooled connections: one line naming it (probe19 B-F3)",
      async (name) => {
        const url = new URL(base);
        url.searchParams.set("options", `-c ${name}=500`);
        expect(await databaseProblemAtStart(url.href)).toBe(
          `DATABASE_URL: the session's ${name} is 500ms in ${shown}: Ponder keeps its pooled connections open between polls and PostgreSQL would close them; set it to 0 for the indexer's role or in the URL's options`,
        );
      },
    );

    it("a statement_timeout of 2 s: named with its value", async () => {
      const url = new URL(base);
      url.searchParams.set("options", "-c statement_timeout=2000");
      expect(await databaseProblemAtStart(url.href)).toMatch(
        /^DATABASE_URL: the session's statement_timeout is 2000 ms in /,
      );
    });
  },
);

describe("the schemas Ponder writes in", () => {
  it("ponder_sync and the indexer's --schema, else DATABASE_SCHEMA, else public", () => {
    expect(ponderSchemas(["node", "ponder", "start", "--schema", "bench_v1"], {})).toEqual([
      "ponder_sync",
      "bench_v1",
    ]);
    expect(ponderSchemas(["ponder", "start", "--schema=b2"], { DATABASE_SCHEMA: "env" })).toEqual([
      "ponder_sync",
      "b2",
    ]);
    expect(ponderSchemas(["ponder", "start"], { DATABASE_SCHEMA: "env" })).toEqual(["ponder_sync", "env"]);
    expect(ponderSchemas(["ponder", "dev"], {})).toEqual(["ponder_sync", "public"]);
  });
});

describe.runIf(TEST_DATABASE_URL !== undefined && TEST_DATABASE_URL !== "")(
  "a role that may create schemas but not use one another role made (probe19 B-F3)",
  () => {
    it("one line naming the schema, what it lacks and SQLSTATE 42501; a schema not made yet is no problem", async () => {
      const role = `idx_noschema_${process.pid}`;
      const schema = `idx_other_${process.pid}`;
      const admin = new pg.Client({ connectionString: base.href });
      await admin.connect();
      try {
        const url = await indexerRole(admin, role, "sc-secret-pw");
        await admin.query(`CREATE SCHEMA ${schema}`); // made by another role (the admin)
        const problem = await databaseProblemAtStart(url.href, [`not_made_${process.pid}`, schema]);
        expect(problem).toBe(
          `DATABASE_URL: the role may not use schema "${schema}" in ${shown} (SQLSTATE 42501: it lacks USAGE and CREATE on it; another role made it): Ponder writes its tables there; GRANT USAGE, CREATE ON SCHEMA "${schema}" to the role, or give the indexer a database of its own`,
        );
        expect(problem).not.toMatch(/sc-secret-pw|idx_noschema/);
        await admin.query(`GRANT USAGE ON SCHEMA ${schema} TO ${role}`);
        expect(await databaseProblemAtStart(url.href, [schema])).toMatch(/it lacks CREATE on it/);
        await admin.query(`GRANT CREATE ON SCHEMA ${schema} TO ${role}`);
        expect(await databaseProblemAtStart(url.href, [schema])).toBeNull();
      } finally {
        await admin.query(`DROP SCHEMA IF EXISTS ${schema}`);
        await admin
          .query(`REVOKE ALL ON DATABASE "${base.pathname.slice(1)}" FROM ${role}`)
          .catch(() => undefined);
        await admin.query(`DROP ROLE IF EXISTS ${role}`);
        await admin.end();
      }
    });
  },
);

describe.runIf(TEST_DATABASE_URL !== undefined && TEST_DATABASE_URL !== "")(
  "schemas whose tables another role owns (probe21 B-F5)",
  () => {
    // Ponder's migrations alter the tables of the sync store and the indexer's `_ponder_*` tables, which only
    // their owner may: the GRANT the schema line advised passed the check and then gave 45 s of retried
    // "permission denied for table kysely_migration_lock" stack traces.
    it("refuses after the GRANT on the schemas, in one line whose advice (a database of its own) then passes", async () => {
      const role = `idx_notowner_${process.pid}`;
      const sync = `idx_sync_${process.pid}`; // stands for ponder_sync (the first schema checked)
      const own = `idx_own_${process.pid}`;
      const ownDatabase = `idx_own_db_${process.pid}`;
      const admin = new pg.Client({ connectionString: base.href });
      await admin.connect();
      try {
        const url = await indexerRole(admin, role, "own-secret-pw");
        // another role's indexer ran here first: its sync store and its own schema
        await admin.query(`CREATE SCHEMA ${sync}`);
        await admin.query(`CREATE TABLE ${sync}.kysely_migration_lock (id text PRIMARY KEY)`);
        await admin.query(`CREATE TABLE ${sync}.blocks (number bigint)`);
        await admin.query(`CREATE SCHEMA ${own}`);
        await admin.query(`CREATE TABLE ${own}._ponder_meta (key text PRIMARY KEY)`);
        await admin.query(`CREATE TABLE ${own}.unrelated (x int)`); // not Ponder's: not counted
        // what the schema line advised (probe19 B-F3)
        await admin.query(`GRANT USAGE, CREATE ON SCHEMA ${sync}, ${own} TO ${role}`);
        const advice = `give the indexer a database of its own (CREATE DATABASE <name> OWNER <the indexer's role>, and name it in DATABASE_URL), or run it as the role that owns them`;
        const problem = await databaseProblemAtStart(url.href, [sync, own]);
        expect(problem).toBe(
          `DATABASE_URL: the role does not own table "${sync}"."blocks" (and 1 more of schema "${sync}") in ${shown} (SQLSTATE 42501: another role made them; Ponder's migrations alter them, which only their owner may, so a GRANT on the schema is not enough): ${advice}`,
        );
        expect(problem).not.toMatch(/own-secret-pw|idx_notowner|GRANT USAGE/);
        expect(await databaseProblemAtStart(url.href, [`not_made_${process.pid}`, own])).toBe(
          `DATABASE_URL: the role does not own table "${own}"."_ponder_meta" in ${shown} (SQLSTATE 42501: another role made it; Ponder's migrations alter it, which only its owner may, so a GRANT on the schema is not enough): ${advice}`,
        );
        // the advice, followed: a database the role owns; the same schemas are Ponder's to make there
        await admin.query(`CREATE DATABASE ${ownDatabase} OWNER ${role}`);
        const ownUrl = new URL(url);
        ownUrl.pathname = `/${ownDatabase}`;
        expect(await databaseProblemAtStart(ownUrl.href, [sync, own])).toBeNull();
        // or the owner's role (the admin) runs it
        expect(await databaseProblemAtStart(base.href, [sync, own])).toBeNull();
      } finally {
        await admin.query(`DROP SCHEMA IF EXISTS ${sync}, ${own} CASCADE`);
        await admin.query(`DROP DATABASE IF EXISTS ${ownDatabase}`);
        await admin
          .query(`REVOKE ALL ON DATABASE "${base.pathname.slice(1)}" FROM ${role}`)
          .catch(() => undefined);
        await admin.query(`DROP ROLE IF EXISTS ${role}`);
        await admin.end();
      }
    });
  },
);
