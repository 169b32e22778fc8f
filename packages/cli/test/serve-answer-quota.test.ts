/**
 * `serve --answer-bytes-per-account N` and `--answer-bytes-all N` (probe14 D1-F20): the bytes of
 * answers the runs of one account, and of all accounts but the operator's, may keep stored (default
 * 1 GiB, 32 GiB); past either a submit is 413 `answer_quota_exceeded` naming the limit, nothing of the
 * batch stored. A run's plan and receipt count too (probe28 A-F4): a start past the bound is 413 as well.
 * Bad values are refused before anything starts, naming the flag.
 */
import { runStartBytes } from "@bench-bounty/platform";
import { describe, expect, it } from "vitest";
import { cityRows, expectFlagRefused, post, serveHelp, useServe } from "./serve-process.js";

const serve = useServe("bb-cli-ansquota-");

describe("serve --answer-bytes-per-account, --answer-bytes-all", { timeout: 90_000 }, () => {
  it("are documented in serve --help with their defaults", () => {
    const help = serveHelp();
    expect(help).toMatch(/--answer-bytes-per-account <bytes> bytes of answers .* 1 GiB/);
    expect(help).toMatch(/--answer-bytes-all <bytes> bytes of answers .* 32 GiB/);
    expect(help).toContain("BENCH_BOUNTY_ANSWER_BYTES_PER_ACCOUNT");
    expect(help).toContain("BENCH_BOUNTY_ANSWER_BYTES_ALL");
  });

  it.each([
    ["--answer-bytes-per-account", "0"],
    ["--answer-bytes-per-account", "1.5"],
    ["--answer-bytes-all", "-1"],
    ["--answer-bytes-all", "abc"],
  ])("%s=%j is refused naming the flag, before it listens", (flag, bad) => {
    expectFlagRefused("bb-cli-ansquota-", flag, bad, `${flag} must be an integer 1..999999999999999`);
  });

  it("N = R + 1000 per account (R: a 4-task run's plan and receipt reserve): a submit past it is 413 answer_quota_exceeded, nothing of it stored; so is a start", async () => {
    const R = runStartBytes([0, 1, 2, 3]);
    const base = await serve(["--answer-bytes-per-account", String(R + 1000)]);
    const author = (await post(base, "/api/v1/accounts", { name: "ansquota-author" })).json.api_key as string;
    const ds = await post(base, "/api/v1/datasets", { name: "answers", rows: cityRows(4) }, author);
    expect(ds.status, JSON.stringify(ds.json)).toBe(201);
    const pub = await post(
      base,
      `/api/v1/datasets/${ds.json.dataset_id}/benchmark`,
      { title: "Answers", prompt_template: "City {payload.city}", grader_type: "exact" },
      author,
    );
    expect(pub.status, JSON.stringify(pub.json)).toBe(201);
    const agent = (await post(base, "/api/v1/accounts", { name: "ansquota-agent" })).json.api_key as string;
    const run = await post(base, `/api/v1/benchmarks/${pub.json.slug}/runs`, {}, agent);
    expect(run.status, JSON.stringify(run.json)).toBe(201);
    const id = run.json.run.id as string;
    const [t0, t1] = run.json.tasks as { ordinal: number }[];
    const ok = await post(
      base,
      `/api/v1/benchmarks/runs/${id}/submissions`,
      { answers: [{ ordinal: t0!.ordinal, answer_text: "x".repeat(600) }] },
      agent,
    );
    expect(ok.status, JSON.stringify(ok.json)).toBe(200);
    const over = await post(
      base,
      `/api/v1/benchmarks/runs/${id}/submissions`,
      { answers: [{ ordinal: t1!.ordinal, answer_text: "y".repeat(401) }] },
      agent,
    );
    expect(over.status).toBe(413);
    expect(over.json.error).toMatchObject({
      code: "answer_quota_exceeded",
      details: {
        limit: "answer_bytes_per_account",
        limit_bytes: R + 1000,
        used_bytes: R + 600,
        answer_bytes: 401,
      },
    });
    const fits = await post(
      base,
      `/api/v1/benchmarks/runs/${id}/submissions`,
      { answers: [{ ordinal: t1!.ordinal, answer_text: "y".repeat(400) }] },
      agent,
    );
    expect(fits.json.answered).toBe(2); // the refused batch stored nothing: 600 + 400 fit exactly
    // the finalize is never refused (its receipt replaces the reserve); the receipt and the answers leave
    // no room for another run's R
    const fin = await post(base, `/api/v1/benchmarks/runs/${id}/finalize`, {}, agent);
    expect(fin.status, JSON.stringify(fin.json)).toBe(200);
    const again = await post(base, `/api/v1/benchmarks/${pub.json.slug}/runs`, {}, agent);
    expect(again.status).toBe(413);
    expect(again.json.error).toMatchObject({
      code: "answer_quota_exceeded",
      details: { limit: "answer_bytes_per_account", limit_bytes: R + 1000, run_start_bytes: R },
    });
  });
});
