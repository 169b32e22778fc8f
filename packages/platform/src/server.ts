/**
 * The evidence door and the read-only benchmark API (Hono), SPEC 8:
 *
 * - `GET /api/v1/benchmarks`: published benchmarks (summary);
 * - `GET /api/v1/benchmarks/:slug`: detail (counts, scoring, how to compete, `grader_types`,
 *   commitment and prize facts; never gold);
 * - `GET /api/v1/benchmarks/:slug/leaderboard`: SPEC 7.1 ranking;
 * - `GET /api/v1/benchmarks/:slug/commitment`: root, leaf count and anchor evidence;
 * - `GET /api/v1/benchmarks/:slug/runs/:run_id/receipt`: a finalized run's receipt payload (the
 *   `receipt_url` of the pack rows);
 * - `GET /api/v1/benchmarks/:slug/award-evidence`: the pack bytes (`application/json`, `ETag` = pack
 *   hash), byte-identical forever once awarded; before that 404 with
 *   `{"error": {"code": "award_evidence_unavailable", "reason": <SPEC 8 reason>, "message"}}`, reason one of
 *   `no_commitment`, `not_verifiable_arm`, `not_awarded`, `withheld_live_contest`,
 *   `reclaimed_never_reveals` (and `unknown_benchmark` for an unknown slug).
 *
 * Errors are JSON `{"error": {code, message, details}}` with the status of the {@link PlatformError}.
 */
import { GRADER_TYPES, canonicalJsonString } from "@bench-bounty/evidence";
import { serve, type ServerType } from "@hono/node-server";
import { Hono, type Context } from "hono";
import { PlatformError } from "./errors.js";
import type { Platform } from "./platform.js";

/**
 * A JSON response. Bodies are canonical JSON (SPEC 2), so big integers and the floats of the grader
 * examples keep their exact value; anything else falls back to `JSON.stringify`.
 */
function send(c: Context, value: unknown, status = 200) {
  let text: string;
  try {
    text = canonicalJsonString(value);
  } catch {
    text = JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
  }
  return c.body(text, status as 200, { "content-type": "application/json; charset=utf-8" });
}

function jsonError(c: Context, e: unknown) {
  if (e instanceof PlatformError) return send(c, e.toJSON(), e.status);
  return send(c, { error: { code: "internal_error", message: "internal error", details: {} } }, 500);
}

/** How to compete, as served in the detail (ASCII, names this benchmark's slug). */
function howToCompete(slug: string): string {
  return [
    `1. Run an agent: bench-bounty run ${slug} --agent "<command>" --agent-id <your-agent-id> --store <dir>`,
    "2. The agent reads one JSON document on stdin: {protocol, benchmark, run_id, attempt, tasks:[{ordinal, prompt, visibility, grader_type}]}",
    '3. It prints one JSON document on stdout: {"answers":[{"ordinal":0,"answer_text":"..."}]}',
    "4. The runner submits, finalizes (wall clock from start to finalize) and prints score_public and score_composite.",
    "Set a withdrawal address before you compete: a winner without one blocks the whole award.",
  ].join("\n");
}

