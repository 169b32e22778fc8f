/** Data access of the `tasks` table (the test set: gold and salts included). */
import { promptHash } from "@bench-bounty/evidence";
import type { TaskRecord } from "../context.js";
import { fromStored, toStored } from "../json.js";
import { INSERT_CHUNK } from "./datasets.js";
import { TableModule } from "./executor.js";

/** About how many prompt characters (UTF-16 units) one INSERT of tasks carries: one stretch of the event loop. */
export const TASK_CHUNK_CHARS = 1024 * 1024;

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
   * Inserts a benchmark's test set in chunks of at most {@link INSERT_CHUNK} tasks and about
   * {@link TASK_CHUNK_CHARS} of prompts, yielding to the event loop between two (probe17 A-F6: a 100 MB
   * test set held SQLite's synchronous driver 6.7 s in one stretch). Inside a transaction nothing else
   * runs in it meanwhile: on SQLite the other statements wait for its one connection, on PostgreSQL
   * they run on other connections.
   */
  async insertAll(slug: string, tasks: Omit<TaskRecord, "prompt_hash">[]): Promise<void> {
    let from = 0;
    while (from < tasks.length) {
      let to = from;
      let chars = 0;
      while (to < tasks.length && to - from < INSERT_CHUNK && (to === from || chars < TASK_CHUNK_CHARS))
        chars += tasks[to++]!.prompt.length;
      const part = tasks.slice(from, to).map((t) => ({
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
      if (from > 0) await new Promise((r) => setImmediate(r));
      await this.db.insertInto("tasks").values(part).execute();
      from = to;
    }
  }
}
