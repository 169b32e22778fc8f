/**
 * probe30 A-F7: free accounts of one client network (one /24) filled the all-accounts dataset budget,
 * and then every other author's upload was refused; the answer budget and the receipt-anchor budget
 * were open to the same. The accounts created from one network (`createAccount`'s `network`, recorded
 * as `accounts.network`) now share a quarter of each all-accounts budget (`networkShareOf`); accounts
 * without a network (the CLI, the operator, older stores) are in no share. The anchor budgets' share is
 * tested on the dev chain in `operator-spend.test.ts`.
 */
import { afterEach, describe, expect, it } from "vitest";
import { NETWORK_SHARE_DIVISOR, networkShareOf } from "../src/network-share.js";
import { preparedDataset } from "../src/testing.js";
import { countStoredBytes } from "../src/runs/submit.js";
import type { Principal } from "../src/identity/principal.js";
import { cleanup, openTemp, rejection, type Harness } from "./helpers.js";

afterEach(cleanup);

/** A prepared dataset `name` of `n` rows of 100 bytes each. */
const rowsOf = (name: string, n: number) =>
  preparedDataset(name, n, (i) => JSON.stringify({ q: `${name}-${i}`.padEnd(92, "x") }));

/** A fresh account named `name` created from client network `network` (none: undefined), as its principal. */
async function accountFrom(h: Harness, name: string, network?: string): Promise<Principal> {
  const { api_key } = await h.real.createAccount(
    { name, roles: ["author", "competitor"] },
    network === undefined ? {} : { network },
  );
  return h.real.authenticate(api_key);
}

const NET_A = "net:127.0.0.0/24";
const NET_B = "net:127.0.1.0/24";

describe("the accounts of one client network share a part of each all-accounts budget (probe30 A-F7)", () => {
  it("a quarter, rounded down, at least 1", () => {
    expect(NETWORK_SHARE_DIVISOR).toBe(4);
    expect(networkShareOf(8 * 1024 ** 3)).toBe(2 * 1024 ** 3);
    expect(networkShareOf(5_000)).toBe(1_250);
    expect(networkShareOf(3)).toBe(1);
  });

  it("dataset bytes: one network's accounts stop at its share (413 naming dataset_bytes_per_network); another network's author still uploads", async () => {
    // 1,000 bytes per account, 8,000 for all: a network's share is 2,000 (two accounts' worth)
    const h = await openTemp({ datasetBytesPerAccount: 1000, datasetBytesAllAccounts: 8000 });
    const upload = (p: Principal, name: string) =>
      h.real.storeDataset(p, rowsOf(name, 10), { answerBy: Date.now() + 60_000 });
    const a = [];
    for (let i = 0; i < 4; i++) a.push(await accountFrom(h, `net-a-${i}`, NET_A));
    await upload(a[0]!, "a0");
    await upload(a[1]!, "a1");
    const e = await rejection(upload(a[2]!, "a2"));
    expect(e).toMatchObject({
      code: "dataset_quota_exceeded",
      details: {
        limit: "dataset_bytes_per_network",
        limit_bytes: 2000,
        used_bytes: 2000,
        network: NET_A,
        dataset_bytes: 1000,
      },
    });
    expect(e.message).toContain("dataset_bytes_per_network");
    expect(await h.ctx.store.datasets.bytesOf(a[2]!.account_id)).toBe(0); // nothing of it stored
    // the CLI's path (no answerBy) is bounded the same way
    expect(await rejection(h.real.storeDataset(a[3]!, rowsOf("a3", 10)))).toMatchObject({
      details: { limit: "dataset_bytes_per_network" },
    });
    // an author of another network, and one without a network, are not affected
    await upload(await accountFrom(h, "net-b-0", NET_B), "b0");
    await upload(await accountFrom(h, "no-net-0"), "n0");
    // a deletion frees the network's share
    const mine = (await h.real.myDatasets(a[0]!)).datasets[0]!;
    await h.real.deleteDataset(a[0]!, mine.dataset_id);
    await upload(a[2]!, "a2");
    await h.close();
  });

  it("answer bytes: one network's runs stop at its share (413 naming answer_bytes_per_network); another network's are stored", async () => {
    const h = await openTemp({ answerBytesPerAccount: 1000, answerBytesAllAccounts: 4000 }); // share 1,000
    const charge = (p: Principal, bytes: number) =>
      h.ctx.store.tx((t) =>
        countStoredBytes(h.ctx, t, { run_id: "run-none", account_id: p.account_id }, bytes, "answers"),
      );
    const a0 = await accountFrom(h, "ans-a-0", NET_A);
    const a1 = await accountFrom(h, "ans-a-1", NET_A);
    await charge(a0, 600);
    expect(await rejection(charge(a1, 600))).toMatchObject({
      code: "answer_quota_exceeded",
      details: { limit: "answer_bytes_per_network", limit_bytes: 1000, used_bytes: 600, answer_bytes: 600 },
    });
    await charge(a1, 400); // up to the share
    await charge(await accountFrom(h, "ans-b-0", NET_B), 600);
    await charge(await accountFrom(h, "ans-none-0"), 600);
    await h.close();
  });
});
