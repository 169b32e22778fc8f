/**
 * `GET /api/v1/benchmarks/:slug/task-scores`: per-task credit of every finalized run, regraded by the
 * platform (`taskScores` of `@bench-bounty/platform`, where the visibility rule lives): the per-task
 * score tables of the web app and the GAOS `taskScores` of the entries route read it.
 *
 * Who gets what (SPEC 6.1): once the benchmark is closed, everyone the board is for; the author at any
 * time; on a `buyer_only` board nobody but the author (403 `forbidden`, rule `benchmark_author_only`);
 * while open everyone else is answered 404 `task_scores_withheld` (`details.reason`
 * `withheld_live_contest`). Private tasks' credit is null (`private_credits: "withheld"`) for everyone
 * but the author until the benchmark is awarded (probe36 C-F2: never for a reclaimed prize; the
 * platform's `privateCreditsVisible`).
 *
 * Paged over runs (probe16 A-F8: every finalized run x every task was one answer, 8.2 MB for 9 runs of
 * 10,010 tasks): `offset`, `limit` (runs, default 100, at most 1,000), lowered by the platform so that a
 * page holds at most `MAX_TASK_SCORE_CELLS` (20,000) run-task cells, about 1.4 MB; `next_offset` continues.
 * Or by run id (`run_ids`, comma-separated, up to 100: a leaderboard page's rows, probe20 F1), in the
 * order asked, as many as the cell bound holds (`limit`); `next_offset` the position of the first id left.
 */
import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.js";
import { sendCachedJson } from "../http.js";
import { TaskScoresPageQuery, taskScoresQueryOf } from "../query.js";
import { defineRoute } from "../route.js";

const TaskCredit = z
  .object({
    ordinal: z.number().int().openapi({ description: "position in the run (the receipt's ordinal)" }),
    bank_ordinal: z.number().int().openapi({ description: "bank ordinal (SPEC 3); the GAOS taskScores key" }),
    visibility: z.enum(["public", "private"]),
    credit: z.string().nullable().openapi({
      description:
        "SPEC 6 credit, a reduced fraction (`1/1`, `0/1`, `2/3`); null on a private task until the award (private_credits withheld)",
    }),
  })
  .openapi("TaskCredit");

const RunTaskScores = z
  .object({
    run_id: z.string(),
    agent_id: z.string(),
    attempt: z.number().int(),
    finalized_at: z.string(),
    receipt_hash: z.string().nullable().openapi({ description: "null while its anchor is pending" }),
    score_public: z
      .string()
      .openapi({ description: "recomputed from the credits; equals the stored figure" }),
    rank_accuracy: z.string().openapi({ description: "recomputed from the credits (SPEC 6 accuracy)" }),
    score_composite: z
      .string()
      .openapi({ description: "recomputed from the credits: the ranking composite" }),
    tasks: z.array(TaskCredit),
  })
  .openapi("RunTaskScores");

/** The response (documentation; the platform's `TaskScores`). */
export const TaskScores = z
  .object({
    slug: z.string(),
    status: z.enum(["published", "closed", "awarded"]),
    open: z.boolean(),
    stage: z.enum(["open", "closed", "awarded"]),
    served_to: z
      .enum(["author", "everyone"])
      .openapi({ description: "who may be served this at this stage" }),
    private_credits: z.enum(["shown", "withheld"]).openapi({
      description:
        "private tasks' credits: shown (to the author, or once awarded) or withheld (null: closed but not awarded, a reclaimed prize for good)",
    }),
    note: z.string().openapi({ description: "what is revealed at this stage and what is not yet" }),
    bank: z.array(
      z.object({
        bank_ordinal: z.number().int(),
        visibility: z.enum(["public", "private"]),
        grader_type: z.string(),
      }),
    ),
    runs: z
      .array(RunTaskScores)
      .openapi({ description: "this page's finalized runs, in start order (then run id)" }),
    offset: z.number().int().openapi({ description: "position of the page's first run" }),
    limit: z.number().int().openapi({
      description:
        "the runs this page may hold: the asked limit, lowered so that runs x bank tasks <= 20,000",
    }),
    next_offset: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "offset of the next page; null on the last one" }),
  })
  .openapi("TaskScores");

export function taskScoreRoutes(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  defineRoute(app, {
    method: "get",
    path: "/benchmarks/:slug/task-scores",
    tags: ["benchmarks"],
    auth: "optional",
    summary:
      "Per-task credit of the finalized runs, regraded, one page of runs or the runs named by run_ids (served once the benchmark has closed, to its author at any time; buyer_only: the author only)",
    query: TaskScoresPageQuery,
    ok: {
      status: 200,
      schema: TaskScores,
      description: "{stage, note, bank, runs, offset, limit, next_offset}",
    },
    errors: [400, 403, 404, 422],
    handler: async (c) => {
      const asked = taskScoresQueryOf(c);
      const slug = c.req.param("slug")!;
      const d = c.var.domain;
      const answer =
        "run_ids" in asked
          ? await d.taskScoresOfIds(c.var.principal, slug, asked.run_ids)
          : await d.taskScores(c.var.principal, slug, asked.page);
      return sendCachedJson(c, answer as object);
    },
  });
  return app;
}
