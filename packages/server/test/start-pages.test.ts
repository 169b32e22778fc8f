/**
 * probe28 A-F5: a run start answered every task of the benchmark in one answer (100 MB for a 100 MB test
 * set, the event loop held ~2 s), and an MCP batch of run starts answered each whole (5 starts, 50 MB in
 * one answer). A tasks answer (the start's, `GET /runs/:id/tasks`, MCP `benchmark_run_tasks`) now holds
 * at most `RUN_TASKS_PAGE_BYTES` of tasks, `next_offset` naming the next page; and a write's answer
 * that spends an MCP request's answer budget stops the calls after it. Bytes are counted, not time.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BenchBountyClient } from "@bench-bounty/client";
import { MAX_DATASET_ROWS } from "@bench-bounty/platform";
import { afterEach, describe, expect, it } from "vitest";
import { RUN_TASKS_PAGE_BYTES } from "../src/domain.js";
import { call, CITIES_PUBLISH, postMcpText, register, startLive, type Live } from "./helpers.js";

const lives: Live[] = [];
afterEach(async () => {
  await Promise.all(lives.splice(0).map((l) => l.stop()));
});

/** Tasks in the large benchmark; each prompt ~4 KB, so its tasks take ~6 MB, past one page. */
const ROWS = 1500;

/** A benchmark whose tasks take more than one page: its prompt repeats a 400-character field 10 times. */
async function publishLarge(base: string): Promise<string> {
  const author = await register(base, "author-large");
  const rows = Array.from({ length: ROWS }, (_, i) => ({
    decision_ts: `2026-01-${String((i % 28) + 1).padStart(2, "0")}T00:00:00Z`,
    payload: { city: `${"c".repeat(400)}${i}`, index: i },
    label: `answer-${i}`,
  }));
  const ds = await call(base, "POST", "/api/v1/datasets", { key: author.key, body: { name: "large", rows } });
  expect(ds.status, ds.text).toBe(201);
  const b = await call(base, "POST", `/api/v1/datasets/${ds.json.dataset_id}/benchmark`, {
    key: author.key,
    body: {
      ...CITIES_PUBLISH,
      title: "Large",
      prompt_template: `${"{payload.city} ".repeat(10)}#{payload.index}`,
    },
  });
  expect(b.status, b.text).toBe(201);
  return b.json.slug as string;
}

type Task = { ordinal: number; prompt: string };

/** Every ordinal 0 .. n-1 once, in order. */
function expectEveryTask(tasks: Task[], n: number): void {
  expect(tasks.map((t) => t.ordinal)).toEqual(Array.from({ length: n }, (_, i) => i));
  for (const t of tasks) expect(t.prompt.length).toBeGreaterThan(4000);
}

