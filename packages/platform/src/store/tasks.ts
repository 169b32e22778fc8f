/** Data access of the `tasks` table (the test set: gold and salts included). */
import { promptHash } from "@bench-bounty/evidence";
import type { TaskRecord } from "../context.js";
import { fromStored, toStored } from "../json.js";
import { chunks } from "./datasets.js";
import { TableModule } from "./executor.js";

/** The `tasks` table. */
export class TasksTable extends TableModule {
  /** A benchmark's test set in ordinal order (never serve this before the award). */
  async ofBenchmark(slug: string): Promise<TaskRecord[]> {
    const rows = await this.db
      .selectFrom("tasks")
      .selectAll()
      .where("slug", "=", slug)
      .orderBy("ordinal")
      .execute();
    return rows.map(({ gold_json, ...t }) => ({ ...t, gold: fromStored(gold_json) }));
  }

  /** Inserts a benchmark's test set. */
  async insertAll(slug: string, tasks: Omit<TaskRecord, "prompt_hash">[]): Promise<void> {
    const rows = tasks.map((t) => ({
      slug,
      ordinal: t.ordinal,
      prompt: t.prompt,
      prompt_hash: promptHash(t.prompt),
      gold_json: toStored(t.gold),
      salt: t.salt,
      visibility: t.visibility,
      grader_type: t.grader_type,
      row_index: t.row_index,
    }));
    for (const part of chunks(rows)) await this.db.insertInto("tasks").values(part).execute();
  }
}
