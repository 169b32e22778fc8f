/**
 * The evidence door (SPEC 8), moved here from the platform: `GET /benchmarks/:slug/award-evidence`
 * serves the stored pack bytes with `ETag` = the pack hash (the same bytes forever, so 304 on a
 * matching `If-None-Match`), or 404 with the SPEC 8 reason until the award. HEAD answers the GET's
 * headers, its Content-Length included, without reading the bytes; a 200 streams them in chunks from
 * one copy per process (probe26 A-F2).
 */
import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AwardEvidenceUnavailable } from "@bench-bounty/platform";
import type { AppEnv } from "../env.js";
import { evidenceStatusOf, retryAfterOf } from "../errors.js";
import { etagMatches, notModifiedHeaders, sendJson } from "../http.js";
import { defineRoute } from "../route.js";

/** The Content-Type of the pack bytes (its 200 and its 304). */
const PACK_TYPE = "application/json";

/**
 * The door's 404/503 answer naming the SPEC 8 reason (the edge's reason-to-status table), the reason's
 * facts in `details` beside it (`awarded_elsewhere`: the award's transaction and digests, probe37 C-F2);
 * a 503 `pack_pending` with `Retry-After` = its `details.retry_after_seconds` (probe38 C-F3).
 */
function unavailable(c: Context<AppEnv>, r: AwardEvidenceUnavailable): Response {
  return sendJson(
    c,
    {
      error: {
        code: "award_evidence_unavailable",
        message: r.message,
        reason: r.reason,
        details: { ...r.details, reason: r.reason },
      },
    },
    evidenceStatusOf(r.reason),
    retryAfterOf(r.details ?? {}),
  );
}

/**
 * A byte stream over `chunks`, pulled one chunk at a time when the reader wants more (high-water mark
 * 0: nothing is read before the first pull, so an answer replaced before it is sent reads nothing);
 * cancelling it (a client gone) ends the iteration.
 */
function streamOf(chunks: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const it = chunks[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await it.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await it.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

export function doorRoutes(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  defineRoute(app, {
    method: "get",
    path: "/benchmarks/:slug/award-evidence",
    tags: ["evidence"],
    auth: "none",
    summary: "The award evidence pack (byte-identical forever once awarded; ETag = pack hash)",
    ok: { status: 200, schema: z.looseObject({}), description: "the pack bytes" },
    errors: [404, 503],
    handler: async (c) => {
      const slug = c.req.param("slug");
      // the door's logic once, for the hash; the bytes only for a 200, read by that hash: a 304 costs the
      // same whatever the pack's size (probe20 F4)
      const head = await c.var.domain.awardEvidenceHead(slug);
      if (head.kind === "unavailable") return unavailable(c, head);
      const etag = `"${head.pack_hash}"`;
      const headers = { etag, "cache-control": "public, max-age=31536000, immutable" };
      if (etagMatches(c.req.header("if-none-match"), etag))
        return c.body(null, 304, notModifiedHeaders(etag, PACK_TYPE, headers));
      // HEAD (answered by this GET route): the size is known from the head, so its Content-Length is
      // the GET's, and no bytes are read (probe24 C-F6)
      if (c.req.method === "HEAD")
        return c.body(null, 200, {
          ...headers,
          "content-type": PACK_TYPE,
          "content-length": String(head.pack_size),
        });
      // the bytes streamed a chunk at a time from one copy per process, read when the first chunk is
      // sent (probe26 A-F2: each 200 read and held the whole pack); the Content-Length is the head's, so
      // the answer-bytes charge refuses a 429 before anything is read
      const body = streamOf(c.var.domain.awardEvidenceChunks(slug, head.pack_hash, head.pack_size));
      return c.body(body, 200, {
        ...headers,
        "content-type": PACK_TYPE,
        "content-length": String(head.pack_size),
      });
    },
  });
  return app;
}
