/**
 * U+0000 (NUL) in a query's parameter is refused before the query is sent, the same on both engines
 * (probe16 A-F1/F2; store/nul-text.ts): a built query, a compiled hot query (`TableModule.compiled`) and
 * a compiled query run as it is (`executeQuery`, which no Kysely plugin sees) are all `invalid_text`
 * with `details.reason: "nul_character"`, and nothing is written. The check reads each query's compiled
 * parameters once (the driver's connections), not the tree of every built query.
 */
import { CompiledQuery } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { Store } from "../src/store.js";
import { arg, TableModule } from "../src/store/executor.js";
import { cleanup, freshPostgresTarget, tempDir, TEST_ENGINE } from "./helpers.js";

afterEach(cleanup);

const NUL = "a\u0000b";
const refused = { code: "invalid_text", details: { reason: "nul_character" } };

/** A table module whose query goes through `compiled`. */
class Probe extends TableModule {
  metaValue(key: string) {
    return this.compiled("test.nul.metaValue", [key], () =>
      this.db.selectFrom("meta").select("value").where("key", "=", arg<string>(0)),
    );
  }
}

async function openStore(): Promise<Store> {
  return Store.open(TEST_ENGINE === "postgres" ? await freshPostgresTarget() : { dir: tempDir() });
}

describe(`U+0000 in a query parameter on ${TEST_ENGINE}`, () => {
  it("is refused invalid_text from a built, a compiled and a raw compiled query; nothing is written", async () => {
    const store = await openStore();
    try {
      const db = store.db;
      await expect(
        db.selectFrom("meta").select("value").where("key", "=", NUL).execute(),
      ).rejects.toMatchObject(refused);
      await expect(db.insertInto("meta").values({ key: "nul", value: NUL }).execute()).rejects.toMatchObject(
        refused,
      );
      await expect(new Probe(db, store.engine).metaValue(NUL)).rejects.toMatchObject(refused);
      const placeholder = store.engine === "postgres" ? "$1" : "?";
      const raw = CompiledQuery.raw(`INSERT INTO meta (key, value) VALUES ('raw', ${placeholder})`, [NUL]);
      await expect(db.executeQuery(raw)).rejects.toMatchObject(refused);
      // in a transaction too, and the transaction still ends cleanly
      await expect(
        store.tx(async (t) => {
          await t.db.executeQuery(raw);
        }),
      ).rejects.toMatchObject(refused);
      const stored = await db.selectFrom("meta").select("key").where("key", "in", ["nul", "raw"]).execute();
      expect(stored).toEqual([]);
      // a clean value still passes every path
      expect((await new Probe(db, store.engine).metaValue("schema_version")).rows).toHaveLength(1);
      await db.executeQuery(
        CompiledQuery.raw(`INSERT INTO meta (key, value) VALUES ('raw', ${placeholder})`, ["ok"]),
      );
    } finally {
      await store.close();
    }
  });
});
