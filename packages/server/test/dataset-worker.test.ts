/**
 * Issue 13's known gap: a keyed 64 MiB `POST /api/v1/datasets/validate` cost seconds of CPU on the event
 * loop, and every other request waited for it. The dry run now parses and checks the bytes in a worker
 * thread (`dataset-check.ts`), and so does an upload (`POST /api/v1/datasets`; only the store's insert
 * stays on the loop): while a large one runs, a small GET is answered first. Both refuse through the
 * worker as they did inline: 400 naming the JSON position, 422 naming the path, row-numbered reports.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { canonicalJsonString, JsonFloat } from "@bench-bounty/evidence";
import { benchmarkConfig, planPublication, PlatformError, type Principal } from "@bench-bounty/platform";
import type { Domain } from "../src/index.js";
import { afterAll, describe, expect, it, vi } from "vitest";
import { platformDomain, serveApp, type ListeningServer } from "../src/index.js";
import { DatasetChecker, MAX_PASSED } from "../src/dataset-check.js";
import type { EdgeError } from "../src/errors.js";
import { call, publishCities, register, useLive, type Exchange } from "./helpers.js";

const live = useLive();
const servers: ListeningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

/** A valid dataset of 100,000 rows (~30 MiB): seconds of CPU to check on this machine. */
function bigDataset(): string {
  const pad = "p".repeat(200);
  const rows = Array.from({ length: 100_000 }, (_, i) => ({
    decision_ts: "2026-01-01T00:00:00Z",
    payload: { city: `c${i}`, note: pad, n: i + 0.5 },
    label: `l${i}`,
  }));
  return JSON.stringify({ name: "big", rows });
}

