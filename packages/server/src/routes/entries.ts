/**
 * `GET /api/v1/benchmarks/:slug/entries`: each leaderboard row as a GAOS `gaos.leaderboard-entry.v2`
 * (RFC-015 section 6: the v0.22 `LeaderboardEntry` fields, plus `verification` facts and
 * `eligibility` with the policy id and version), issue 17 item 3.
 *
 * Where the facts come from: the verifier worker's stored report of the benchmark's award pack
 * (SPEC 9), read through a {@link VerificationSource}. The facts are the award's, so every row of an
 * awarded benchmark carries the same ones; before a stored report (open, or not yet verified) every
 * fact is `not-observed` and the entry has no `eligibility` (RFC-015 makes it optional: no policy has
 * been evaluated, so there is no policy version to name; `verification.reasons` says why).
 *
 * The SPEC 9 facts map onto the coarser GAOS claims as below (a GAOS claim is `failed` when any of its
 * facts failed, `verified` when all are verified or not-required and one is verified, else the first
 * other state met, in {@link STATE_ORDER}); the raw SPEC 9 facts are also served whole, under
 * `bench_bounty_facts`, so nothing is folded away:
 *
 * | GAOS claim | SPEC 9 facts |
 * |---|---|
 * | replay | digest_chain, regrade |
 * | semantics | composite, ordering, selection, payouts |
 * | evidenceComplete | schema, pack_hash, commitment_root, leaf_count, ranking_digest, receipt_hashes |
 * | hiddenTestCompliant | onchain_root, onchain_leaf_count, root_burned, commitment_anchor |
 * | timeAttested | receipt_anchors |
 * | tailAnchored | award_log |
 * | publicationLogged | pack_anchor |
 * | availabilityObserved | indexer_agreement |
 * | signatures | `not-required`: receipts are hash-bound and anchored, not signed |
 * | organizerReproduced, implementationOpen, modelIdentityAttested, accountIdentityAttested | `not-observed`: nothing in a pack attests them |
 *
 * `taskScores` (credit in [0, 1] by bank ordinal) come from the platform's regrade of the page's
 * finalized runs (`taskScoresOfRuns`, the rule of the `task-scores` route) once the benchmark is closed;
 * while open they are empty (SPEC 6.1); until the award, private tasks are left out for all but the
 * author (probe36 C-F2). The built entries are kept per reader (anonymous readers share one), as what a
 * page carries depends on who reads it. Once closed, a page holds at most `MAX_TASK_SCORE_CELLS` (20,000)
 * run-task cells: its `limit` is lowered to `taskScoresPageRuns(limit, leaf_count)` rows (probe16 A-F8).
 *
 * The legacy summaries are derived from the V2 facts, never the reverse (RFC-015): `evidenceVerdict`
 * `rejected` when replay, semantics or evidenceComplete failed, `trusted` when all three are
 * verified, else `unverifiable`; `reproduced` is `organizerReproduced === "verified"` (so false).
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { JsonValue } from "@bench-bounty/evidence";
import { taskScoresPageRuns } from "@bench-bounty/platform";
import type { AppEnv } from "../env.js";
import { sendCachedJson } from "../http.js";
import { BoardPageQuery, boardPageOf } from "../query.js";
import { defineRoute } from "../route.js";
import { Entries } from "../schemas.js";
import { versionOf } from "../platform-domain.js";
import type { FactState, StoredVerification } from "../verification/view.js";

export type { FactState, StoredVerification };

/** Reads the stored verification of a benchmark, or null when there is none yet. */
export type VerificationSource = (slug: string) => Promise<StoredVerification | null>;

/** Order in which a non-verified state wins when several facts make one GAOS claim. */
export const STATE_ORDER: readonly FactState[] = [
  "failed",
  "unverified",
  "not-observed",
  "not-required",
  "verified",
];

/** GAOS claim -> the SPEC 9 facts it is made of (see the module comment). */
export const GAOS_CLAIMS = {
  replay: ["digest_chain", "regrade"],
  semantics: ["composite", "ordering", "selection", "payouts"],
  evidenceComplete: [
    "schema",
    "pack_hash",
    "commitment_root",
    "leaf_count",
    "ranking_digest",
    "receipt_hashes",
  ],
  hiddenTestCompliant: ["onchain_root", "onchain_leaf_count", "root_burned", "commitment_anchor"],
  timeAttested: ["receipt_anchors"],
  tailAnchored: ["award_log"],
  publicationLogged: ["pack_anchor"],
  availabilityObserved: ["indexer_agreement"],
} as const;

