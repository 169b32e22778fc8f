/**
 * The PostgreSQL connection of `DATABASE_URL`, checked once before anything else uses it (probe15 B-F5,
 * D2-F23, B-F15): the sync guard's and Ponder's own connections let a refusal through as raw pg stack
 * traces, and PostgreSQL's text quotes the URL's user (`password authentication failed for user "..."`)
 * and its options' values (`invalid value for parameter "search_path": "..."`). The one line printed
 * names the database by host, port and name only, and the error by its code.
 */
import pg from "pg";

/** `postgresql host:port/database`: what of the URL may be printed (never the user, password or parameters). */
export function shownDatabase(connectionString: string): string {
  try {
    const u = new URL(connectionString);
    return `postgresql ${u.hostname}:${u.port || "5432"}${u.pathname}`;
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return "postgresql (a URL the URL parser refuses: not shown)";
  }
}

/**
 * Shortest `statement_timeout` (milliseconds, 0 = none) the session of `DATABASE_URL` may have:
 * Ponder's migrations, the sync guard and the backfill's batched writes run under it, and a
 * shorter one (`?options=-c statement_timeout=1`) failed the sync guard's first query with a stack
 * trace (probe17 B-F4).
 */
export const MIN_STATEMENT_TIMEOUT_MS = 10_000;

/** The `(SQLSTATE x; ` / `(ECONNRESET; ` part of a line for a pg error (its message is never shown). */
function errorCode(e: unknown): string {
  const code = (e as { code?: unknown }).code;
  return typeof code !== "string" ? "" : /^[0-9A-Z]{5}$/.test(code) ? `SQLSTATE ${code}; ` : `${code}; `;
}

/**
 * The one line for an error of a statement on `connectionString` (the start-up checks, the sync
 * guard): the database as {@link shownDatabase} and the SQLSTATE, never PostgreSQL's message (it may
 * quote the URL's user or options).
 * @param what - what failed (`the sync store check`).
 */
export function databaseErrorLine(what: string, connectionString: string, e: unknown): string {
  return `DATABASE_URL: ${what} failed on ${shownDatabase(connectionString)} (${errorCode(e)}PostgreSQL's message is not shown: it may quote the URL's user or options)`;
}

/** The line for a session whose `statement_timeout` is under {@link MIN_STATEMENT_TIMEOUT_MS}. */
function timeoutLine(what: string, shown: string): string {
  return `DATABASE_URL: the session's statement_timeout ${what} in ${shown} (at least ${MIN_STATEMENT_TIMEOUT_MS} ms or 0: Ponder's migrations and writes run under it); set it in the URL's options or the role's settings`;
}

/**
 * The schemas Ponder writes in a database: its sync store's (`ponder_sync`, shared by every indexer of
 * the database) and the indexer's own (`--schema NAME` or `--schema=NAME` on Ponder's command line,
 * else `DATABASE_SCHEMA`, else `public`, as `ponder dev` defaults).
 */
export function ponderSchemas(argv: readonly string[], env: Record<string, string | undefined>): string[] {
  let own: string | undefined;
  argv.forEach((arg, i) => {
    if (arg === "--schema" && argv[i + 1] !== undefined) own = argv[i + 1];
    else if (arg.startsWith("--schema=")) own = arg.slice("--schema=".length);
  });
  return ["ponder_sync", own ?? env.DATABASE_SCHEMA ?? "public"];
}

/**
 * The first of `schemas` that exists and on which the session's role lacks USAGE or CREATE (probe19 B-F3:
 * a schema made by another indexer's role was retried stack traces, "permission denied for schema"), or
 * null; a schema that does not exist yet is Ponder's to create (CREATE on the database is checked apart).
 */
