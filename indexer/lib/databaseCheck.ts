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
 * Connects to `connectionString` once. pg parses the URL and reads the files its `sslcert`/`sslkey`/
 * `sslrootcert` parameters name in the client's constructor, so a URL it cannot read (a port out of
 * range, an unclosed `[`, a missing certificate file) is a problem here too, never a throw (probe16 B-F1).
 * @returns null when the connection opens, else the line to print after `indexer settings: ` (naming
 *   `DATABASE_URL`, the database as {@link shownDatabase}, and the SQLSTATE or socket error code; an
 *   unreadable URL is not shown at all)
 */
export async function databaseProblemAtStart(connectionString: string): Promise<string | null> {
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
    return null;
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const kind = typeof code !== "string" ? "" : /^[0-9A-Z]{5}$/.test(code) ? `SQLSTATE ${code}; ` : `${code}; `;
    return `DATABASE_URL: cannot connect to ${shownDatabase(connectionString)} (${kind}PostgreSQL's message is not shown: it may quote the URL's user or options)`;
  } finally {
    await client.end().catch(() => undefined);
  }
}
