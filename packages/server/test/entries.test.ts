/**
 * The GAOS entries route (issue 17 item 3): the SPEC 9 -> GAOS claim mapping on the shared vectors'
 * expected facts, the legacy summaries derived from the V2 facts, and the route on a live app.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { Platform } from "@bench-bounty/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp, platformDomain } from "../src/index.js";
import { MAX_TASK_SCORE_CELLS, taskScoresPageRuns } from "@bench-bounty/platform";
import { boundedRows, claimState, gaosEntry, type StoredVerification } from "../src/routes/entries.js";
import { call, citiesAnswer, publishCities, register } from "./helpers.js";

const expected = JSON.parse(
  readFileSync(new URL("../../../spec/vectors/packs/small.expected.json", import.meta.url), "utf8"),
) as { facts: Record<string, StoredVerification["report"]["facts"][string]["state"]> };

function stored(states: Record<string, string>, met: boolean, unmet: string[] = []): StoredVerification {
  const facts = Object.fromEntries(
    Object.entries(states).map(([n, s]) => [n, { state: s, reasons: [`${n} reason`] }]),
  );
  return {
    policy: "offline",
    policy_version: "0.1.0",
    verifier_version: "0.1.0",
    ran_at: "2026-03-02T10:00:00.000Z",
    report: { policy_met: met, policy_unmet: unmet, facts: facts as StoredVerification["report"]["facts"] },
  };
}

const row = {
  agent_id: "vec-a",
  run_id: "run-1",
  receipt_hash: "0x" + "ab".repeat(32),
  score_composite: "0.8233",
};

describe("SPEC 9 facts as GAOS claims", () => {
  it("a claim fails with any fact, verifies only when all hold, else takes the weakest other state", () => {
    expect(claimState({ a: { state: "verified" }, b: { state: "failed" } }, ["a", "b"])).toBe("failed");
    expect(claimState({ a: { state: "verified" }, b: { state: "not-required" } }, ["a", "b"])).toBe(
      "verified",
    );
    expect(claimState({ a: { state: "not-required" } }, ["a"])).toBe("not-required");
    expect(claimState({ a: { state: "verified" }, b: { state: "not-observed" } }, ["a", "b"])).toBe(
      "not-observed",
    );
    expect(claimState({ a: { state: "unverified" }, b: { state: "not-observed" } }, ["a", "b"])).toBe(
      "unverified",
    );
    expect(claimState(null, ["a"])).toBe("not-observed");
  });

  it("maps the offline facts of the small vector pack, and derives the legacy fields from them", () => {
    const e = gaosEntry({ slug: "vector-small", open: false }, row, stored(expected.facts, true), { "3": 1 });
    expect(e).toMatchObject({
      schema: "gaos.leaderboard-entry.v2",
      benchmarkId: "vector-small",
      submissionId: "run-1",
      agentName: "vec-a",
      aggregateScore: 0.8233,
      taskScores: { "3": 1 },
      artifactDigest: row.receipt_hash,
      evidenceVerdict: "trusted",
      reproduced: false,
      eligibility: {
        policyId: "bench-bounty.verifier.offline",
        policyVersion: "0.1.0",
        decision: "eligible",
        reasons: [],
      },
    });
    expect(e.verification).toMatchObject({
      replay: "verified",
      semantics: "verified",
      evidenceComplete: "verified",
      hiddenTestCompliant: "not-observed",
      timeAttested: "not-observed",
      publicationLogged: "not-observed",
      signatures: "not-required",
      organizerReproduced: "not-observed",
      modelIdentityAttested: "not-observed",
    });
    // nothing folded away: the SPEC 9 facts ride along whole
    expect(Object.keys(e.bench_bounty_facts as object)).toEqual(Object.keys(expected.facts));
  });

  it("a failed pack hash makes evidenceComplete failed, the verdict rejected and the entry ineligible", () => {
    const e = gaosEntry(
      { slug: "s", open: false },
      row,
      stored({ ...expected.facts, pack_hash: "failed" }, false, ["pack_hash"]),
      {},
    );
    expect((e.verification as Record<string, unknown>).evidenceComplete).toBe("failed");
    expect((e.verification as Record<string, unknown>).replay).toBe("verified");
    expect(e.evidenceVerdict).toBe("rejected");
    expect(e.eligibility).toMatchObject({
      decision: "ineligible",
      reasons: [expect.stringContaining("pack_hash")],
    });
    expect((e.verification as { reasons: string[] }).reasons).toContain(
      "pack_hash (failed): pack_hash reason",
    );
  });

  it("while open the entry carries the public composite and no stored verification is pending", () => {
    const e = gaosEntry(
      { slug: "s", open: true },
      { ...row, score_composite: "0.9", score_composite_public: "0.7" },
      null,
      {},
    );
    expect(e.aggregateScore).toBe(0.7);
    expect(e.evidenceVerdict).toBe("unverifiable");
    // RFC-015 `eligibility?`: no stored report, no evaluated policy: no eligibility (not a made-up version)
    expect(e).not.toHaveProperty("eligibility");
  });
});

describe("GET /api/v1/benchmarks/:slug/entries", () => {
  let dir: string;
  let platform: Platform;
  let url: string;
  let close: () => void;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "bb-entries-"));
    platform = await Platform.open({ dir, operatorKey: "bb_operator_entries_0123456789abcdef0123456789" });
    const app = createApp({ domain: platformDomain(platform) });
    await new Promise<void>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (i) => {
        url = `http://127.0.0.1:${i.port}`;
        close = () => s.close();
        resolve();
      });
    });
  });
  afterAll(async () => {
    close?.();
    await platform?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("serves each board row as an entry, and 404s an unknown benchmark", async () => {
    const { slug } = await publishCities(url, 8, "entries");
    const me = await register(url, "entrant");
    const start = await call(url, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: me.key });
    const answers = start.json.tasks.map((t: { ordinal: number; prompt: string }) => ({
      ordinal: t.ordinal,
      answer_text: citiesAnswer(t.prompt),
    }));
    await call(url, "POST", `/api/v1/benchmarks/runs/${start.json.run.id}/submissions`, {
      key: me.key,
      body: { answers },
    });
    await call(url, "POST", `/api/v1/benchmarks/runs/${start.json.run.id}/finalize`, { key: me.key });
    const board = await call(url, "GET", `/api/v1/benchmarks/${slug}/leaderboard`);
    const r = await call(url, "GET", `/api/v1/benchmarks/${slug}/entries`);
    expect(r.status).toBe(200);
    expect(r.json.schema).toBe("gaos.leaderboard-entry.v2");
    expect(r.json.entries).toHaveLength(1);
    const detail = await call(url, "GET", `/api/v1/benchmarks/${slug}`);
    expect(detail.json.version).toMatch(/^0x[0-9a-f]{8}$/);
    expect(r.json.entries[0]).toMatchObject({
      benchmarkId: slug,
      benchmarkVersion: detail.json.version,
      submissionId: start.json.run.id,
      aggregateScore: Number(board.json.rows[0].score_composite_public),
      taskScores: {},
    });
    expect(r.json.entries[0]).not.toHaveProperty("eligibility");
    expect(r.text).not.toContain('"none"');
    expect(r.json.entries[0].verification.replay).toBe("not-observed");
    // open: nothing computed from private tasks (SPEC 6.1)
    expect(r.text).not.toMatch(/"score_composite"|"score_private"|"credit"/);
    const doc = await call(url, "GET", "/api/v1/openapi.json");
    expect(Object.keys(doc.json.paths)).toEqual(
      expect.arrayContaining([
        "/api/v1/benchmarks/{slug}/entries",
        "/api/v1/benchmarks/{slug}/verification",
        "/api/v1/benchmarks/{slug}/verification/report",
        "/api/v1/benchmarks/{slug}/claims/relay",
      ]),
    );
    // the absent eligibility is documented: optional in the Entries schema, with its meaning
    const entry = doc.json.components.schemas.Entries.properties.entries.items;
    expect(entry.required).not.toContain("eligibility");
    expect(entry.properties.eligibility.description).toMatch(/absent until/);
    const missing = await call(url, "GET", "/api/v1/benchmarks/no-such-bench/entries");
    expect(missing.status).toBe(404);
  });

  // probe19 A-F7: entries read the detail (whose prize check waits on the chain RPC) for its slug,
  // version and leaf count only; they read the commitment instead, which needs no chain
  it("entries never wait on the prize's on-chain check: served while the detail cannot be read", async () => {
    const { slug } = await publishCities(url, 4, "entries-nochain");
    const domain = platformDomain(platform);
    const app = createApp({
      domain: {
        ...domain,
        benchmarkDetail: () => Promise.reject(new Error("the detail waited on the chain RPC")),
      },
    });
    const r = await app.request(`/api/v1/benchmarks/${slug}/entries`);
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ schema: "gaos.leaderboard-entry.v2", entries: [] });
  });
});

// probe16 A-F8 addendum: a closed board's entries carry every task's credit, so a page is bounded in
// run-task cells (MAX_TASK_SCORE_CELLS), not only in rows: 10,000 rows of 10,010 tasks were ~1 GB
describe("a closed board's entries page is bounded in run-task cells", () => {
  const rows = (n: number, from: number) =>
    Array.from({ length: n }, (_, i) => ({ agent_id: `a${from + i}`, run_id: `r${from + i}` }));
  const board = (n: number, next: number | null) => ({
    rows: rows(n, 10),
    open: false,
    total_rows: 100,
    offset: 10,
    limit: 5,
    next_offset: next,
  });

  it("keeps the first taskScoresPageRuns(limit, leaf_count) rows, the rest on the next page", () => {
    expect(MAX_TASK_SCORE_CELLS).toBe(20_000);
    // a bank of 10,010 tasks: one row a page whatever the limit asked
    expect(taskScoresPageRuns(10_000, 10_010)).toBe(1);
    const one = boundedRows(board(5, 15), taskScoresPageRuns(5, 10_010));
    expect(one).toEqual({ rows: rows(1, 10), limit: 1, next_offset: 11 });
    // a bank of 8,000 tasks: two rows
    const two = boundedRows(board(5, 15), taskScoresPageRuns(5, 8_000));
    expect(two).toEqual({ rows: rows(2, 10), limit: 2, next_offset: 12 });
    // a small bank: the page as the board gave it
    expect(boundedRows(board(5, 15), taskScoresPageRuns(5, 8))).toEqual({
      rows: rows(5, 10),
      limit: 5,
      next_offset: 15,
    });
    // the last page, shorter than the bound: it stays the last
    expect(boundedRows(board(2, null), taskScoresPageRuns(5, 8_000))).toEqual({
      rows: rows(2, 10),
      limit: 2,
      next_offset: null,
    });
  });
});
