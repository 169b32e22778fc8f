/**
 * probe19 A-F3: on PostgreSQL a write waiting on a row lock another session held (a second `serve`, a
 * long transaction) waited for the whole request limit, was answered 503 `request_timeout`, and was
 * committed once the lock was freed: finalize, submit, withdrawal address, new agent, run start, dataset
 * deletion. Now every write of a request bounds its lock waits by the request's deadline for waits (half
 * its limit, `AppEnv.revealBy`; platform `WriteHow`): past it 503 `server_busy`, Retry-After 5, and
 * nothing written, over REST and MCP alike.
 */
import pg from "pg";
import { testDatabaseUrl, TEST_ENGINE, waitForLockWaiters } from "@bench-bounty/platform/testing";
import { describe, expect, it } from "vitest";
import {
  call,
  citiesDataset,
  CITIES_PUBLISH,
  postToolCall,
  register,
  useLive,
  type Exchange,
} from "./helpers.js";

const ADDRESS = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";

/** Waits until no other session of the database runs a statement (the refused writes are all over). */
async function quiet(c: pg.Client): Promise<void> {
  for (let i = 0; i < 200; i++) {
    await c.query("SELECT pg_stat_clear_snapshot()");
    const r = await c.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND datname = current_database()",
    );
    if (Number(r.rows[0]!.n) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("sessions still active after 10 s");
}

function expectBusy(label: string, r: Exchange): void {
  expect({ label, status: r.status, code: r.json?.error?.code }, r.text).toEqual({
    label,
    status: 503,
    code: "server_busy",
  });
  expect(r.headers.get("retry-after")).toBe("5");
}

describe.skipIf(TEST_ENGINE !== "postgres")(
  "a write's lock waits end by the request's deadline (probe19 A-F3)",
  () => {
    // waits end at half the limit (2 s): a 503 request_timeout would come at 4 s
    const live = useLive({ limits: { handlerTimeoutMs: 4_000 } });

    it("rows held by another session: finalize, submit, start, address, agent, deletion, registration and MCP tools are 503 server_busy, nothing written", async () => {
      const base = live.url;
      // set up in-process (the dataset worker's first start may take longer than this short limit)
      const me = await register(base, "held");
      const p = await live.platform.authenticate(me.key);
      const ds = await live.platform.createDataset(p, citiesDataset(4, "held"));
      const { slug } = await live.platform.publish(p, ds.dataset_id, CITIES_PUBLISH as never);
      const start = await call(base, "POST", `/api/v1/benchmarks/${slug}/runs`, { key: me.key, body: {} });
      expect(start.status, start.text).toBe(201);
      const runId = start.json.run.id as string;
      const spareId = (await live.platform.createDataset(p, citiesDataset(3, "spare"))).dataset_id;
      const ordinal = start.json.tasks[0].ordinal as number;

      const holder = new pg.Client({ connectionString: testDatabaseUrl() });
      await holder.connect();
      try {
        await holder.query(`SET search_path TO ${live.schema}`);
        await holder.query("BEGIN");
        await holder.query("SELECT 1 FROM accounts WHERE account_id = $1 FOR UPDATE", [me.account_id]);
        await holder.query("SELECT 1 FROM agents WHERE owner_account_id = $1 FOR UPDATE", [me.account_id]);
        await holder.query("SELECT 1 FROM datasets WHERE dataset_id = $1 FOR UPDATE", [spareId]);
        await holder.query("SELECT 1 FROM runs WHERE run_id = $1 FOR UPDATE", [runId]);
        await holder.query("SELECT 1 FROM benchmarks WHERE slug = $1 FOR UPDATE", [slug]);
        // a registration of "newcomer" waits on its name's lock (`AccountsTable.lockName`)
        await holder.query("SELECT pg_advisory_xact_lock(hashtextextended('name:newcomer', 0))");
        const k = { key: me.key };
        const [finalize, submit, again, address, agent, deletion, registration, mcpAddress, mcpSubmit] =
          await Promise.all([
            call(base, "POST", `/api/v1/benchmarks/runs/${runId}/finalize`, k),
            call(base, "POST", `/api/v1/benchmarks/runs/${runId}/submissions`, {
              ...k,
              body: { answers: [{ ordinal, answer_text: "x" }] },
            }),
            call(base, "POST", `/api/v1/benchmarks/${slug}/runs`, { ...k, body: { agent_id: "second" } }),
            call(base, "PUT", "/api/v1/accounts/me/withdrawal-address", {
              ...k,
              body: { withdrawal_address: ADDRESS },
            }),
            call(base, "POST", "/api/v1/accounts/me/agents", { ...k, body: { agent_id: "third" } }),
            call(base, "DELETE", `/api/v1/datasets/${spareId}`, k),
            call(base, "POST", "/api/v1/accounts", { body: { name: "newcomer" } }),
            postToolCall(base, "set_withdrawal_address", { withdrawal_address: ADDRESS }, me.key),
            postToolCall(
              base,
              "benchmark_submit_answers",
              { run_id: runId, answers: [{ ordinal, answer_text: "y" }] },
              me.key,
            ),
          ]);
        expectBusy("finalize", finalize);
        expectBusy("submit", submit);
        expectBusy("start", again);
        expectBusy("address", address);
        expectBusy("agent", agent);
        expectBusy("deletion", deletion);
        expectBusy("registration", registration);
        for (const [label, r] of [
          ["mcp address", mcpAddress],
          ["mcp submit", mcpSubmit],
        ] as const) {
          expect(r.status, label).toBe(200);
          expect(r.body.result?.isError, label).toBe(true);
          expect(r.body.result?.structuredContent?.error?.code, JSON.stringify(r.body)).toBe("server_busy");
        }
      } finally {
        await holder.query("ROLLBACK");
        await quiet(holder);
        await holder.end();
      }

      // nothing was written, even after the locks were freed
      const run = await call(base, "GET", `/api/v1/benchmarks/runs/${runId}`, { key: me.key });
      expect(run.json.status, run.text).toBe("in_progress");
      const tasks = await call(base, "GET", `/api/v1/benchmarks/runs/${runId}/tasks`, { key: me.key });
      expect(tasks.json.answered_ordinals, tasks.text).toEqual([]);
      const account = await call(base, "GET", "/api/v1/accounts/me", { key: me.key });
      expect(account.json.withdrawal_address).toBeNull();
      expect(account.json.agents.map((a: { agent_id: string }) => a.agent_id)).toEqual([me.agent_id]);
      const mine = await call(base, "GET", "/api/v1/datasets/mine", { key: me.key });
      expect(mine.json.datasets.map((d: { dataset_id: string }) => d.dataset_id)).toContain(spareId);
      const runs = await call(base, "GET", "/api/v1/benchmarks/runs/mine", { key: me.key });
      expect(runs.json.runs.map((r: { run_id: string }) => r.run_id)).toEqual([runId]);
      expect((await call(base, "POST", "/api/v1/accounts", { body: { name: "newcomer" } })).status).toBe(201);

      // the locks free, the same writes pass
      const address = await call(base, "PUT", "/api/v1/accounts/me/withdrawal-address", {
        key: me.key,
        body: { withdrawal_address: ADDRESS },
      });
      expect(address.json.withdrawal_address, address.text).toBe(ADDRESS);
      const fin = await call(base, "POST", `/api/v1/benchmarks/runs/${runId}/finalize`, { key: me.key });
      expect(fin.status, fin.text).toBe(200);
      expect((await call(base, "DELETE", `/api/v1/datasets/${spareId}`, { key: me.key })).status).toBe(200);
    });
  },
);

/** A session of the store's schema holding the rows `lock` locks, in a transaction, until it rolls back. */
async function holdRows(schema: string, lock: string, params: unknown[]): Promise<pg.Client> {
  const holder = new pg.Client({ connectionString: testDatabaseUrl() });
  await holder.connect();
  await holder.query(`SET search_path TO ${schema}`);
  await holder.query("BEGIN");
  await holder.query(lock, params);
  return holder;
}

describe.skipIf(TEST_ENGINE !== "postgres")(
  "the lock waits of one write end by the request's deadline in total (probe21 A-F5)",
  () => {
    // waits end at half the limit (4 s); each row is held 3 s longer than the one before
    const live = useLive({ limits: { handlerTimeoutMs: 8_000 } });

    it("three agent rows released in turn, each wait shorter than the deadline: 503 server_busy, nothing written after the rows go", async () => {
      const base = live.url;
      const me = await register(base, "staggered");
      for (const agent_id of ["staggeredx1", "staggeredx2"]) {
        const r = await call(base, "POST", "/api/v1/accounts/me/agents", { key: me.key, body: { agent_id } });
        expect(r.status, r.text).toBe(201);
      }
      // the address is written agent by agent in agent_id order: each row is held by its own session
      const ids = [me.agent_id, "staggeredx1", "staggeredx2"];
      const holders = await Promise.all(
        ids.map((id) => holdRows(live.schema!, "SELECT 1 FROM agents WHERE agent_id = $1 FOR UPDATE", [id])),
      );
      const sent = Date.now();
      const released = holders.map(
        (h, i) =>
          new Promise<void>((resolve, reject) =>
            setTimeout(
              () => h.query("ROLLBACK").then(() => resolve(), reject),
              sent + 3_000 * (i + 1) - Date.now(),
            ),
          ),
      );
      try {
        const address = await call(base, "PUT", "/api/v1/accounts/me/withdrawal-address", {
          key: me.key,
          body: { withdrawal_address: ADDRESS },
        });
        expectBusy("address", address);
        await Promise.all(released);
        await quiet(holders[0]!);
      } finally {
        await Promise.allSettled(released);
        await Promise.all(holders.map((h) => h.end()));
      }
      const account = await call(base, "GET", "/api/v1/accounts/me", { key: me.key });
      expect(
        account.json.agents.map((a: { agent_id: string; withdrawal_address: string | null }) => [
          a.agent_id,
          a.withdrawal_address,
        ]),
      ).toEqual(ids.map((id) => [id, null]));
    });
  },
);

describe.skipIf(TEST_ENGINE !== "postgres")(
  "writes parked on a held lock leave the pool to others (probe21 A-F7)",
  () => {
    // serve's pool (10 connections); the parked writes end at half the limit (5 s)
    const live = useLive({ limits: { handlerTimeoutMs: 10_000 }, poolSize: 10 });

    it("12 writes of one account wait on its held rows: an anonymous read, a registration and another account's write answer before any of them", async () => {
      const base = live.url;
      const parked = await register(base, "parked");
      const other = await register(base, "bystander");
      const holder = await holdRows(
        live.schema!,
        "SELECT 1 FROM agents WHERE owner_account_id = $1 FOR UPDATE",
        [parked.account_id],
      );
      const order: string[] = [];
      const seen = (label: string) => (r: Exchange) => {
        order.push(label);
        return r;
      };
      try {
        const writes = Array.from({ length: 12 }, () =>
          call(base, "PUT", "/api/v1/accounts/me/withdrawal-address", {
            key: parked.key,
            body: { withdrawal_address: ADDRESS },
          }).then(seen("parked write")),
        );
        await waitForLockWaiters(holder, 1);
        // the other writes reach the pool meanwhile (each took a connection of its own before the fix)
        await new Promise((resolve) => setTimeout(resolve, 500));
        const [read, registration, write] = await Promise.all([
          call(base, "GET", "/api/v1/benchmarks?limit=1").then(seen("read")),
          call(base, "POST", "/api/v1/accounts", { body: {} }).then(seen("registration")),
          call(base, "PUT", "/api/v1/accounts/me/withdrawal-address", {
            key: other.key,
            body: { withdrawal_address: ADDRESS },
          }).then(seen("other write")),
        ]);
        expect(read.status, read.text).toBe(200);
        expect(registration.status, registration.text).toBe(201);
        expect(write.status, write.text).toBe(200);
        expect(order).not.toContain("parked write");
        for (const r of await Promise.all(writes)) expectBusy("parked write", r);
      } finally {
        await holder.query("ROLLBACK");
        await quiet(holder);
        await holder.end();
      }
      const account = await call(base, "GET", "/api/v1/accounts/me", { key: parked.key });
      expect(account.json.withdrawal_address).toBeNull();
    });
  },
);
