/**
 * `serve --dataset-bytes-per-account N` (probe10 R5): the bytes of dataset rows one account may keep
 * stored (default 256 MiB); past it an upload is 413 `dataset_quota_exceeded` naming the limit. Bad
 * values are refused before anything starts, naming the flag.
 */
import { describe, expect, it } from "vitest";
import { cityRows, expectFlagRefused, post, postFrom, serveHelp, useServe } from "./serve-process.js";

const serve = useServe("bb-cli-dsquota-");

describe("serve --dataset-bytes-per-account", { timeout: 90_000 }, () => {
  it("is documented in serve --help", () => {
    expect(serveHelp()).toMatch(/--dataset-bytes-per-account <bytes> bytes of dataset rows/);
  });

  it.each(["0", "-1", "1.5", "abc", "1e3", ""])("refuses %j naming the flag, before it listens", (bad) => {
    expectFlagRefused(
      "bb-cli-dsquota-",
      "--dataset-bytes-per-account",
      bad,
      "--dataset-bytes-per-account must be an integer 1..999999999999999",
    );
  });

  it("N = 1000: a second dataset past 1000 bytes is 413 dataset_quota_exceeded", async () => {
    const base = await serve(["--dataset-bytes-per-account", "1000"]);
    const acct = await post(base, "/api/v1/accounts", { name: "dsquota" });
    expect(acct.status).toBe(201);
    const key = acct.json.api_key as string;
    const rows = cityRows(8);
    expect((await post(base, "/api/v1/datasets", { name: "one", rows }, key)).status).toBe(201);
    const second = await post(base, "/api/v1/datasets", { name: "two", rows }, key);
    expect(second.status).toBe(413);
    expect(second.json.error).toMatchObject({
      code: "dataset_quota_exceeded",
      details: { limit: "dataset_bytes_per_account", limit_bytes: 1000 },
    });
  });
});

describe("serve --dataset-bytes-all (probe11 O5)", { timeout: 90_000 }, () => {
  it("is documented in serve --help", () => {
    expect(serveHelp()).toMatch(
      /--dataset-bytes-all <bytes> bytes of dataset rows and published test sets all accounts but the operator's may keep stored together/,
    );
  });

  it.each(["0", "-1", "1.5", "abc", ""])("refuses %j naming the flag, before it listens", (bad) => {
    expectFlagRefused(
      "bb-cli-dsall-",
      "--dataset-bytes-all",
      bad,
      "--dataset-bytes-all must be an integer 1..999999999999999",
    );
  });

  it("BENCH_BOUNTY_DATASET_BYTES_ALL=4000: an account's dataset past 4000 bytes in all is 413", async () => {
    const base = await serve([], { BENCH_BOUNTY_DATASET_BYTES_ALL: "4000" });
    const rows = cityRows(8);
    // each account from its own /24: one network's accounts share a quarter of it (probe30 A-F7)
    let refused: { status: number; json: Record<string, any> } | undefined;
    let stored = 0;
    for (let n = 1; n <= 10 && refused === undefined; n++) {
      const from = `127.0.${n}.1`;
      const acct = await postFrom(from, base, "/api/v1/accounts", { name: `dsall-${n}` });
      expect(acct.status).toBe(201);
      const r = await postFrom(from, base, "/api/v1/datasets", { name: `ds${n}`, rows }, acct.json.api_key);
      if (r.status === 201) stored++;
      else refused = r;
    }
    expect(stored).toBeGreaterThanOrEqual(4);
    expect(refused?.status).toBe(413);
    expect(refused?.json.error).toMatchObject({
      code: "dataset_quota_exceeded",
      details: { limit: "dataset_bytes_all_accounts", limit_bytes: 4000 },
    });
  });
});
