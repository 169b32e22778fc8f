/**
 * Phase 2: the author publishes the benchmark over the service's REST API, as the publish seed describes
 * it: registers an account (its key shown once), reads the CSV into dataset rows locally
 * (`loadCsvDataset`: an explicit column mapping), validates them (dry run), uploads them, publishes one
 * benchmark from them; the service commits the test set and anchors the commitment.
 */
import { BenchBountyClient } from "@bench-bounty/client";
import { REPO_ROOT } from "@bench-bounty/devchain";
import { loadCsvDataset } from "@bench-bounty/platform";
import { relative } from "node:path";
import { need, type DemoPhase } from "../context.js";
import { PROMPT_TEMPLATE, sampleBySeed, seattleWeatherCsvPath } from "../dataset.js";
import { short } from "../table.js";
import { AUTHOR_INDEX } from "../terms.js";

/** publish benchmark and anchor its commitment. */
export const publishPhase: DemoPhase = {
  name: "publish the benchmark over the API (POST /datasets, /benchmark)",
  async run(ctx, p) {
    const { options, result } = ctx;
    const c = need(ctx.chain, "the chain");
    const api = new BenchBountyClient({ baseUrl: need(ctx.serviceUrl, "the service URL") });
    const reg = await api.register({
      name: "demo-author",
      withdrawal_address: c.accounts[AUTHOR_INDEX]!.address,
    });
    ctx.authorKey = reg.api_key;
    const author = api.withKey(reg.api_key);
    p.note(
      `author     POST /api/v1/accounts -> account ${reg.account.account_id}, key ${reg.key_prefix}… (shown once)`,
    );

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
    const dataset = { ...all, rows };
    const check = await author.validateDataset(dataset);
    if (!check.ok)
      throw new Error(
        `POST /datasets/validate refused the rows: ${JSON.stringify(check.errors.slice(0, 3))}`,
      );
    const stored = await author.createDataset(dataset);
    p.note(
      `uploaded   POST /api/v1/datasets -> ${stored.dataset_id} (${stored.row_count} rows, ${short(stored.content_hash)})`,
    );
    const published = await author.publish(stored.dataset_id, {
      title: "Seattle weather: name the day's weather from its observations",
      prompt_template: PROMPT_TEMPLATE,
      grader_type: "exact",
      gold_field: "label",
      public_fraction: String(options.publicFraction),
      max_attempts: options.attempts,
      time_budget_seconds: 60,
      speed_weight: "0.3",
    });
    const slug = published.slug;
    result.slug = slug;
    const { commit_root, leaf_count } = published.commitment;
    const anchor = published.commitment.anchor as { tx_hash?: string; anchor_block?: number } | null;
    // the root is shown only once anchored (probe14 D3-F8)
    if (!anchor?.tx_hash || commit_root === null)
      throw new Error("the service did not anchor the commitment at publish");
    ctx.published = { slug, commit_root, leaf_count };
    p.note(
      `benchmark  ${slug}: ${leaf_count} tasks, grader exact; disclosure: ${published.disclosure.split(". ")[0]}.`,
    );
    p.note(`commitment root ${commit_root}, ${leaf_count} leaves`);
    p.note(`anchored   tx ${anchor.tx_hash} (block ${anchor.anchor_block}, kind commitment)`);
    p.summary(`${slug}, root ${short(commit_root)}, anchored in block ${anchor.anchor_block}`);
  },
};