async function schemaProblem(
  client: InstanceType<typeof pg.Client>,
  schemas: readonly string[],
  shown: string,
): Promise<string | null> {
  const { rows } = (await client.query(
    "SELECT n.nspname AS name, has_schema_privilege(n.oid, 'USAGE') AS usage, has_schema_privilege(n.oid, 'CREATE') AS can_create FROM pg_catalog.pg_namespace n WHERE n.nspname = ANY($1::text[])",
    [schemas],
  )) as { rows: { name: string; usage: boolean; can_create: boolean }[] };
  for (const schema of schemas) {
    const row = rows.find((r) => r.name === schema);
    if (row === undefined || (row.usage && row.can_create)) continue;
    const lacks = [row.usage ? null : "USAGE", row.can_create ? null : "CREATE"]
      .filter((x) => x !== null)
      .join(" and ");
    const quoted = JSON.stringify(schema);
    return `DATABASE_URL: the role may not use schema ${quoted} in ${shown} (SQLSTATE 42501: it lacks ${lacks} on it; another role made it): Ponder writes its tables there; GRANT USAGE, CREATE ON SCHEMA ${quoted} to the role, or give the indexer a database of its own`;
  }
  return null;
}

/**
 * The first object Ponder alters at start (its migrations) in an existing schema of `schemas` that a
 * role the session cannot act as owns (probe21 B-F5: after `GRANT USAGE, CREATE ON SCHEMA`, the advice of
 * {@link schemaProblem}, Ponder retried "permission denied for table kysely_migration_lock" stack traces
 * for as long as it ran: a GRANT on a schema gives no right to alter its tables), or null. The first of
 * `schemas` is the sync store's (`ponder_sync`: every relation and function in it is Ponder's); in the
 * others, the indexer's own, Ponder's are those named `_ponder_*` (`_ponder_meta`: another indexer's
 * schema), and other tables there are not its business.
 */
async function ownershipProblem(
  client: InstanceType<typeof pg.Client>,
  schemas: readonly string[],
  shown: string,
): Promise<string | null> {
  const [sync, ...own] = schemas;
  const { rows } = (await client.query(
    `SELECT n.nspname AS schema, o.name, o.kind FROM (
       SELECT c.relnamespace AS ns, c.relname AS name, CASE c.relkind WHEN 'S' THEN 'sequence' WHEN 'v' THEN 'view' WHEN 'm' THEN 'view' ELSE 'table' END AS kind, c.relowner AS owner
         FROM pg_catalog.pg_class c WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
       UNION ALL
       SELECT p.pronamespace, p.proname, 'function', p.proowner FROM pg_catalog.pg_proc p
     ) o JOIN pg_catalog.pg_namespace n ON n.oid = o.ns
     WHERE NOT pg_catalog.pg_has_role(o.owner, 'USAGE')
       AND (n.nspname = $1 OR (n.nspname = ANY($2::text[]) AND starts_with(o.name, '_ponder_')))
     ORDER BY n.nspname <> $1, n.nspname, o.name`,
    [sync ?? "", own],
  )) as { rows: { schema: string; name: string; kind: string }[] };
  const first = rows[0];
  if (first === undefined) return null;
  const more = rows.filter((r) => r.schema === first.schema).length - 1;
  const them = more === 0 ? "it" : "them";
  return `DATABASE_URL: the role does not own ${first.kind} ${JSON.stringify(first.schema)}.${JSON.stringify(first.name)}${more === 0 ? "" : ` (and ${more} more of schema ${JSON.stringify(first.schema)})`} in ${shown} (SQLSTATE 42501: another role made ${them}; Ponder's migrations alter ${them}, which only ${more === 0 ? "its" : "their"} owner may, so a GRANT on the schema is not enough): give the indexer a database of its own (CREATE DATABASE <name> OWNER <the indexer's role>, and name it in DATABASE_URL), or run it as the role that owns them`;
}

/**
 * What the session of a connected client lacks for Ponder (probe17 B-F4): a writable session (probe18
 * F1: a read-only one, a standby or `default_transaction_read_only`, was retried stack traces), CREATE
 * on the database (Ponder runs `CREATE SCHEMA IF NOT EXISTS`, which PostgreSQL checks before the
 * schema's existence), a `statement_timeout` of at least {@link MIN_STATEMENT_TIMEOUT_MS}, the ownership
 * of Ponder's objects in them ({@link ownershipProblem}), USAGE and CREATE on the existing schemas of
 * `schemas` ({@link schemaProblem}).
 * @returns null, or the line (as {@link databaseProblemAtStart}).
 */
