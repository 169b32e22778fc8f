/** Phase 2: publish the benchmark from the Seattle weather dataset and anchor its commitment. */
import { REPO_ROOT } from "@bench-bounty/devchain";
import { loadCsvDataset } from "@bench-bounty/platform";
import { relative } from "node:path";
import type { DemoPhase } from "../context.js";
import { need } from "../context.js";
import { PROMPT_TEMPLATE, sampleBySeed, seattleWeatherCsvPath } from "../dataset.js";
import { short } from "../table.js";

/** publish benchmark and anchor its commitment. */
export const publishPhase: DemoPhase = {
  name: "publish benchmark and anchor its commitment",
  async run(ctx, p) {
    const { options, result } = ctx;
    const pf = need(ctx.platform, "the platform");
    const csv = seattleWeatherCsvPath();
    p.note(`dataset    ${relative(REPO_ROOT, csv)}`);
    const all = await loadCsvDataset(
      csv,
      {
        decision_ts: "date",
        label: "weather",
        payload: ["date", "precipitation", "temp_max", "temp_min", "wind"],
      },
      {
        name: `seattle-weather-${options.size}-s${options.seed}`,
        description:
          "Daily weather in Seattle 2012-2015 (vega-datasets): precipitation (mm), max/min temperature (°C), wind (m/s); label: drizzle, fog, rain, snow or sun.",
        label_policy: "observed weather of the day, as published in vega-datasets/data/seattle-weather.csv",
      },
    );
    const rows = sampleBySeed(all.rows, options.size, options.seed, (r) =>
      String((r as { decision_ts: string }).decision_ts),
    );
    p.note(`sampled    ${rows.length} of ${all.rows.length} rows (seed ${options.seed})`);
    const dataset = pf.createDataset({ ...all, rows });
    const published = await pf.publish(dataset.dataset_id, {
      title: "Seattle weather: name the day's weather from its observations",
      prompt_template: PROMPT_TEMPLATE,
      grader_type: "exact",
      gold_field: "label",
      public_fraction: String(options.publicFraction),
      max_attempts: options.attempts,
      time_budget_seconds: 60,
      speed_weight: "0.3",
    });
    ctx.published = published;
    const slug = published.slug;
    result.slug = slug;
    const anchor = published.commitment_anchor;
    if (!anchor) throw new Error("the commitment was not anchored at publish");
    p.note(
      `benchmark  ${slug}: ${published.public_count} public + ${published.private_count} private tasks, grader exact`,
    );
    p.note(`commitment root ${published.commit_root}, ${published.leaf_count} leaves`);
    p.note(`anchored   tx ${anchor.tx_hash} (block ${anchor.anchor_block}, kind commitment)`);
    p.summary(`${slug}, root ${short(published.commit_root)}, anchored in block ${anchor.anchor_block}`);
  },
};
