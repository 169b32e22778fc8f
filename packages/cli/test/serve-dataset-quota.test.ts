/**
 * `serve --dataset-bytes-per-account N` (probe10 R5): the bytes of dataset rows one account may keep
 * stored (default 256 MiB); past it an upload is 413 `dataset_quota_exceeded` naming the limit. Bad
 * values are refused before anything starts, naming the flag.
 */
import { describe, expect, it } from "vitest";
import { cityRows, expectFlagRefused, post, serveHelp, useServe } from "./serve-process.js";

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

  it("BENCH_BOUNTY_DATASET_BYTES_ALL=1000: another account's dataset past 1000 bytes in all is 413", async () => {
    const base = await serve([], { BENCH_BOUNTY_DATASET_BYTES_ALL: "1000" });
    const rows = cityRows(8);
    const keys: string[] = [];
    for (const name of ["dsall-a", "dsall-b"]) {
      const acct = await post(base, "/api/v1/accounts", { name });
      expect(acct.status).toBe(201);
      keys.push(acct.json.api_key as string);
    }
    expect((await post(base, "/api/v1/datasets", { name: "one", rows }, keys[0])).status).toBe(201);
    const second = await post(base, "/api/v1/datasets", { name: "two", rows }, keys[1]);
    expect(second.status).toBe(413);
    expect(second.json.error).toMatchObject({
      code: "dataset_quota_exceeded",
      details: { limit: "dataset_bytes_all_accounts", limit_bytes: 1000 },
    });
  });
});