/** Builds the Hono app over a platform (no listening; see {@link serveDoor}). */
export function createDoorApp(platform: Platform): Hono {
  const app = new Hono();
  app.get("/api/v1/benchmarks", async (c) => {
    const list = await platform.listBenchmarks();
    const opens = await Promise.all(list.map((b) => platform.isOpen(b.slug)));
    const items = list.map((b, i) => ({
      slug: b.slug,
      title: b.title,
      status: b.status,
      open: opens[i],
      public_tasks: b.public_count,
      private_tasks: b.private_count,
      prize_pool_base_units: b.bounty?.pool_base_units ?? null,
      bounty_status: b.bounty?.status ?? null,
    }));
    return send(c, { benchmarks: items });
  });
  app.get("/api/v1/benchmarks/:slug", async (c) => {
    try {
      const b = await platform.getBenchmark(c.req.param("slug"));
      return send(c, {
        slug: b.slug,
        title: b.title,
        status: b.status,
        open: await platform.isOpen(b.slug),
        created_at: b.created_at,
        public_tasks: b.public_count,
        private_tasks: b.private_count,
        max_attempts: b.config.max_attempts,
        public_tasks_per_run: b.config.public_tasks_per_run,
        grader_type: b.config.grader_type,
        speed_weight: b.config.speed_weight,
        cost_weight: b.config.cost_weight,
        time_budget_seconds: b.config.time_budget_seconds,
        cost_budget_usdc: b.config.cost_budget_usdc,
        commitment: { commit_root: b.commit_root, leaf_count: b.leaf_count, anchor: b.commitment_anchor },
        prize: b.bounty,
        grader_types: GRADER_TYPES,
        how_to_compete: howToCompete(b.slug),
      });
    } catch (e) {
      return jsonError(c, e);
    }
  });
  app.get("/api/v1/benchmarks/:slug/leaderboard", async (c) => {
    try {
      return send(c, await platform.leaderboard(c.req.param("slug")));
    } catch (e) {
      return jsonError(c, e);
    }
  });
  app.get("/api/v1/benchmarks/:slug/commitment", async (c) => {
    try {
      const b = await platform.getBenchmark(c.req.param("slug"));
      return send(c, {
        slug: b.slug,
        commit_root: b.commit_root,
        leaf_count: b.leaf_count,
        commitment_anchor: b.commitment_anchor,
      });
    } catch (e) {
      return jsonError(c, e);
    }
  });
  app.get("/api/v1/benchmarks/:slug/runs/:run_id/receipt", async (c) => {
    try {
      // SPEC 6.1: receipts are served once the benchmark is closed (receipt_withheld before).
      return send(c, await platform.receipt(null, c.req.param("slug"), c.req.param("run_id")));
    } catch (e) {
      return jsonError(c, e);
    }
  });
  app.get("/api/v1/benchmarks/:slug/award-evidence", async (c) => {
    try {
      const r = await platform.awardEvidence(c.req.param("slug"));
      if (r.status === 200) {
        return c.body(r.bytes as Uint8Array<ArrayBuffer>, 200, {
          "content-type": "application/json",
          etag: `"${r.pack_hash}"`,
          "cache-control": "public, max-age=31536000, immutable",
        });
      }
      return send(
        c,
        { error: { code: "award_evidence_unavailable", reason: r.reason, message: r.message } },
        r.status,
      );
    } catch (e) {
      return jsonError(c, e);
    }
  });
  app.notFound((c) =>
    send(c, { error: { code: "not_found", message: "no such endpoint", details: {} } }, 404),
  );
  return app;
}

/**
 * Serves the door on `host:port` (port 0: any free port).
 * @returns the bound URL and a `close()` that stops listening
 * @throws PlatformError `invalid_option` naming `port` or `host` when the address cannot be bound
 */
export async function serveDoor(
  platform: Platform,
  opts: { port?: number; host?: string } = {},
): Promise<{ url: string; server: ServerType; close: () => Promise<void> }> {
  const app = createDoorApp(platform);
  const host = opts.host ?? "127.0.0.1";
  const port = opts.port ?? 8787;
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
      server.removeListener("error", onError);
      resolve({
        url: `http://${host}:${info.port}`,
        server,
        close: () => new Promise<void>((res) => server.close(() => res())),
      });
    });
    // A bind failure (port in use, unknown address) is the caller's mistake: refuse naming the option.
    const onError = (e: NodeJS.ErrnoException): void => {
      const field = e.code === "EADDRINUSE" || e.code === "EACCES" ? "port" : "host";
      const why =
        e.code === "EADDRINUSE"
          ? `port ${port} is already in use on ${host}`
          : e.code === "EACCES"
            ? `no permission to listen on port ${port}`
            : `cannot listen on ${host}:${port} (${e.code ?? e.message})`;
      reject(new PlatformError("invalid_option", `--${field}: ${why}`, { field, code: e.code ?? null }));
    };
    server.once("error", onError);
  });
}