describe("the dataset dry run runs off the event loop", () => {
  /**
   * Sends `raw` to `path` on a server whose domain says when the request reached it (its whole body
   * received: the work starts then), sends a small GET at that moment, and returns the big request's
   * answer and the order the two were answered in.
   */
  async function bigBesideSmall(
    method: "validateDataset" | "createDataset",
    path: string,
    raw: string,
  ): Promise<{ big: Exchange; order: string[] }> {
    let reached!: () => void;
    const atDomain = new Promise<void>((r) => (reached = r));
    const inner = platformDomain(live.platform);
    const domain: Domain = {
      ...inner,
      [method]: (p: Principal | null, body: Uint8Array) => {
        reached();
        return inner[method](p, body);
      },
    };
    const server = await serveApp({ domain, port: 0, host: "127.0.0.1" });
    servers.push(server);
    const { key } = await register(live.url, `big-${method}`);
    const order: string[] = [];
    const big = call(server.url, "POST", path, { key, raw }).then((r) => {
      order.push("big");
      return r;
    });
    await atDomain;
    const small = await call(server.url, "GET", "/api/v1/benchmarks");
    order.push("small");
    expect(small.status).toBe(200);
    return { big: await big, order };
  }

  it("while a large validate is being checked, a small GET is answered before it", async () => {
    const { big, order } = await bigBesideSmall("validateDataset", "/api/v1/datasets/validate", bigDataset());
    expect(big.status, big.text.slice(0, 300)).toBe(200);
    expect(big.json).toMatchObject({ ok: true, row_count: 100_000 });
    expect(order).toEqual(["small", "big"]);
  }, 120_000);

  it("while a large upload is being checked, a small GET is answered before it; the upload is stored", async () => {
    const raw = bigDataset();
    const { big, order } = await bigBesideSmall("createDataset", "/api/v1/datasets", raw);
    expect(big.status, big.text.slice(0, 300)).toBe(201);
    expect(big.json).toMatchObject({ row_count: 100_000 });
    expect(order).toEqual(["small", "big"]);
    // the same bytes again from the same account: the same dataset (idempotent), through the worker too
    const { key } = await register(live.url, "big-again");
    const mine = await call(live.url, "POST", "/api/v1/datasets", { key, raw });
    expect(mine.status, mine.text.slice(0, 300)).toBe(201);
    const again = await call(live.url, "POST", "/api/v1/datasets", { key, raw });
    expect(again.json.dataset_id).toBe(mine.json.dataset_id);
  }, 180_000);

  it("refuses through the worker as inline: invalid JSON, a wrong type, bad rows", async () => {
    const { key } = await register(live.url, "small-author");
    const v = (raw: string) => call(live.url, "POST", "/api/v1/datasets/validate", { key, raw });
    const badJson = await v('{"name": "x", "rows": [');
    expect(badJson.status).toBe(400);
    expect(badJson.json.error.code).toBe("invalid_json");
    const badType = await v('{"name": 5, "rows": []}');
    expect(badType.status).toBe(422);
    expect(badType.json.error).toMatchObject({ code: "invalid_request", details: { path: "$.name" } });
    const badRows = await v('{"name": "x", "rows": [{"payload": {}, "label": "a"}]}');
    expect(badRows.status).toBe(200);
    expect(badRows.json.ok).toBe(false);
    expect(badRows.json.errors[0]).toMatchObject({ row_index: 0 });
    const notJson = await call(live.url, "POST", "/api/v1/datasets/validate", {
      key,
      raw: "{}",
      headers: { "content-type": "text/plain" },
    });
    expect(notJson.status).toBe(415);
    const badUpload = await call(live.url, "POST", "/api/v1/datasets", {
      key,
      raw: '{"name": "x", "rows": [{"payload": {}, "label": "a"}]}',
    });
    expect(badUpload.status).toBe(422);
    expect(badUpload.json.error).toMatchObject({ code: "invalid_dataset" });
    expect(badUpload.json.error.message).toMatch(/row 0/);
  });

  // probe32 A-F6/A-F8: a json_fields gold's decimal (a JsonFloat) came back from the worker as a plain
  // {lexeme, value} object (structured clone keeps no class): graded 0 against the right answer, and the
  // award's rebuilt test set no longer matched the committed root
  it("a planning's gold keeps its exact numbers across the worker: decimals, exponents, -0.0, big integers", async () => {
    const checker = new DatasetChecker();
    try {
      const labels = ["2.5", "1.0", "2.50", "1e2", "-0.0", "12345678901234567890123", "3"];
      const job = {
        bodies: labels.map(
          (v, i) => `{"decision_ts":"2026-01-01T00:00:00Z","payload":{"q":"q${i}"},"label":{"v":${v}}}`,
        ),
        config: benchmarkConfig({
          title: "Decimals",
          prompt_template: "Value of {payload.q}?",
          grader_type: "json_fields",
          public_fraction: "0.5",
        }),
        salts: { seed: "s", content_hash: "0x" + "cd".repeat(32) },
      };
      const inWorker = await checker.plan(job, "acct-a");
      const inline = planPublication(job);
      expect(inWorker.plan.root).toBe(inline.plan.root);
      // the rows as the store keeps them and the award rebuilds them: the same canonical text
      expect(canonicalJsonString(inWorker.plan.rows as never)).toBe(
        canonicalJsonString(inline.plan.rows as never),
      );
      const golds = inWorker.plan.rows.map((r) => (r.gold as { fields: { v: unknown } }).fields.v);
      expect(golds.filter((v) => v instanceof JsonFloat)).toHaveLength(5);
      expect(golds.filter((v) => typeof v === "bigint")).toHaveLength(1);
    } finally {
      await checker.close();
    }
  });

  it("a publication's planning runs in the worker: the same plan as inline, refusals as PlatformError", async () => {
    const checker = new DatasetChecker();
    try {
      const rows = Array.from({ length: 300 }, (_, i) => ({
        decision_ts: "2026-01-01T00:00:00Z",
        payload: { city: `c${i}` },
        label: `l${i}`,
      }));
      const config = benchmarkConfig({
        title: "Plan",
        prompt_template: "Where is {payload.city}?",
        grader_type: "exact",
        public_fraction: "0.5",
      });
      const job = {
        bodies: rows.map((r) => JSON.stringify(r)),
        config,
        salts: { seed: "s", content_hash: "0x" + "ab".repeat(32) },
      };
      const inWorker = await checker.plan(job, "acct-a");
      const inline = planPublication(job);
      expect(inWorker).toEqual(inline);
      expect(inWorker.plan.leaf_count).toBe(300);
      expect(inWorker.plan.root).toMatch(/^0x[0-9a-f]{64}$/);
      // a row without a label: the platform's refusal, naming the row, as inline
      const bad = {
        ...job,
        bodies: [...job.bodies.slice(0, 299), JSON.stringify({ ...rows[299], label: null })],
      };
      const inlineErr = (() => {
        try {
          planPublication(bad);
        } catch (e) {
          return e;
        }
      })() as PlatformError;
      expect(inlineErr).toBeInstanceOf(PlatformError);
      const workerErr = (await checker.plan(bad, "acct-a").catch((e: unknown) => e)) as PlatformError;
      expect(workerErr).toBeInstanceOf(PlatformError);
      expect({ code: workerErr.code, message: workerErr.message, details: workerErr.details }).toEqual({
        code: inlineErr.code,
        message: inlineErr.message,
        details: inlineErr.details,
      });
    } finally {
      await checker.close();
    }
  }, 60_000);

  it("a publish over REST plans its test set in the dataset worker, in the author's turn", async () => {
    const plan = vi.spyOn(DatasetChecker.prototype, "plan");
    try {
      const { author, slug, detail } = await publishCities(live.url, 6, "worker-planned");
      expect(slug).toBeTruthy();
      expect(detail).toMatchObject({ leaf_count: 6 });
      expect(plan).toHaveBeenCalledTimes(1);
      expect(plan.mock.calls[0]![1]).toBe(author.account_id);
      expect((await plan.mock.results[0]!.value).plan.leaf_count).toBe(6);
    } finally {
      plan.mockRestore();
    }
  });

  it("a checker whose worker is closed refuses what is pending (server_busy, stopping: probe30 A-F10) and starts a new worker for the next", async () => {
    const checker = new DatasetChecker();
    const pending = checker.check(new TextEncoder().encode(bigDataset()));
    const waiting = checker.check(new TextEncoder().encode('{"name":"y","rows":[]}'), "another");
    const outcomes = Promise.allSettled([pending, waiting]);
    await checker.close();
    for (const r of await outcomes)
      expect(r).toMatchObject({
        status: "rejected",
        reason: {
          code: "server_busy",
          details: { stopping: true, retry_after_seconds: 5 },
          message: expect.stringContaining("this server is stopping"),
        },
      });
    const next = await checker.check(new TextEncoder().encode('{"name":"x","rows":[]}'));
    expect(next).toMatchObject({ ok: false });
    await checker.close();
  }, 60_000);

  it("a worker stopped while it hashes (close, stopBy) never aborts the process (probe31 A-F6)", async () => {
    // in a child process: before the fix, a worker terminated inside the native Keccak addon aborted
    // its whole process (FATAL ERROR: Error::Error napi_create_reference, SIGABRT)
    const run = await new Promise<{ code: number | null; signal: string | null; out: string; err: string }>(
      (resolve) => {
        const child = spawn(process.execPath, ["--import", "tsx", "test/fixtures/stop-while-hashing.ts"], {
          cwd: fileURLToPath(new URL("..", import.meta.url)),
          env: { ...process.env, ROUNDS: "12" },
        });
        let out = "";
        let err = "";
        child.stdout.on("data", (d: Buffer) => (out += d.toString()));
        child.stderr.on("data", (d: Buffer) => (err += d.toString()));
        child.on("exit", (code, signal) => resolve({ code, signal, out, err }));
      },
    );
    expect(run.err).not.toMatch(/FATAL/);
    expect({ code: run.code, signal: run.signal }, run.err.slice(0, 2000)).toEqual({ code: 0, signal: null });
    expect(run.out).toMatch(/stopped (\d+) jobs/);
    // the stops came while it planned (hashing), not after
    expect(Number(/stopped (\d+) jobs/.exec(run.out)![1])).toBeGreaterThanOrEqual(6);
  }, 180_000);

  it("a job still in the worker at its stopBy is stopped there; the next job gets a new worker (probe30 B-F5)", async () => {
    const checker = new DatasetChecker();
    try {
      // seconds of CPU, stopped at 300 ms; the job of another account waits behind it
      const bytes = new TextEncoder().encode(bigDataset());
      const t0 = Date.now();
      const big = checker.check(bytes, "acct-a", t0 + 600_000, t0 + 300);
      const next = checker.check(
        new TextEncoder().encode('{"name":"x","rows":[]}'),
        "acct-b",
        Date.now() + 600_000,
      );
      const e = (await big.catch((x: unknown) => x)) as EdgeError;
      expect(e).toMatchObject({ code: "server_busy", headers: { "retry-after": "5" } });
      expect(e.message).toMatch(/ran past its request's time limit and was stopped/);
      expect(await next).toMatchObject({ ok: false });
      // stopped at its stopBy, not when the check would have finished
      expect(Date.now() - t0).toBeLessThan(5_000);
      // a job that ends before its stopBy is answered as usual
      await expect(
        checker.check(
          new TextEncoder().encode('{"name":"x","rows":[]}'),
          "acct-a",
          undefined,
          Date.now() + 60_000,
        ),
      ).resolves.toMatchObject({ ok: false });
    } finally {
      await checker.close();
    }
  }, 60_000);

  it("over REST the dataset routes pass their request's time limit as the job's stopBy (probe30 B-F5)", async () => {
    const seen: Record<string, { answerBy?: number; stopBy?: number } | undefined> = {};
    const inner = platformDomain(live.platform);
    const domain: Domain = {
      ...inner,
      validateDataset: (p, body, opts) => ((seen.validate = opts), inner.validateDataset(p, body, opts)),
      createDataset: (p, body, opts) => ((seen.upload = opts), inner.createDataset(p, body, opts)),
      publish: (p, id, options, base, opts) => (
        (seen.publish = opts),
        inner.publish(p, id, options, base, opts)
      ),
    };
    const server = await serveApp({
      domain,
      port: 0,
      host: "127.0.0.1",
      limits: { handlerTimeoutMs: 10_000 },
    });
    servers.push(server);
    const { key } = await register(live.url, "stop-by");
    const raw = '{"name":"x","rows":[{"decision_ts":"2026-01-01T00:00:00Z","payload":{"c":1},"label":"a"}]}';
    expect((await call(server.url, "POST", "/api/v1/datasets/validate", { key, raw })).status).toBe(200);
    const up = await call(server.url, "POST", "/api/v1/datasets", { key, raw });
    expect(up.status, up.text).toBe(201);
    await call(server.url, "POST", `/api/v1/datasets/${up.json.dataset_id}/benchmark`, {
      key,
      body: { title: "t", prompt_template: "Q {payload.c}", grader_type: "exact" },
    });
    // revealBy is half the limit after the start, endsAt the whole limit: stopBy - answerBy = 5 s
    for (const route of ["validate", "upload", "publish"]) {
      const o = seen[route];
      expect(o?.stopBy, route).toBeTypeOf("number");
      expect(o!.stopBy! - o!.answerBy!, route).toBe(5_000);
    }
  }, 120_000);

  it("a job whose deadline passes while it waits for the worker is dropped, not run (probe17 A-F3)", async () => {
    const checker = new DatasetChecker();
    const empty = () => new TextEncoder().encode('{"name":"x","rows":[]}');
    try {
      // a large body holds the worker; the small jobs behind it wait
      const big = checker.check(new TextEncoder().encode(bigDataset()), "acct-a");
      const late = checker.check(empty(), "acct-b", Date.now() + 1);
      const lateUpload = checker.prepare(empty(), "acct-c", Date.now() + 1);
      const inTime = checker.check(empty(), "acct-d", Date.now() + 600_000);
      for (const dropped of [late, lateUpload]) {
        const e = (await dropped.catch((x: unknown) => x)) as EdgeError;
        // run, the check would answer a report and the upload refuse the empty rows (invalid_dataset)
        expect(e).toMatchObject({ code: "server_busy", headers: { "retry-after": "5" } });
        expect(e.message).toMatch(/not run/);
      }
      expect(await inTime).toMatchObject({ ok: false });
      expect(await big).toMatchObject({ ok: true });
      // a planning past its deadline is dropped too
      const job = {
        bodies: ['{"decision_ts":"2026-01-01T00:00:00Z","payload":{"c":"a"},"label":"x"}'],
        config: benchmarkConfig({ title: "t", prompt_template: "Q {payload.c}", grader_type: "exact" }),
        salts: { seed: "s", content_hash: "0x" + "ab".repeat(32) },
      };
      await expect(checker.plan(job, "acct-e", Date.now() - 1)).rejects.toMatchObject({
        code: "server_busy",
      });
    } finally {
      await checker.close();
    }
  }, 120_000);

  it("serves the accounts in turn: with account A's queue full, account B's job runs next (probe10 R14)", async () => {
    const checker = new DatasetChecker();
    const order: string[] = [];
    const body = (name: string) => new TextEncoder().encode(JSON.stringify({ name, rows: [] }));
    const jobs: Promise<unknown>[] = [];
    const queue = (account: string, name: string) =>
      jobs.push(checker.check(body(name), account).then(() => order.push(name)));
    for (const name of ["a1", "a2", "a3", "a4", "a5"]) queue("acct-a", name);
    queue("acct-b", "b1");
    queue("acct-b", "b2");
    await Promise.all(jobs);
    // a1 was in the worker when the others came; then the accounts take turns until B has none
    expect(order).toEqual(["a1", "b1", "a2", "b2", "a3", "a4", "a5"]);
    // an account served before, with nothing waiting, waits behind no one when it comes back
    const again: string[] = [];
    await Promise.all([
      checker.check(body("a6"), "acct-a").then(() => again.push("a6")),
      checker.check(body("a7"), "acct-a").then(() => again.push("a7")),
      checker.check(body("b3"), "acct-b").then(() => again.push("b3")),
    ]);
    expect(again).toEqual(["a6", "b3", "a7"]);
    await checker.close();
  }, 60_000);

  it("the smallest waiting body goes next: a small job queued after large ones of several accounts runs right after the current one (probe11 O6)", async () => {
    const checker = new DatasetChecker();
    const order: string[] = [];
    const body = (name: string, pad = 0) =>
      new TextEncoder().encode(JSON.stringify({ name, note: "p".repeat(pad), rows: [] }));
    const jobs: Promise<unknown>[] = [];
    // the padded bodies are refused (an unknown member): only the order matters here
    const done = (name: string) => () => order.push(name);
    const queue = (account: string, name: string, pad = 0) =>
      jobs.push(checker.check(body(name, pad), account).then(done(name), done(name)));
    queue("acct-0", "first", 200_000); // in the worker when the others come
    for (let i = 1; i <= 8; i++) queue(`acct-${i}`, `large${i}`, 200_000);
    queue("acct-small", "small");
    await Promise.all(jobs);
    expect(order.slice(0, 2)).toEqual(["first", "small"]);
    // equal sizes: the accounts in the order they came (none served yet)
    expect(order.slice(2)).toEqual([
      "large1",
      "large2",
      "large3",
      "large4",
      "large5",
      "large6",
      "large7",
      "large8",
    ]);
    await checker.close();
  }, 60_000);

  it(`a large body passed over ${MAX_PASSED} times goes next whatever comes after it`, async () => {
    const checker = new DatasetChecker();
    const order: string[] = [];
    const body = (name: string, pad = 0) =>
      new TextEncoder().encode(JSON.stringify({ name, note: "p".repeat(pad), rows: [] }));
    const jobs: Promise<unknown>[] = [];
    // the padded bodies are refused (an unknown member): only the order matters here
    const done = (name: string) => () => order.push(name);
    const queue = (account: string, name: string, pad = 0) =>
      jobs.push(checker.check(body(name, pad), account).then(done(name), done(name)));
    queue("acct-first", "first");
    queue("acct-large", "large", 100_000);
    for (let i = 0; i < MAX_PASSED + 10; i++) queue(`acct-s${i}`, `s${i}`);
    await Promise.all(jobs);
    expect(order.indexOf("large")).toBe(MAX_PASSED + 1);
    await checker.close();
  }, 60_000);
});
