/**
 * `/api/v1/benchmarks/runs/...`: submit, finalize, read one run, and the caller's runs. Mounted before
 * the `/benchmarks/:slug` routes so that `runs` is never read as a slug.
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.js";
import { RUN_TASKS_PAGE_MIB as PAGE_MIB } from "../domain.js";
import { sendJson } from "../http.js";
import { defineRoute } from "../route.js";
import { AnyJson, SubmitBody } from "../schemas.js";
import { ANSWERS_BODY } from "../body-limits.js";
import { offsetOf, pageOf, RunsPageQuery, RunTasksQuery } from "../query.js";
import { RUNS_PAGE_SIZE } from "@bench-bounty/platform";

export function runRoutes(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  defineRoute(app, {
    method: "get",
    path: "/benchmarks/runs/mine",
    tags: ["runs"],
    auth: "required",
    summary: "The caller's runs across all benchmarks, newest first, one page at a time",
    query: RunsPageQuery,
    ok: { status: 200, schema: AnyJson, description: "{runs, offset, limit, next_offset}" },
    errors: [400, 401, 403, 422],
    handler: async (c) =>
      sendJson(c, await c.var.domain.runsMine(c.var.principal, pageOf(c, RUNS_PAGE_SIZE))),
  });
  defineRoute(app, {
    method: "get",
    path: "/benchmarks/runs/:run_id",
    tags: ["runs"],
    auth: "required",
    summary: "A run (its owner, the benchmark's author, or the operator)",
    ok: { status: 200, schema: AnyJson, description: "the run" },
    errors: [401, 403, 404],
    handler: async (c) => sendJson(c, await c.var.domain.getRun(c.var.principal, c.req.param("run_id"))),
  });
  defineRoute(app, {
    method: "get",
    path: "/benchmarks/runs/:run_id/tasks",
    tags: ["runs"],
    auth: "required",
    summary: `One page of the tasks of the caller's own run (at most ${PAGE_MIB} MiB of tasks from ordinal offset; next_offset names the next page, null on the last) and the ordinals answered so far (resume)`,
    query: RunTasksQuery,
    ok: {
      status: 200,
      schema: AnyJson,
      description: "{run_id, tasks, task_count, offset, next_offset, answered_ordinals}",
    },
    errors: [400, 401, 403, 404, 429],
    handler: async (c) =>
      sendJson(
        c,
        await c.var.domain.runTasks(c.var.principal, c.req.param("run_id"), {
          admit: c.var.admitAnswer,
          offset: offsetOf(c),
        }),
      ),
  });
  defineRoute(app, {
    method: "post",
    path: "/benchmarks/runs/:run_id/submissions",
    tags: ["runs"],
    auth: "required",
    summary: "Submit answers (idempotent upserts per ordinal; unknown ordinals and empty answers 422)",
    body: SubmitBody,
    bodyLimits: ANSWERS_BODY,
    ok: { status: 200, schema: AnyJson, description: "what was stored" },
    errors: [400, 401, 403, 404, 409, 413, 422, 503],
    handler: async (c, body) =>
      sendJson(
        c,
        await c.var.domain.submit(c.var.principal, c.req.param("run_id"), body.answers, {
          answerBy: c.var.revealBy,
        }),
      ),
  });
  defineRoute(app, {
    method: "post",
    path: "/benchmarks/runs/:run_id/finalize",
    tags: ["runs"],
    auth: "required",
    summary: "Finalize a run (the wall clock stops); a second finalize is 409",
    ok: {
      status: 200,
      schema: AnyJson,
      description:
        "scores (SPEC 6.1: while open nothing computed from private tasks, except to the benchmark's author; per_task public credits once attempts are used up)",
    },
    errors: [401, 403, 404, 409, 503],
    handler: async (c) =>
      sendJson(
        c,
        await c.var.domain.finalize(c.var.principal, c.req.param("run_id"), { revealBy: c.var.revealBy }),
      ),
  });
  return app;
}
