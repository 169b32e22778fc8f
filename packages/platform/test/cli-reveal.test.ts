/**
 * The CLI's reads and `anchor` follow the reveal rule and the owner rules (probe15 B-F11, B-F14): `show`
 * names no root whose anchor is pending, and the plan seed and dataset id only to the author or the operator; `anchor`
 * is the operator's (the store's holder, keyless) and refuses any other account's key.
 */
import { afterEach, describe, expect, it } from "vitest";
import { CITIES_PUBLISH, cities, cleanup, cliAccount, openAt, runCli, tempDir } from "./helpers.js";

afterEach(cleanup);

/** A store with a benchmark published by `author` (an account with its key) whose root's anchor is pending. */
async function pendingStore() {
  const store = tempDir();
  const authorKey = await cliAccount(store, "rev-author");
  const otherKey = await cliAccount(store, "rev-other");
  const h = await openAt({ dir: store });
  try {
    const author = await h.real.authenticate(authorKey);
    const ds = await h.real.createDataset(author, cities(4, "reveal"));
    const { slug } = await h.real.publish(author, ds.dataset_id, CITIES_PUBLISH);
    const b = await h.getBenchmark(slug);
    // what a publish on a chain that did not answer records: the root waits for its anchor
    await h.ctx.store.anchors.addPending(b.commit_root, "commitment", slug, b.created_at);
    return {
      store,
      slug,
      authorKey,
      otherKey,
      root: b.commit_root,
      seed: b.plan_seed,
      datasetId: b.dataset_id,
    };
  } finally {
    await h.close();
  }
}

describe("show: the reveal rule and the plan seed (probe15 B-F14)", () => {
  it("never prints a pending root; the plan seed only to the author and the keyless operator", async () => {
    const s = await pendingStore();
    const asOther = await runCli("show", s.slug, "--store", s.store, "--api-key", s.otherKey);
    expect(asOther.code, asOther.err).toBe(0);
    expect(asOther.out).not.toContain(s.root.slice(2));
    expect(asOther.out).not.toContain(s.seed);
    // nor the dataset id: a hash over the labels (probe28 B-F5: a stranger recovered every private label from it)
    expect(asOther.out).not.toContain(s.datasetId.slice(3));
    expect(JSON.parse(asOther.out)).toMatchObject({
      slug: s.slug,
      commit_root: null,
      commitment_anchor_status: "pending",
    });
    for (const who of [["--api-key", s.authorKey], []]) {
      const r = await runCli("show", s.slug, "--store", s.store, ...who);
      expect(r.code, r.err).toBe(0);
      expect(JSON.parse(r.out)).toMatchObject({
        commit_root: null,
        plan_seed: s.seed,
        dataset_id: s.datasetId,
      });
    }
  });
});

describe("anchor: the operator's command (probe15 B-F11)", () => {
  it("refuses another account's key (operator_only), even to list; the keyless operator lists", async () => {
    const s = await pendingStore();
    for (const key of [s.otherKey, s.authorKey]) {
      const r = await runCli("anchor", s.slug, "--list", "--store", s.store, "--api-key", key);
      expect(r.code).toBe(1);
      expect(r.err).toContain("operator_only");
      expect(r.out + r.err).not.toContain(s.root.slice(2));
    }
    const op = await runCli("anchor", s.slug, "--list", "--store", s.store);
    expect(op.code, op.err).toBe(0);
    expect(JSON.parse(op.out)).toEqual({
      pending: [expect.objectContaining({ digest: s.root, kind: "commitment" })],
      squatted: [],
    });
  });
});

describe("a squat as the CLI shows it (probe15 B-F10)", () => {
  it("anchor --list lists the squatted root under squatted, not pending; show says squatted", async () => {
    const s = await pendingStore();
    const h = await openAt({ dir: s.store });
    const anchorer = "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc";
    await h.ctx.store.anchors.markSquatted(s.root, {
      kind: `0x${"ab".repeat(32)}`,
      kind_name: "pack",
      anchorer,
      anchor_block: 8,
    });
    await h.close();
    const squat = { found_kind: "pack", anchorer, anchor_block: 8 };
    const listed = await runCli("anchor", s.slug, "--list", "--store", s.store);
    expect(listed.code, listed.err).toBe(0);
    expect(JSON.parse(listed.out)).toEqual({
      pending: [],
      squatted: [{ digest: s.root, kind: "commitment", ...squat }],
    });
    const shown = await runCli("show", s.slug, "--store", s.store);
    expect(JSON.parse(shown.out)).toMatchObject({
      commit_root: null,
      commitment_anchor_status: "squatted",
      commitment_squat: squat,
    });
  });
});
