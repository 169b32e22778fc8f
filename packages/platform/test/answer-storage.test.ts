/**
 * probeD1 F20: stored answers had no byte bound. One free account published 40 tasks with
 * `max_attempts: 1000` and stored 12 MB per run (answers of 100,000 characters, within the pack
 * allowance), up to 1,000 runs per agent. Publish now bounds what one agent may store on a benchmark:
 * `max_attempts x run tasks x max_answer_bytes <= ANSWER_BYTES_PER_AGENT` (the allowance is lowered
 * to fit, and a benchmark whose allowance would fall under MIN_ANSWER_BYTES is refused naming
 * max_attempts).
 */
import { afterEach, describe, expect, it } from "vitest";
import { ANSWER_BYTES_PER_AGENT, MAX_ANSWER_LENGTH, MIN_ANSWER_BYTES } from "../src/pack-budget.js";
import { cities, cleanup, openTemp, rejection } from "./helpers.js";

afterEach(cleanup);

const TEMPLATE = "What is the answer for {payload.city} #{payload.index}?";

describe("stored answer bytes of one agent on one benchmark (probeD1 F20)", () => {
  it("max_attempts 1000 over 40 tasks: max_answer_bytes is lowered so 1000 runs store at most the bound", async () => {
    const platform = await openTemp();
    try {
      const ds = await platform.createDataset(cities(40, "fill"));
      const { slug, config } = await platform.publish(ds.dataset_id, {
        title: "Fill",
        prompt_template: TEMPLATE,
        grader_type: "exact",
        max_attempts: 1000,
      });
      const tasks = 40; // public_tasks_per_run unset: every task is in every run
      expect(config.max_answer_bytes! * 1000 * tasks).toBeLessThanOrEqual(ANSWER_BYTES_PER_AGENT);
      expect(config.max_answer_bytes).toBeGreaterThanOrEqual(MIN_ANSWER_BYTES);
      expect((await platform.real.benchmarkDetail(slug)).max_answer_bytes).toBe(config.max_answer_bytes);
    } finally {
      await platform.close();
    }
  });

  it("the default 3 attempts over 40 tasks keep the whole character limit (6 bytes a character)", async () => {
    const platform = await openTemp();
    try {
      const ds = await platform.createDataset(cities(40, "small"));
      const { config } = await platform.publish(ds.dataset_id, {
        title: "Small",
        prompt_template: TEMPLATE,
        grader_type: "exact",
      });
      expect(config.max_answer_bytes).toBe(6 * MAX_ANSWER_LENGTH);
    } finally {
      await platform.close();
    }
  });

  it("an allowance that would fall under MIN_ANSWER_BYTES is refused at publish, naming max_attempts and the bound", async () => {
    const platform = await openTemp();
    try {
      const tasks = Math.floor(ANSWER_BYTES_PER_AGENT / (1000 * MIN_ANSWER_BYTES)) + 1;
      const ds = await platform.createDataset(cities(tasks, "too-many"));
      const e = await rejection(
        platform.publish(ds.dataset_id, {
          title: "Too many",
          prompt_template: TEMPLATE,
          grader_type: "exact",
          max_attempts: 1000,
        }),
      );
      expect(e.code).toBe("invalid_option");
      expect(e.details).toMatchObject({
        field: "max_attempts",
        limit: "answer_bytes_per_agent",
        answer_bytes_per_agent: ANSWER_BYTES_PER_AGENT,
        max_attempts: 1000,
        run_tasks: tasks,
        min_answer_bytes: MIN_ANSWER_BYTES,
      });
      expect(e.message).toMatch(/max_attempts/);
      expect(await platform.listBenchmarks()).toEqual([]);
    } finally {
      await platform.close();
    }
  });
});
