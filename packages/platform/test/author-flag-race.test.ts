/**
 * probe12 P1, the race left open: `is_author_agent` may change only before the agent's first run, and a
 * run of an agent that can win needs a withdrawal address. On PostgreSQL a flip back to a competitor
 * and a first run start in two processes could both pass (each checked before the other's write
 * committed), leaving an address-less competitor ranked, which blocks the whole award. Both now take
 * the agent's row lock and check under it. SQLite runs one write transaction at a time: no race there.
 * Since probe29 A-F2 an author agent is one of the benchmark's author (`isAuthorAgent`): the author's
 * own agent starts without an address whatever its flag, so the race is run on it and the flag is still
 * fixed under the lock once the agent has a run (a stranger's flagged agent needs an address anyway).
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import {
  CITIES_PUBLISH,
  chainConfig,
  cities,
  freshPostgresTarget,
  manualClock,
  openTemp,
  TEST_ENGINE,
  waitForLockWaiters,
  useDevChain,
} from "./helpers.js";

describe.runIf(TEST_ENGINE === "postgres")(
  "is_author_agent against a concurrent first run (PostgreSQL)",
  () => {
    const devChain = useDevChain();

    it("a flip of the author agent's flag and its first run take turns on its row: the flip is never written after the run", async () => {
      const dc = devChain();
      const target = await freshPostgresTarget();
      const h = await openTemp({ clock: manualClock().now, chain: chainConfig(dc, 0), database: target });
      const p = h.real;
      const holder = new pg.Client({ connectionString: target.url });
      await holder.connect();
      try {
        const author = await p.authenticate((await p.createAccount({ name: "author" })).api_key);
        const ds = await p.createDataset(author, cities(4));
        const { slug } = await p.publish(author, ds.dataset_id, {
          ...CITIES_PUBLISH,
          public_fraction: "0.5",
        });
        // an author agent: it starts without a withdrawal address (it takes no money)
        await p.registerAgent(author, "g", { is_author_agent: true });

        // another process holds the agent's row while both requests arrive, then lets them race
        await holder.query(`SET search_path TO ${target.schema}`);
        await holder.query("BEGIN");
        await holder.query("SELECT agent_id FROM agents WHERE agent_id = 'g' FOR UPDATE");
        const flip = p.registerAgent(author, "g", { is_author_agent: false });
        const start = p.startRun(author, slug, "g");
        const settled = Promise.allSettled([flip, start]);
        try {
          await waitForLockWaiters(holder, 2);
        } finally {
          await holder.query("COMMIT");
        }
        const [flipped, started] = await settled;

        const agent = (await p.getAgent("g"))!;
        const runs = (await p.myRuns(author)).runs.filter((r) => r.agent_id === "g");
        // the author's agent starts whatever its flag (an author agent: no address needed); the flip
        // either committed before the run or is refused under the lock, never written after it
        expect(started.status).toBe("fulfilled");
        expect(runs.length).toBe(1);
        if (flipped.status === "fulfilled") expect(agent.is_author_agent).toBe(false);
        else {
          expect(flipped).toMatchObject({ reason: { code: "is_author_agent_locked" } });
          expect(agent.is_author_agent).toBe(true);
        }
      } finally {
        await holder.end();
        await h.close();
      }
    });
  },
);
