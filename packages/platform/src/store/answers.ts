/** Data access of the `answers` table: one answer per (run, ordinal), upserted. */
import { chunks } from "./datasets.js";
import { TableModule } from "./executor.js";

/** The `answers` table. */
export class AnswersTable extends TableModule {
  /** A run's answers: ordinal -> answer text. */
  async ofRun(runId: string): Promise<Map<number, string>> {
    const rows = await this.db
      .selectFrom("answers")
      .select(["ordinal", "answer_text"])
      .where("run_id", "=", runId)
      .execute();
    return new Map(rows.map((r) => [r.ordinal, r.answer_text]));
  }

  /**
   * The answers of every finalized run of a benchmark in one query: run id -> (ordinal -> answer text).
   * A run without any answer is absent (read it as an empty map).
   */
  async ofFinalizedRuns(slug: string): Promise<Map<string, Map<number, string>>> {
    const rows = await this.db
      .selectFrom("answers as a")
      .innerJoin("runs as r", "r.run_id", "a.run_id")
      .select(["a.run_id", "a.ordinal", "a.answer_text"])
      .where("r.slug", "=", slug)
      .where("r.status", "=", "finalized")
      .execute();
    const out = new Map<string, Map<number, string>>();
    for (const r of rows) {
      let run = out.get(r.run_id);
      if (!run) out.set(r.run_id, (run = new Map()));
      run.set(r.ordinal, r.answer_text);
    }
    return out;
  }

  /** Upserts answers (idempotent per ordinal: a second submit replaces the text). */
  async upsert(
    runId: string,
    answers: { ordinal: number; answer_text: string }[],
    at: string,
  ): Promise<void> {
    const rows = answers.map((a) => ({
      run_id: runId,
      ordinal: a.ordinal,
      answer_text: a.answer_text,
      updated_at: at,
    }));
    for (const part of chunks(rows))
      await this.db
        .insertInto("answers")
        .values(part)
        .onConflict((oc) =>
          oc.columns(["run_id", "ordinal"]).doUpdateSet((eb) => ({
            answer_text: eb.ref("excluded.answer_text"),
            updated_at: eb.ref("excluded.updated_at"),
          })),
        )
        .execute();
  }

  /** How many answers a run holds. */
  async count(runId: string): Promise<number> {
    const r = await this.db
      .selectFrom("answers")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("run_id", "=", runId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }
}
