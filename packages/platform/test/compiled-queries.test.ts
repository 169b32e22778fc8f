/**
 * The store's hot queries compiled once (`TableModule.compiled`, store/executor.ts) on the engine
 * under test: the cached SQL text takes each call's own values, in a transaction too, and a query
 * whose argument is not a parameter (its value inlined into the text) is refused at its first call
 * instead of serving the first call's value forever.
 */
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { Store } from "../src/store.js";
import { arg, TableModule } from "../src/store/executor.js";
import { cleanup, freshPostgresTarget, tempDir, TEST_ENGINE } from "./helpers.js";

afterEach(cleanup);

/** A table module whose queries go through `compiled`. */
class Probe extends TableModule {
  metaValue(key: string) {
    return this.compiled("test.metaValue", [key], () =>
      this.db.selectFrom("meta").select("value").where("key", "=", arg<string>(0)),
    );
  }
  inlined(n: number) {
    return this.compiled("test.inlined", [n], () =>
      this.db.selectFrom("meta").select(sql.lit(arg<number>(0)).as("n")),
    );
  }
}

async function openStore(): Promise<Store> {
  return Store.open(TEST_ENGINE === "postgres" ? await freshPostgresTarget() : { dir: tempDir() });
}

describe(`compiled queries on ${TEST_ENGINE}`, () => {
  it("run with each call's own arguments, inside and outside a transaction", async () => {
    const store = await openStore();
    try {
      const probe = new Probe(store.db, store.engine);
      expect((await probe.metaValue("schema_version")).rows).toEqual([{ value: "3" }]);
      expect((await probe.metaValue("no such key")).rows).toEqual([]);
      await store.tx(async (t) => {
        await sql`INSERT INTO meta (key, value) VALUES ('probe', 'inside')`.execute(t.db);
        expect((await new Probe(t.db, store.engine).metaValue("probe")).rows).toEqual([{ value: "inside" }]);
      });
      expect((await probe.metaValue("schema_version")).rows).toEqual([{ value: "3" }]);
    } finally {
      await store.close();
    }
  });

  it("refuse a query whose argument is inlined into its text", async () => {
    const store = await openStore();
    try {
      const probe = new Probe(store.db, store.engine);
      await expect(probe.inlined(1)).rejects.toThrow(/test\.inlined: its 1 arguments are not all parameters/);
      await expect(probe.inlined(2)).rejects.toThrow(/not all parameters/);
    } finally {
      await store.close();
    }
  });
});
