/** Data access of the `tasks` table (the test set: gold and salts included). */
import { promptHash } from "@bench-bounty/evidence";
import type { TaskRecord } from "../context.js";
import { fromStored, toStored } from "../json.js";
import { insertInChunks } from "./datasets.js";
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

  /**
   * Inserts a benchmark's test set in slices of about a megabyte of prompts, the event loop yielded
   * between two ({@link insertInChunks}; probe17 A-F6: a 100 MB test set held SQLite's synchronous
   * driver 6.7 s in one stretch).
   */
  async insertAll(slug: string, tasks: Omit<TaskRecord, "prompt_hash">[]): Promise<void> {
    await insertInChunks(
      tasks,
      (t) => t.prompt.length,
      (part) =>
        this.db
          .insertInto("tasks")
          .values(
            part.map((t) => ({
              slug,
              ordinal: t.ordinal,
              prompt: t.prompt,
              prompt_hash: promptHash(t.prompt),
              gold_json: toStored(t.gold),
              salt: t.salt,
              visibility: t.visibility,
              grader_type: t.grader_type,
              row_index: t.row_index,
            })),
          )
          .execute(),
      "the benchmark's tasks",
    );
  }
}
