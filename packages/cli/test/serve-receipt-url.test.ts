/**
 * `serve` without `--public-url`: the final board's `receipt_url` (the award pack's input, SPEC 8) is on
 * the address serve listens on, like `how_to_compete` (probeD1 F17: it pointed at the platform's own
 * default, http://127.0.0.1:8787, where nothing listened); and the CLI's award on that store takes that
 * base (probe27 C-F6: it froze the placeholder into the pack and the on-chain ranking digest).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { post, serveUrl } from "./serve-process.js";

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, "..", "dist", "index.js");

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGTERM");
});

describe("serve without --public-url", { timeout: 90_000 }, () => {
  it("puts receipt_url on the final board on the listen address, like how_to_compete", async () => {
    const store = mkdtempSync(join(tmpdir(), "bb-cli-receipt-url-"));
    const child = spawn(process.execPath, [bin, "serve", "--store", store, "--port", "0"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: process.env.PATH! },
    });
    children.push(child);
    const base = await serveUrl(child);
    expect(base).not.toBe("http://127.0.0.1:8787");
    const key = (await post(base, "/api/v1/accounts", { name: "receipt-url" })).json.api_key as string;
    const rows = [0, 1, 2, 3].map((i) => ({
      decision_ts: `2026-01-0${i + 1}`,
      payload: { city: `R${i}` },
      label: `a${i}`,
    }));
    const ds = await post(base, "/api/v1/datasets", { name: "receipt-url", rows }, key);
    expect(ds.status, JSON.stringify(ds.json)).toBe(201);
    const pub = await post(
      base,
      `/api/v1/datasets/${ds.json.dataset_id}/benchmark`,
      { title: "R", prompt_template: "City {payload.city}", grader_type: "exact" },
      key,
    );
    expect(pub.status, JSON.stringify(pub.json)).toBe(201);
    const slug = pub.json.slug as string;
    const run = (await post(base, `/api/v1/benchmarks/${slug}/runs`, {}, key)).json.run.id as string;
    const sub = await post(
      base,
      `/api/v1/benchmarks/runs/${run}/submissions`,
      { answers: [{ ordinal: 0, answer_text: "x" }] },
      key,
    );
    expect(sub.status, JSON.stringify(sub.json)).toBe(200);
    expect((await post(base, `/api/v1/benchmarks/runs/${run}/finalize`, {}, key)).status).toBe(200);
    const closed = spawnSync(process.execPath, [bin, "close", slug], {
      encoding: "utf8",
      env: { PATH: process.env.PATH!, BENCH_BOUNTY_STORE: store },
    });
    expect(closed.status, closed.stderr).toBe(0);

    const detail = (await (await fetch(`${base}/api/v1/benchmarks/${slug}`)).json()) as Record<string, any>;
    expect(JSON.stringify(detail.how_to_compete)).toContain(base);
    const board = (await (await fetch(`${base}/api/v1/benchmarks/${slug}/leaderboard`)).json()) as Record<
      string,
      any
    >;
    expect(board.rows[0].receipt_url).toBe(`${base}/api/v1/benchmarks/${slug}/runs/${run}/receipt`);
    const receipt = await fetch(board.rows[0].receipt_url as string);
    expect(receipt.status).toBe(200);

    // probe27 C-F6: serve records that base on the store, and the CLI's award (no --public-url) takes it
    // rather than the placeholder http://127.0.0.1:8787 (here it then stops: no chain)
    const award = spawnSync(process.execPath, [bin, "award", slug], {
      encoding: "utf8",
      env: { PATH: process.env.PATH!, BENCH_BOUNTY_STORE: store },
    });
    expect(award.stderr).toContain(
      `receipt URLs of the award of ${slug}: ${base}/api/v1/benchmarks/${slug}/runs/<run>/receipt (the base serve recorded on this store`,
    );
    expect(award.stderr).not.toMatch(/--public-url is required/);
  });
});
