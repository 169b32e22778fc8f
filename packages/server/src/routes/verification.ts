/**
 * `/api/v1/benchmarks/:slug/verification`: the verifier worker's stored verification of the award
 * pack (issue 17 item 2). `GET` the job state and, once stored, the facts with each state and
 * reasons, the policy name and version, the verifier version and when it ran; `GET .../report` the
 * report's exact bytes; `POST` queues a verification again (the benchmark's author or the operator).
 * Before a pack exists every one of them is 404 `verification_unavailable` with the door's reason.
 */
import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.js";
import { sendJson } from "../http.js";
import { defineRoute } from "../route.js";
import { Verification } from "../schemas.js";

export function verificationRoutes(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  defineRoute(app, {
    method: "get",
    path: "/benchmarks/:slug/verification",
    tags: ["evidence"],
    auth: "none",
    summary:
      "The stored verification of the award pack (full policy): job state, each fact, policy and versions",
    ok: { status: 200, schema: Verification, description: "the verification" },
    errors: [404],
    handler: async (c) => sendJson(c, await c.var.domain.verification(c.var.principal, c.req.param("slug"))),
  });
  defineRoute(app, {
    method: "get",
    path: "/benchmarks/:slug/verification/report",
    tags: ["evidence"],
    auth: "none",
    summary: "The stored verification report (bench-bounty.verification.v1), its exact bytes",
    ok: { status: 200, schema: z.looseObject({}), description: "the report bytes" },
    errors: [404],
    handler: async (c) => {
      const bytes = await c.var.domain.verificationReport(c.req.param("slug"));
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
        "content-type": "application/json",
        "cache-control": "no-cache",
      });
    },
  });
  defineRoute(app, {
    method: "post",
    path: "/benchmarks/:slug/verification",
    tags: ["evidence"],
    auth: "required",
    summary:
      "Verify the award pack again (the benchmark's author, at most once per 10 minutes after the last result, or the operator)",
    ok: { status: 202, schema: Verification, description: "the queued verification" },
    errors: [401, 403, 404, 429, 503],
    handler: async (c) =>
      sendJson(
        c,
        await c.var.domain.requestVerification(c.var.principal, c.req.param("slug"), {
          answerBy: c.var.revealBy,
        }),
        202,
      ),
  });
  return app;
}