async function sessionProblem(
  client: InstanceType<typeof pg.Client>,
  connectionString: string,
  schemas: readonly string[],
): Promise<string | null> {
  const shown = shownDatabase(connectionString);
  const { rows } = (await client.query(
    "SELECT has_database_privilege(current_database(), 'CREATE') AS can_create, (SELECT setting FROM pg_settings WHERE name = 'statement_timeout') AS timeout_ms, current_setting('transaction_read_only') AS read_only, current_setting('idle_session_timeout') AS idle_session, current_setting('idle_in_transaction_session_timeout') AS idle_in_tx",
  )) as {
    rows: {
      can_create?: boolean;
      timeout_ms?: string;
      read_only?: string;
      idle_session?: string;
      idle_in_tx?: string;
    }[];
  };
  if (rows[0]?.read_only === "on")
    return `DATABASE_URL: the session of ${shown} is read-only (SQLSTATE 25006: a standby, or default_transaction_read_only on): Ponder writes its tables there; name a writable primary`;
  const timeout = Number(rows[0]?.timeout_ms ?? 0);
  if (timeout > 0 && timeout < MIN_STATEMENT_TIMEOUT_MS) return timeoutLine(`is ${timeout} ms`, shown);
  // Ponder keeps pooled connections idle between polls: a server that closes idle sessions broke them
  // with retried stack traces (probe19 B-F3)
  for (const [name, value] of [
    ["idle_session_timeout", rows[0]?.idle_session],
    ["idle_in_transaction_session_timeout", rows[0]?.idle_in_tx],
  ] as const)
    if (value !== undefined && value !== "0")
      return `DATABASE_URL: the session's ${name} is ${value} in ${shown}: Ponder keeps its pooled connections open between polls and PostgreSQL would close them; set it to 0 for the indexer's role or in the URL's options`;
  if (rows[0]?.can_create !== true)
    return `DATABASE_URL: the role may not create schemas in ${shown} (SQLSTATE 42501): Ponder creates its schemas there; GRANT CREATE ON DATABASE to the role`;
  return (await ownershipProblem(client, schemas, shown)) ?? schemaProblem(client, schemas, shown);
}

/**
 * Connects to `connectionString` once. pg parses the URL and reads the files its `sslcert`/`sslkey`/
 * `sslrootcert` parameters name in the client's constructor, so a URL it cannot read (a port out of
 * range, an unclosed `[`, a missing certificate file) is a problem here too, never a throw (probe16 B-F1).
 * Then checks the session can serve Ponder ({@link sessionProblem}: CREATE on the database, the
 * `statement_timeout`, the ownership of Ponder's objects and USAGE and CREATE on the existing schemas of
 * `schemas`, the sync store's first, default {@link ponderSchemas} of this process's command line and
 * environment).
 * @returns null when the connection opens and the session serves, else the line to print after
 *   `indexer settings: ` (naming `DATABASE_URL`, the database as {@link shownDatabase}, and the
 *   SQLSTATE or socket error code; an unreadable URL is not shown at all)
 */
export async function databaseProblemAtStart(
  connectionString: string,
  schemas: readonly string[] = ponderSchemas(process.argv, process.env),
): Promise<string | null> {
  let client: InstanceType<typeof pg.Client>;
  try {
    client = new pg.Client({ connectionString });
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    return typeof code === "string" && code.startsWith("E") && code !== "ERR_INVALID_URL"
      ? `DATABASE_URL: a file its ssl parameters name cannot be read (${code}; the value is not shown)`
      : "DATABASE_URL: not a PostgreSQL URL pg can read (the value is not shown)";
  }
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => undefined);
    return `DATABASE_URL: cannot connect to ${shownDatabase(connectionString)} (${errorCode(e)}PostgreSQL's message is not shown: it may quote the URL's user or options)`;
  }
  try {
    return await sessionProblem(client, connectionString, schemas);
  } catch (e) {
    // a statement_timeout so short that it cancels the check itself
    if ((e as { code?: unknown }).code === "57014")
      return timeoutLine("canceled the check (SQLSTATE 57014)", shownDatabase(connectionString));
    return databaseErrorLine("the session check", connectionString, e);
  } finally {
    await client.end().catch(() => undefined);
  }
}
