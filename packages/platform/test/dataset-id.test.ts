/**
 * probe28 B-F5: a dataset id was `ds-` + keccak256(owner \n name \n content_hash)[0..16 hex], and the
 * content hash covers the labels: a stranger who read the id (`show`) recovered every private label
 * offline by testing candidate label vectors against it, and could test candidate ids online against
 * another account's dataset routes (403 for an id that exists, 404 for one that does not). The id is
 * now keyed with the store's secret (`meta.dataset_id_key`, never served): same owner, name and
 * content still give the same id in one store, and nobody without the store can recompute it.
 */
import { keccak256Hex } from "@bench-bounty/evidence";
import { afterEach, describe, expect, it } from "vitest";
import { DATASET_ID_KEY } from "../src/store/datasets.js";
import { cities, cleanup, openTemp } from "./helpers.js";

afterEach(cleanup);

describe("dataset ids say nothing of the labels (probe28 B-F5)", () => {
  it("is not the hash anyone can recompute from owner, name and content; the same upload gets the same id", async () => {
    const h = await openTemp({});
    const p = h.real;
    const ann = await p.authenticate((await p.createAccount({ name: "ann-ids" })).api_key);
    const input = cities(5, "ids");
    const ds = await p.createDataset(ann, input);
    const again = await p.createDataset(ann, input);
    expect(again.dataset_id).toBe(ds.dataset_id); // idempotent within the store
    const summary = await h.ctx.store.datasets.get(ds.dataset_id);
    const guess = `ds-${keccak256Hex(`${ann.account_id}\n${summary!.name}\n${summary!.content_hash}`).slice(2, 18)}`;
    expect(ds.dataset_id).not.toBe(guess); // what a stranger could compute from candidate labels
    // the key is 32 random bytes, kept in the store's meta only
    const key = await h.ctx.store.datasets.idKey("unused");
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).not.toBe("unused");
    expect(DATASET_ID_KEY).toBe("dataset_id_key");
  });
});