const NOT_ATTESTED = [
  "organizerReproduced",
  "implementationOpen",
  "modelIdentityAttested",
  "accountIdentityAttested",
] as const;

/** One GAOS claim from its SPEC 9 facts (a fact missing from the report counts as `not-observed`). */
export function claimState(
  facts: Record<string, { state: FactState }> | null,
  names: readonly string[],
): FactState {
  const states = names.map((n) => facts?.[n]?.state ?? "not-observed");
  if (states.includes("failed")) return "failed";
  if (states.every((s) => s === "verified" || s === "not-required"))
    return states.includes("verified") ? "verified" : "not-required";
  return STATE_ORDER.find((s) => states.includes(s))!;
}

/** The `verification` block (GAOS `SubmissionVerificationFacts`) of a stored verification. */
export function submissionFacts(v: StoredVerification | null): Record<string, JsonValue> {
  const facts = v?.report.facts ?? null;
  const out: Record<string, JsonValue> = {};
  for (const [claim, names] of Object.entries(GAOS_CLAIMS)) out[claim] = claimState(facts, names);
  out.signatures = "not-required";
  for (const claim of NOT_ATTESTED) out[claim] = "not-observed";
  out.externalAuthorities = [];
  out.reasons =
    v === null
      ? ["no stored verification of this benchmark's award pack yet"]
      : Object.entries(v.report.facts).flatMap(([name, f]) =>
          f.state === "verified" ? [] : f.reasons.map((r) => `${name} (${f.state}): ${r}`),
        );
  return out;
}

/** A leaderboard row as the entries route reads it. */
interface BoardRow {
  agent_id: string;
  run_id: string;
  receipt_hash?: string | null;
  score_composite?: string | null;
  score_composite_public?: string | null;
}

/**
 * One `gaos.leaderboard-entry.v2`.
 * @param taskScores per-task credit by bank ordinal (platform `gaosTaskScores`; empty while the
 *   benchmark is open, SPEC 6.1)
 */
export function gaosEntry(
  benchmark: { slug: string; version?: string; open: boolean },
  row: BoardRow,
  v: StoredVerification | null,
  taskScores: Record<string, number>,
): Record<string, JsonValue> {
  const verification = submissionFacts(v);
  const core = ["replay", "semantics", "evidenceComplete"].map((k) => verification[k]);
  const composite = benchmark.open ? row.score_composite_public : row.score_composite;
  return {
    schema: "gaos.leaderboard-entry.v2",
    benchmarkId: benchmark.slug,
    benchmarkVersion: benchmark.version ?? "unversioned",
    submissionId: row.run_id,
    agentName: row.agent_id,
    modality: "text",
    aggregateScore: composite === null || composite === undefined ? null : Number(composite),
    taskScores,
    artifactDigest: row.receipt_hash ?? null,
    evidenceVerdict: core.includes("failed")
      ? "rejected"
      : core.every((s) => s === "verified")
        ? "trusted"
        : "unverifiable",
    reproduced: verification.organizerReproduced === "verified",
    verification,
    // RFC-015 `eligibility?`: absent until a policy was evaluated (no stored report: no policy version)
    ...(v === null
      ? {}
      : {
          eligibility: {
            policyId: `bench-bounty.verifier.${v.policy}`,
            policyVersion: v.policy_version,
            decision: v.report.policy_met ? "eligible" : "ineligible",
            reasons: v.report.policy_met
              ? []
              : v.report.policy_unmet.map((f) => `${f} not in a state the ${v.policy} policy accepts`),
          },
        }),
    bench_bounty_facts: (v?.report.facts ?? {}) as JsonValue,
    verified_at: v?.ran_at ?? null,
    verifier_version: v?.verifier_version ?? null,
  };
}

/** A page of the board as the entries route reads it (platform `LeaderboardPage`, cached per board version). */
interface BoardPage {
  rows: BoardRow[];
  open: boolean;
  total_rows: number;
  offset: number;
  limit: number;
  next_offset: number | null;
}

/**
 * The board page's first `limit` rows (the cell bound of per-task credits), with the `limit` and
 * `next_offset` of the page they make.
 */
