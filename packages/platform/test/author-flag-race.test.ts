/**
 * probe12 P1, the race left open: `is_author_agent` may change only before the agent's first run, and a
 * run of an agent that can win needs a withdrawal address. On PostgreSQL a flip back to a competitor
 * and a first run start in two processes could both pass (each checked before the other's write
 * committed), leaving an address-less competitor ranked, which blocks the whole award. Both now take
 * the agent's row lock and check under it. SQLite runs one write transaction at a time: no race there.
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

    it("a flip to competitor and a first run of an address-less author agent never both succeed", async () => {
      const dc = devChain();
      const target = await freshPostgresTarget();
      const h = await openTemp({ clock: manualClock().now, chain: chainConfig(dc, 0), database: target });
      const p = h.real;
      const holder = new pg.Client({ connectionString: target.url });
      await holder.connect();
      try {
        const author = await p.authenticate((await p.createAccount({ name: "author" })).api_key);
        const bob = await p.authenticate((await p.createAccount({ name: "bob" })).api_key);
        const ds = await p.createDataset(author, cities(4));
        const { slug } = await p.publish(author, ds.dataset_id, {
          ...CITIES_PUBLISH,
          public_fraction: "0.5",
        });
        // an author agent: it starts without a withdrawal address (it takes no money)
        await p.registerAgent(bob, "g", { is_author_agent: true });

        // another process holds the agent's row while both requests arrive, then lets them race
        await holder.query(`SET search_path TO ${target.schema}`);
        await holder.query("BEGIN");
        await holder.query("SELECT agent_id FROM agents WHERE agent_id = 'g' FOR UPDATE");
        const flip = p.registerAgent(bob, "g", { is_author_agent: false });
        const start = p.startRun(bob, slug, "g");
        const settled = Promise.allSettled([flip, start]);
        try {
          await waitForLockWaiters(holder, 2);
        } finally {
          await holder.query("COMMIT");
        }
        const [flipped, started] = await settled;

        const agent = (await p.getAgent("g"))!;
        const runs = (await p.myRuns(bob)).runs.filter((r) => r.agent_id === "g");
        // exactly one wins, and the state is one the rules allow
        expect([flipped.status, started.status].sort()).toEqual(["fulfilled", "rejected"]);
        if (flipped.status === "fulfilled") {
          expect(started).toMatchObject({ reason: { code: "withdrawal_address_required" } });
          expect({ is_author_agent: agent.is_author_agent, runs: runs.length }).toEqual({
            is_author_agent: false,
            runs: 0,
          });
        } else {
          expect(flipped).toMatchObject({ reason: { code: "is_author_agent_locked" } });
          expect({ is_author_agent: agent.is_author_agent, runs: runs.length }).toEqual({
            is_author_agent: true,
            runs: 1,
          });
        }
      } finally {
        await holder.end();
        await h.close();
      }
    });
  },
);