describe("a run's tasks are served a page at a time (probe28 A-F5)", () => {
  it("REST: the start answers within the page bound, and GET /runs/:id/tasks?offset= serves every task", async () => {
    const l = await startLive();
    lives.push(l);
    const slug = await publishLarge(l.url);
    const me = await register(l.url, "large-competitor");
    const started = await call(l.url, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: me.key });
    expect(started.status).toBe(201);
    expect(Buffer.byteLength(started.text)).toBeLessThanOrEqual(RUN_TASKS_PAGE_BYTES + 4096);
    expect(started.json.task_count).toBe(ROWS);
    const tasks: Task[] = [...started.json.tasks];
    let next: number | null = started.json.next_offset;
    expect(next).toBe(tasks.length);
    const runId = started.json.run.id as string;
    let pages = 1;
    while (next !== null) {
      const page = await call(l.url, "GET", `/api/v1/benchmarks/runs/${runId}/tasks?offset=${next}`, {
        key: me.key,
      });
      expect(page.status).toBe(200);
      expect(Buffer.byteLength(page.text)).toBeLessThanOrEqual(RUN_TASKS_PAGE_BYTES + 4096);
      expect(page.json).toMatchObject({
        run_id: runId,
        offset: next,
        task_count: ROWS,
        answered_ordinals: [],
      });
      tasks.push(...page.json.tasks);
      next = page.json.next_offset;
      pages++;
    }
    expect(pages).toBeGreaterThan(1);
    expectEveryTask(tasks, ROWS);
    // the first page read again is the start's; an offset past the end is an empty last page
    const first = await call(l.url, "GET", `/api/v1/benchmarks/runs/${runId}/tasks`, { key: me.key });
    expect(first.json.tasks).toEqual(started.json.tasks);
    const past = await call(l.url, "GET", `/api/v1/benchmarks/runs/${runId}/tasks?offset=${ROWS + 5}`, {
      key: me.key,
    });
    expect(past.json).toMatchObject({ tasks: [], next_offset: null, task_count: ROWS });
    const bad = await call(l.url, "GET", `/api/v1/benchmarks/runs/${runId}/tasks?offset=-1`, { key: me.key });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: "invalid_query", details: { parameter: "offset" } });
  });

  it("MCP: a batch of 3 starts runs one (its page sent whole), the rest refused unrun; benchmark_run_tasks serves every task", async () => {
    const l = await startLive();
    lives.push(l);
    const slug = await publishLarge(l.url);
    const me = await register(l.url, "large-mcp");
    for (const agent_id of ["m2", "m3"]) {
      const r = await call(l.url, "POST", "/api/v1/accounts/me/agents", { key: me.key, body: { agent_id } });
      expect(r.status, r.text).toBe(201);
    }
    const batch = [me.agent_id, "m2", "m3"].map((agent_id, i) => ({
      jsonrpc: "2.0",
      id: i + 1,
      method: "tools/call",
      params: { name: "benchmark_start_run", arguments: { slug, agent_id } },
    }));
    const answer = await postMcpText(l.url, JSON.stringify(batch), me.key);
    expect(answer.status).toBe(200);
    // one page of tasks and two limit errors: bounded by the page, not by the batch's starts
    expect(Buffer.byteLength(answer.text)).toBeLessThanOrEqual(RUN_TASKS_PAGE_BYTES + 8192);
    const messages = JSON.parse(answer.text) as { id: number; result?: any; error?: any }[];
    expect(messages.map((m) => m.id)).toEqual([1, 2, 3]);
    const started = messages[0]!.result.structuredContent ?? JSON.parse(messages[0]!.result.content[0].text);
    expect(started.task_count).toBe(ROWS);
    for (const m of messages.slice(1))
      expect(m.error).toMatchObject({ code: -32000, data: { limit: "mcp_answer_bytes" } });
    const mine = await call(l.url, "GET", "/api/v1/benchmarks/runs/mine", { key: me.key });
    expect(mine.json.runs).toHaveLength(1); // the refused starts never ran
    const tasks: Task[] = [...started.tasks];
    let next: number | null = started.next_offset;
    while (next !== null) {
      const page = await postMcpText(
        l.url,
        JSON.stringify({
          jsonrpc: "2.0",
          id: 9,
          method: "tools/call",
          params: { name: "benchmark_run_tasks", arguments: { run_id: started.run.id, offset: next } },
        }),
        me.key,
      );
      expect(page.status).toBe(200);
      expect(Buffer.byteLength(page.text)).toBeLessThanOrEqual(2 * RUN_TASKS_PAGE_BYTES);
      const result = JSON.parse(page.text).result;
      const v = result.structuredContent ?? JSON.parse(result.content[0].text);
      tasks.push(...v.tasks);
      next = v.next_offset;
    }
    expectEveryTask(tasks, ROWS);
  });

  it("the typed client (restOfTasks) and the remote runner's backend (start, tasks) read every task", async () => {
    const l = await startLive();
    lives.push(l);
    const slug = await publishLarge(l.url);
    const me = await register(l.url, "large-client");
    const client = new BenchBountyClient({ baseUrl: l.url, apiKey: me.key });
    const started = await client.startRun(slug);
    expect(typeof started.next_offset).toBe("number");
    expectEveryTask(
      [
        ...started.tasks,
        ...(await client.restOfTasks(started.run.id, started.next_offset!, { maxTasks: MAX_DATASET_ROWS })),
      ],
      ROWS,
    );
    const cli = new URL("../../cli/dist/remote.js", import.meta.url).href;
    // the cli's backend of `bench-bounty run --server` (built; the server does not depend on the cli)
    const { HttpRunBackend } = (await import(cli)) as {
      HttpRunBackend: new (
        server: string,
        key: string,
        dir: string,
        privatePaths: string[],
      ) => {
        tasks(runId: string): Promise<Task[]>;
        start(slug: string, agentId: string): Promise<{ tasks: Task[] }>;
      };
    };
    const backend = new HttpRunBackend(l.url, me.key, mkdtempSync(join(tmpdir(), "bb-pages-")), []);
    expectEveryTask(await backend.tasks(started.run.id), ROWS);
    const agent = await call(l.url, "POST", "/api/v1/accounts/me/agents", {
      key: me.key,
      body: { agent_id: "c2" },
    });
    expect(agent.status, agent.text).toBe(201);
    expectEveryTask((await backend.start(slug, "c2")).tasks, ROWS);
  });
});