export function boundedRows(
  board: BoardPage,
  limit: number,
): { rows: BoardRow[]; limit: number; next_offset: number | null } {
  if (board.rows.length <= limit)
    return { rows: board.rows, limit: Math.min(limit, board.limit), next_offset: board.next_offset };
  return { rows: board.rows.slice(0, limit), limit, next_offset: board.offset + limit };
}

/**
 * Entries built per board page (the platform's page object, the same while the board's version is
 * unchanged) and stored verification (`ran_at`), so that a reader polling a large board gets the same
 * frozen answer and its ETag (probe14 D1-F14: the whole board was rebuilt per request). Weakly held: a
 * page the platform drops takes its entries with it.
 */
const built = new WeakMap<object, Map<string, object>>();

/** Readers' built entries kept per board page (anonymous readers are one reader). */
const ENTRY_READERS_KEPT = 4;

/**
 * The route, mounted by `createApp`. `source` defaults to the domain's `storedVerification` (the
 * verifier worker's stored report). Paged like the leaderboard (`offset`, `limit`; `next_offset`), with
 * an `ETag` and 304 for `If-None-Match`.
 */
export function entriesRoutes(source?: VerificationSource): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  defineRoute(app, {
    method: "get",
    path: "/benchmarks/:slug/entries",
    tags: ["benchmarks"],
    auth: "optional",
    summary:
      "Leaderboard rows as gaos.leaderboard-entry.v2 (verification facts, eligibility policy id and version), one page at a time",
    query: BoardPageQuery,
    ok: {
      status: 200,
      schema: Entries,
      description: "{schema, entries, total_rows, offset, limit, next_offset}",
    },
    errors: [400, 404, 422],
    handler: async (c) => {
      const slug = c.req.param("slug")!;
      const p = c.var.principal;
      const page = boardPageOf(c);
      // the commitment, not the detail: the detail's prize check reads the chain (probe19 A-F7)
      const commitment = (await c.var.domain.commitment(p, slug)) as unknown as {
        commit_root: string | null;
        leaf_count: number;
      };
      const version = versionOf(commitment.commit_root);
      const board = (await c.var.domain.leaderboard(p, slug, undefined, page)) as unknown as BoardPage;
      const v = await (source ? source(slug) : c.var.domain.storedVerification(slug));
      // per reader: the author's taskScores carry private credits before the award (probe36 C-F2)
      const reader = p === null ? "" : p.account_id;
      const key = `${reader}|${version ?? ""}|${v?.ran_at ?? ""}|${v?.verifier_version ?? ""}`;
      let forPage = built.get(board);
      const hit = forPage?.get(key);
      if (hit) return sendCachedJson(c, hit);
      // Per-task credit once closed (SPEC 6.1), regraded by the platform for the page's runs only; while
      // open every entry's taskScores is empty. A hidden (buyer_only) board has no rows to fill. Once
      // closed, a page holds at most MAX_TASK_SCORE_CELLS run-task cells (probe16 A-F8: a page of 10,000
      // rows of a bank of 10,010 tasks was ~1 GB): the rows past that bound are the next page's.
      const { rows, limit, next_offset } = board.open
        ? board
        : boundedRows(board, taskScoresPageRuns(board.limit, commitment.leaf_count));
      const perRun =
        board.open || rows.length === 0
          ? new Map<string, Record<string, number>>()
          : await c.var.domain.gaosTaskScoresOf(
              p,
              slug,
              rows.map((r) => r.run_id),
            );
      const entries = rows.map((row) =>
        gaosEntry(
          { slug, ...(version ? { version } : {}), open: board.open },
          row,
          v,
          perRun.get(row.run_id) ?? {},
        ),
      );
      const answer = Object.freeze({
        schema: "gaos.leaderboard-entry.v2",
        entries,
        total_rows: board.total_rows,
        offset: board.offset,
        limit,
        next_offset,
      });
      if (Object.isFrozen(board)) {
        if (!forPage) built.set(board, (forPage = new Map()));
        // one stored verification per page and reader (a newer one replaces the older), a few readers kept
        for (const k of [...forPage.keys()])
          if (k.startsWith(`${reader}|`) || forPage.size >= ENTRY_READERS_KEPT) forPage.delete(k);
        forPage.set(key, answer);
      }
      return sendCachedJson(c, answer);
    },
  });
  return app;
}
