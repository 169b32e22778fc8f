/**
 * SPEC 6: with `cost_budget_usdc` null, `cost_weight` is taken as 0 before the `sw + cw <= 1` check.
 * Publish and the verifier's composite check (evidence's `recomputeRowComposite`, run on every row
 * of a pack's rank derivation) must agree on `speed_weight: "0.9"`, `cost_weight: "0.2"` without a
 * budget (probeD1 note): publish accepts it and serves both as configured, and the final board's rows
 * (the rank derivation's input) recompute to the same composites, no `malformed`.
 */
import { composite, recomputeRowComposite } from "@bench-bounty/evidence";
import { afterEach, describe, expect, it } from "vitest";
import { cities, cleanup, manualClock, openTemp, promptAgent, rejection } from "./helpers.js";

afterEach(cleanup);

const TEMPLATE = "What is the answer for {payload.city} #{payload.index}?";

describe("speed_weight 0.9 + cost_weight 0.2 with no cost budget (SPEC 6)", () => {
  it("publish accepts it, and the board's composites are what the verifier recomputes", async () => {
    const clock = manualClock();
    const platform = await openTemp({ clock: clock.now });
    try {
      const ds = await platform.createDataset(cities(4, "weights"));
      const { slug, config } = await platform.publish(ds.dataset_id, {
        title: "Weights",
        prompt_template: TEMPLATE,
        grader_type: "exact",
        time_budget_seconds: 100,
        speed_weight: "0.9",
        cost_weight: "0.2",
      });
      expect(config).toMatchObject({ speed_weight: "0.9", cost_weight: "0.2", cost_budget_usdc: null });
      const run = await platform.startRun(slug, "alice");
      const tasks = await platform.runTasks(run.run.id);
      await platform.submit(
        run.run.id,
        tasks.map((t) => ({ ordinal: t.ordinal, answer_text: promptAgent(t.prompt) })),
      );
      await platform.finalize(run.run.id);
      await platform.closeBenchmark(slug);
      const board = await platform.leaderboard(slug);
      if (board.board !== "final") throw new Error(`expected the final board, got ${board.board}`);
      expect(board.rows.length).toBe(1);
      const scoring = {
        speed_weight: config.speed_weight,
        cost_weight: config.cost_weight,
        time_budget_seconds: config.time_budget_seconds,
        cost_budget_usdc: config.cost_budget_usdc,
      };
      for (const row of board.rows) {
        const again = recomputeRowComposite(row, scoring);
        expect(again.problem).toBeNull();
        expect(again.score_composite).toBe(row.score_composite);
      }
    } finally {
      await platform.close();
    }
  });

  it("with a cost budget the same weights are malformed: publish refuses them, as the composite does", async () => {
    const platform = await openTemp();
    try {
      const weights = { speed_weight: "0.9", cost_weight: "0.2", cost_budget_usdc: "1.000000" };
      expect(() =>
        composite({
          rank_accuracy: "1.0000",
          wall_seconds: "0.000",
          usdc_spent: "0.000000",
          time_budget_seconds: 100,
          ...weights,
        }),
      ).toThrow(/speed_weight \+ cost_weight must be <= 1/);
      const ds = await platform.createDataset(cities(4, "weights-budget"));
      const e = await rejection(
        platform.publish(ds.dataset_id, {
          title: "Weights",
          prompt_template: TEMPLATE,
          grader_type: "exact",
          ...weights,
        }),
      );
      expect(e.code).toBe("invalid_option");
      expect(e.message).toMatch(/speed_weight \+ cost_weight must be <= 1/);
    } finally {
      await platform.close();
    }
  });
});
