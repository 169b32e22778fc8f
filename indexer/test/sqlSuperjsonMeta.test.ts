/**
 * probe31 B-F5: `/sql/db` said `"sql" parameter is not JSON` for well-formed JSON whose superjson
 * `meta` annotation superjson refuses (`["bigint"]` on `"1e5"`, an unknown class or custom type,
 * `__proto__` in a path, ...). The refusal now names the annotation's JSON path; text that is not
 * JSON is still named as such. PGlite (the harness's default; the parameter is read before the database).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSqlHarness, type SqlHarness } from "./helpers/sqlHarness";

const S = "SELECT count(*) FROM award_winner WHERE place = $1";
const doc = (params: unknown[], values: Record<string, unknown>): string =>
  JSON.stringify({ json: { sql: S, params }, meta: { values } });

describe("/sql/db: a refused superjson annotation is named, not called 'not JSON' (probe31 B-F5)", () => {
  let h: SqlHarness;
  beforeAll(async () => {
    h = await startSqlHarness(undefined, 3);
  });
  afterAll(async () => {
    await h?.stop();
  });

  it.each([
    ["bigint on 1e5", doc(["1e5"], { "params.0": ["bigint"] }), 'meta.values."params.0"'],
    ["an unknown class", doc([{}], { "params.0": [["class", "X"]] }), 'meta.values."params.0"'],
    ["an unknown custom type", doc([{}], { "params.0": [["custom", "X"]] }), 'meta.values."params.0"'],
    ["__proto__ in a path", doc([1], { "__proto__.x": ["bigint"] }), 'meta.values."__proto__.x"'],
    ["Error on a number", doc([1], { "params.0": ["Error"] }), 'meta.values."params.0"'],
    [
      "a typed array on a string",
      doc(["1"], { "params.0": [["typed-array", "Uint8Array"]] }),
      'meta.values."params.0"',
    ],
  ])("%s: 400 invalid_query naming the annotation", async (_what, param, path) => {
    const r = await h.raw(param);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("invalid_query");
    expect(r.body.error.message).not.toContain("not JSON");
    expect(r.body.error.message).toBe(
      `"sql" parameter: ${path}: superjson cannot apply this annotation to the value it names (superjson of { sql, params })`,
    );
  });

  it("text that is not JSON is still 'not JSON'; a good annotation still serves", async () => {
    const bad = await h.raw('{"json":');
    expect([bad.status, bad.body.error.message]).toEqual([
      400,
      '"sql" parameter is not JSON (superjson of { sql, params })',
    ]);
    const good = await h.raw(doc(["1"], { "params.0": ["bigint"] }));
    expect(good.status, JSON.stringify(good.body)).toBe(200);
  });
});
