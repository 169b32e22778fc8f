/**
 * probe29 A-F9: a run id was `run-` + keccak256(slug \n agent \n attempt)[0..16 hex], computable by
 * anyone from public names; `getRun` of another account's run answers `forbidden` (`run_owner_only`)
 * and of no run `unknown_run`, so a stranger learned which agents competed on a `buyer_only` benchmark
 * and how many attempts each used. The id is now keyed with the store's secret (`meta.dataset_id_key`,
 * never served): nobody without the store can compute it.
 */
import { keccak256Hex } from "@bench-bounty/evidence";
import { afterEach, describe, expect, it } from "vitest";
import { RUN_ID_PATTERN } from "../src/runs/plan.js";
import { cities, cleanup, CITIES_PUBLISH, openTemp, rejection } from "./helpers.js";

afterEach(cleanup);

/** The old, unkeyed formula: what a stranger computes from the slug, the agent id and the attempt. */
const unkeyed = (slug: string, agent: string, attempt: number) =>
  `run-${keccak256Hex(`bench-bounty.run:${slug}\n${agent}\n${attempt}`).slice(2, 18)}`;

describe("run ids cannot be computed from public names (probe29 A-F9)", () => {
  it("is not the hash of slug, agent and attempt; two stores give the same attempt different ids", async () => {
    const ids: string[] = [];
    for (const store of [0, 1]) {
      const h = await openTemp({});
      const ds = await h.createDataset(cities(4, "runid"));
      const { slug } = await h.publish(ds.dataset_id, {
        ...CITIES_PUBLISH,
        slug: "runid",
        leaderboard_visibility: "buyer_only",
        max_attempts: 2,
      });
      const p = h.real;
      const comp = await p.authenticate((await p.createAccount({ name: `comp${store}` })).api_key);
      const stranger = await p.authenticate((await p.createAccount({ name: `str${store}` })).api_key);
      const first = await p.startRun(comp, slug, "comp29");
      expect(first.run.id).toMatch(RUN_ID_PATTERN);
      expect(first.run.id).not.toBe(unkeyed(slug, "comp29", 1));
      // the stranger's computed id of the attempt that exists answers as one that does not
      for (const guess of [unkeyed(slug, "comp29", 1), unkeyed(slug, "comp29", 2)])
        expect((await rejection(p.getRun(stranger, guess))).code).toBe("unknown_run");
      await p.finalize(comp, first.run.id);
      const second = await p.startRun(comp, slug, "comp29");
      expect(second.run.id).toMatch(RUN_ID_PATTERN);
      expect(second.run.id).not.toBe(unkeyed(slug, "comp29", 2));
      expect(second.run.id).not.toBe(first.run.id);
      // the owner reads both by the stored ids
      expect((await p.getRun(comp, first.run.id)).run_id).toBe(first.run.id);
      expect((await p.getRun(comp, second.run.id)).attempt).toBe(2);
      ids.push(first.run.id);
    }
    expect(ids[1]).not.toBe(ids[0]);
  });
});
