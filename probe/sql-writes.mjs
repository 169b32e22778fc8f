// Probe: /sql/db must refuse every write, DDL, multi-statement and side-effect form (new variants).
// Usage: node probe/sql-writes.mjs http://127.0.0.1:42069
const base = process.argv[2];
const cases = [
  "SELECT 1 FROM award_winner; UPDATE award_winner SET place = 9",
  "WITH x AS (UPDATE award_winner SET place = 9 RETURNING *) SELECT * FROM x",
  "SELECT * INTO evil FROM award_winner",
  "SELECT * FROM award_winner FOR UPDATE",
  "SELECT nextval('x')",
  "SELECT pg_catalog.set_config('default_transaction_read_only','off',false)",
  "SELECT * FROM pg_catalog.pg_user",
  "SELECT * FROM public.award_winner",
  'SELECT * FROM "award_winner" a, LATERAL (SELECT pg_sleep(1)) s',
  "SELECT (SELECT count(*) FROM award_winner a, award_winner b, award_winner c, award_winner d, award_winner e, award_winner f, award_winner g)",
  "SELECT place::regclass FROM award_winner",
  "SELECT 'pg_sleep'::regproc",
  "SELECT lo_import('/etc/passwd')",
  "SELECT xmlparse(document '<a/>')",
  "SELECT * FROM award_winner WHERE account ~ '(a+)+$'",
  "SELECT * FROM award_winner WHERE account SIMILAR TO '%a%'",
  "TABLE award_winner",
  "VALUES (1)",
  "SELECT 1 UNION SELECT 2; COMMIT; DROP TABLE award_winner",
  "/* x */ COMMENT ON TABLE award_winner IS 'x'",
  "SELECT current_setting('data_directory')",
  "SELECT * FROM award_winner ORDER BY (SELECT string_agg(account, '') FROM award_winner)",
  "SELECT now() FROM award_winner TABLESAMPLE SYSTEM (50)",
  "SELECT length(repeat('a', 100000000))",
  "SELECT to_char(now(), repeat('9', 1000))",
  "SELECT 1 FROM award_winner WHERE account LIKE '%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%b'",
];
for (const sql of cases) {
  const r = await fetch(`${base}/sql/db?sql=${encodeURIComponent(JSON.stringify({ json: { sql, params: [] } }))}`);
  const t = await r.text();
  console.log(`${r.status} ${sql.slice(0, 70).padEnd(70)} ${t.slice(0, 130)}`);
}
