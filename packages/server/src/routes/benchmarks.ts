/**
 * `/api/v1/benchmarks`: list, detail, corpus, start a run, leaderboard, commitment, receipts, the
 * author's bounty attachment and the operator's award. The evidence door is in `door.ts`.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.js";
import { sendCachedJson, sendJson, sendTaggedJson } from "../http.js";
import { BenchmarksPageQuery, BoardPageQuery, boardPageOf, pageOf } from "../query.js";
import { BENCHMARKS_PAGE_SIZE } from "@bench-bounty/platform";
import { defineRoute } from "../route.js";
import {
  AnyJson,
  BenchmarkDetail,
  BenchmarkList,
  BountyBody,
  Leaderboard,
  StartedRun,
  StartRunBody,
} from "../schemas.js";

export function benchmarkRoutes(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  const slug = (c: { req: { param(n: "slug"): string } }) => c.req.param("slug");
  defineRoute(app, {
    method: "get",
    path: "/benchmarks",
    tags: ["benchmarks"],
    auth: "optional",
    summary:
      "Published benchmarks (drafts invisible, closed ones read-only), oldest first, one page at a time",
    query: BenchmarksPageQuery,
    ok: { status: 200, schema: BenchmarkList, description: "{benchmarks, offset, limit, next_offset}" },
    errors: [400, 422],
    handler: async (c) =>
      sendJson(c, await c.var.domain.listBenchmarks(c.var.principal, pageOf(c, BENCHMARKS_PAGE_SIZE))),
  });
  defineRoute(app, {
    method: "get",
    path: "/benchmarks/:slug",
    tags: ["benchmarks"],
    auth: "optional",
    summary: "Detail: how_to_compete, grader_types, scoring, prize facts (never gold)",
    ok: { status: 200, schema: BenchmarkDetail, description: "the detail" },
    errors: [404],
    handler: async (c) =>
      sendJson(c, await c.var.domain.benchmarkDetail(c.var.principal, slug(c), c.var.baseUrl)),
  });
  defineRoute(app, {
    method: "get",
    path: "/benchmarks/:slug/corpus",
    tags: ["benchmarks"],
    auth: "required",
    summary: "The free corpus (a dataset benchmark: no documents and a note)",
    ok: { status: 200, schema: AnyJson, description: "{documents, note}" },
    errors: [401, 403, 404],
    handler: async (c) => sendJson(c, await c.var.domain.corpus(c.var.principal, slug(c))),
  });
  defineRoute(app, {
    method: "post",
    path: "/benchmarks/:slug/runs",
    tags: ["runs"],
    auth: "required",
    bodyOptional: true,
    summary: "Start a run: this attempt's tasks (no gold); the wall clock starts now",
    body: StartRunBody,
    ok: { status: 201, schema: StartedRun, description: "{run, tasks}" },
    errors: [401, 403, 404, 409, 429, 503],
    handler: async (c, body) =>
      sendJson(
        c,
        await c.var.domain.startRun(c.var.principal, slug(c), body, { answerBy: c.var.revealBy }),
        201,
      ),
  });
  defineRoute(app, {
    method: "get",
    path: "/benchmarks/:slug/leaderboard",
    tags: ["benchmarks"],
    auth: "optional",
    summary: "The public board while open, the final board at close (SPEC 6.1), one page at a time",
    query: BoardPageQuery,
    ok: { status: 200, schema: Leaderboard, description: "one page of the board" },
    errors: [400, 404, 422],
    handler: async (c) =>
      sendCachedJson(
        c,
        (await c.var.domain.leaderboard(c.var.principal, slug(c), undefined, boardPageOf(c))) as object,
      ),
  });
  defineRoute(app, {
    method: "get",
    path: "/benchmarks/:slug/commitment",
    tags: ["evidence"],
    auth: "optional",
    summary: "The test-set commitment: root, leaf count, anchor",
    ok: { status: 200, schema: AnyJson, description: "the commitment" },
    errors: [404],
    handler: async (c) => sendJson(c, await c.var.domain.commitment(c.var.principal, slug(c))),
  });
  defineRoute(app, {
    method: "get",
    path: "/benchmarks/:slug/runs/:run_id/receipt",
    tags: ["evidence"],
    auth: "optional",
    summary:
      "A finalized run's receipt (served once the benchmark has closed, to its author at any time, SPEC 6.1; buyer_only: the author only)",
    ok: { status: 200, schema: AnyJson, description: "{receipt, receipt_hash}" },
    errors: [404],
    // hash-bound (SPEC 4): the answer {receipt, receipt_hash} never changes, its hash is its ETag
    handler: async (c) => {
      const served = await c.var.domain.receipt(c.var.principal, slug(c), c.req.param("run_id"));
      return sendTaggedJson(c, served, `"${(served as { receipt_hash: string }).receipt_hash}"`);
    },
  });
  defineRoute(app, {
    method: "post",
    path: "/benchmarks/:slug/bounty",
    tags: ["authors"],
    auth: "required",
    summary: "The author attaches the prize they locked with their own key (checked on-chain)",
    body: BountyBody,
    ok: { status: 200, schema: AnyJson, description: "the attached bounty" },
    errors: [401, 403, 404, 409, 422, 503],
    handler: async (c, body) =>
      sendJson(
        c,
        await c.var.domain.attachBounty(c.var.principal, slug(c), body, { answerBy: c.var.revealBy }),
      ),
  });
  defineRoute(app, {
    method: "post",
    path: "/benchmarks/:slug/award",
    tags: ["operator"],
    auth: "required",
    summary: "The operator settles the award (idempotent, crash-safe)",
    ok: { status: 200, schema: AnyJson, description: "the award" },
    errors: [401, 403, 404, 409, 503],
    handler: async (c) =>
      sendJson(c, await c.var.domain.award(c.var.principal, slug(c), { answerBy: c.var.awardBy })),
  });
  return app;
}
