/** `/api/v1/datasets`: upload (exact numbers), dry run, formats, the caller's list, deletion, and publishing a benchmark from one. */
import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.js";
import { sendJson } from "../http.js";
import { defineRoute, numbersAsSent } from "../route.js";
import { AnyJson, BenchmarkDetail, DatasetBody, PublishBody } from "../schemas.js";

/**
 * Publish options given as JSON numbers that need not be integers, which the platform keeps only as
 * sent (probe21 A-F2); the integer ones are checked as sent by `validateBody`, as every integer field.
 */
const PUBLISH_NUMBERS = ["tolerance", "public_fraction"];

export function datasetRoutes(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  defineRoute(app, {
    method: "get",
    path: "/datasets/formats",
    tags: ["authors"],
    auth: "optional",
    summary: "The row schema and worked examples",
    ok: { status: 200, schema: AnyJson, description: "formats" },
    handler: async (c) => sendJson(c, await c.var.domain.datasetFormats()),
  });
  defineRoute(app, {
    method: "post",
    path: "/datasets/validate",
    tags: ["authors"],
    // keyed, as in the seed's author flow: an anonymous 60 MiB dry run blocked the event loop for
    // seconds (probe4 validate-cpu), and a key puts the caller under its own rate-limit bucket; the
    // bytes are parsed and checked in a worker thread (`dataset-check.ts`), off the event loop
    auth: "required",
    bodyMode: "bytes",
    summary: "Dry run: row-numbered fix hints, nothing persisted",
    body: DatasetBody,
    ok: { status: 200, schema: AnyJson, description: "{ok, row_count, content_hash, errors}" },
    errors: [400, 401, 403, 413, 422, 503],
    // dropped, not run, when still waiting for the worker at the request's deadline (probe17 A-F3)
    handler: async (c, bytes) =>
      sendJson(
        c,
        await c.var.domain.validateDataset(c.var.principal, bytes as unknown as Uint8Array, {
          answerBy: c.var.revealBy,
          stopBy: c.var.endsAt,
        }),
      ),
  });
  defineRoute(app, {
    method: "post",
    path: "/datasets",
    tags: ["authors"],
    auth: "required",
    bodyMode: "bytes",
    summary: "Upload a dataset (JSON rows); the caller owns it",
    body: DatasetBody,
    ok: { status: 201, schema: AnyJson, description: "{dataset_id, content_hash, ...}" },
    errors: [400, 401, 403, 413, 422, 503],
    // parsed and checked in the worker thread too; only the store's insert runs here, by the
    // request's deadline for waits (else 503 `server_busy`, nothing stored: probe16 A-F5)
    handler: async (c, bytes) =>
      sendJson(
        c,
        await c.var.domain.createDataset(c.var.principal, bytes as unknown as Uint8Array, {
          answerBy: c.var.revealBy,
          stopBy: c.var.endsAt,
        }),
        201,
      ),
  });
  defineRoute(app, {
    method: "get",
    path: "/datasets/mine",
    tags: ["authors"],
    auth: "required",
    summary: "The caller's datasets (newest first) with their stored bytes and the account's quota",
    ok: {
      status: 200,
      schema: AnyJson,
      description:
        "{datasets: [{dataset_id, name, content_hash, row_count, created_at, stored_bytes, benchmark}], used_bytes, limit_bytes}",
    },
    errors: [401, 403],
    handler: async (c) => sendJson(c, await c.var.domain.myDatasets(c.var.principal)),
  });
  defineRoute(app, {
    method: "delete",
    path: "/datasets/:dataset_id",
    tags: ["authors"],
    auth: "required",
    summary: "Delete the caller's dataset never published, freeing its bytes of the quota",
    ok: { status: 200, schema: AnyJson, description: "{dataset_id, freed_bytes}" },
    errors: [401, 403, 404, 409, 503],
    handler: async (c) =>
      sendJson(
        c,
        await c.var.domain.deleteDataset(c.var.principal, c.req.param("dataset_id"), {
          answerBy: c.var.revealBy,
        }),
      ),
  });
  defineRoute(app, {
    method: "post",
    path: "/datasets/:dataset_id/benchmark",
    tags: ["authors"],
    auth: "required",
    summary: "Publish the dataset's benchmark (201 with the detail and a disclosure)",
    body: PublishBody,
    ok: { status: 201, schema: BenchmarkDetail, description: "the detail plus disclosure" },
    errors: [400, 401, 403, 404, 409, 422, 503],
    handler: async (c, body, sent) =>
      sendJson(
        c,
        await c.var.domain.publish(
          c.var.principal,
          c.req.param("dataset_id"),
          // a JSON number is kept only as sent (probe21 A-F2): the platform reads the text of these
          { ...body, ...numbersAsSent(sent, PUBLISH_NUMBERS) },
          c.var.baseUrl,
          {
            answerBy: c.var.revealBy,
            stopBy: c.var.endsAt,
            chargePlanning: c.var.chargeDatasetBytes,
            owePlanning: c.var.oweDatasetBytes,
          },
        ),
        201,
      ),
  });
  return app;
}
