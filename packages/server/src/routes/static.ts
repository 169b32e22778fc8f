/**
 * Byte-static documents: the one auditable script (`/scripts/run-benchmark.sh`, its
 * `/scripts/sha256sums.txt`) and the how-to documents (`/content/:slug.md`, listed at `/content`;
 * the MCP tools `discover_tutorials` / `read_tutorial` serve the same files). They are read once, at
 * startup, from this package's `assets/`.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.js";
import { EdgeError } from "../errors.js";
import { sendJson } from "../http.js";
import { defineRoute } from "../route.js";

const ASSETS = new URL("../../assets/", import.meta.url);

/** One how-to document. */
export interface Tutorial {
  slug: string;
  title: string;
  summary: string;
  text: string;
}

/** The script's bytes, exactly as served. */
export const RUN_BENCHMARK_SH: Buffer = readFileSync(new URL("scripts/run-benchmark.sh", ASSETS));

/** `sha256sum` format: `<hex>  run-benchmark.sh\n`. */
export const SHA256SUMS = `${createHash("sha256").update(RUN_BENCHMARK_SH).digest("hex")}  run-benchmark.sh\n`;

/** The tutorials of `assets/content/*.md`: title = first `# ` line, summary = first paragraph after it. */
export const TUTORIALS: readonly Tutorial[] = readdirSync(new URL("content/", ASSETS))
  .filter((f) => f.endsWith(".md"))
  .sort()
  .map((f) => {
    const text = readFileSync(new URL(`content/${f}`, ASSETS), "utf8");
    const lines = text.split("\n");
    const title = (lines.find((l) => l.startsWith("# ")) ?? f).replace(/^# /, "");
    const summary =
      text
        .split("\n\n")
        .find((p) => p.trim() && !p.startsWith("#"))
        ?.replace(/\s+/g, " ")
        .trim() ?? "";
    return { slug: f.replace(/\.md$/, ""), title, summary, text };
  });

/** A tutorial by slug. @throws EdgeError `not_found` naming the known slugs */
export function tutorial(slug: string): Tutorial {
  const t = TUTORIALS.find((x) => x.slug === slug);
  if (!t)
    throw new EdgeError("not_found", `no tutorial ${JSON.stringify(slug)}`, {
      slug,
      known: TUTORIALS.map((x) => x.slug),
    });
  return t;
}

export function staticRoutes(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>();
  defineRoute(app, {
    method: "get",
    path: "/scripts/run-benchmark.sh",
    tags: ["scripts"],
    auth: "none",
    summary: "The byte-static POSIX sh script (phases start and submit; slug as argv)",
    ok: { status: 200, description: "the script", contentType: "text/x-shellscript", schema: z.string() },
    handler: async (c) =>
      c.body(new Uint8Array(RUN_BENCHMARK_SH), 200, { "content-type": "text/x-shellscript; charset=utf-8" }),
  });
  defineRoute(app, {
    method: "get",
    path: "/scripts/sha256sums.txt",
    tags: ["scripts"],
    auth: "none",
    summary: "SHA-256 of the script, in sha256sum format",
    ok: { status: 200, description: "sha256sums", contentType: "text/plain", schema: z.string() },
    handler: async (c) => c.body(SHA256SUMS, 200, { "content-type": "text/plain; charset=utf-8" }),
  });
  defineRoute(app, {
    method: "get",
    path: "/content",
    tags: ["content"],
    auth: "none",
    summary: "The how-to documents",
    ok: { status: 200, description: "{tutorials: [{slug, title, summary, url}]}" },
    handler: async (c) =>
      sendJson(c, {
        tutorials: TUTORIALS.map(({ slug, title, summary }) => ({
          slug,
          title,
          summary,
          url: `/api/v1/content/${slug}.md`,
        })),
      }),
  });
  defineRoute(app, {
    method: "get",
    path: "/content/:file",
    tags: ["content"],
    auth: "none",
    summary: "One how-to document as Markdown (`/content/compete-on-benchmarks.md`)",
    ok: { status: 200, description: "markdown", contentType: "text/markdown", schema: z.string() },
    errors: [404],
    handler: async (c) => {
      const file = c.req.param("file");
      if (!file.endsWith(".md"))
        throw new EdgeError("not_found", "tutorials are served as <slug>.md", { file });
      return c.body(tutorial(file.slice(0, -3)).text, 200, {
        "content-type": "text/markdown; charset=utf-8",
      });
    },
  });
  return app;
}
