/** Data access of the `answers` table: one answer per (run, ordinal), upserted. */
import { chunks } from "./datasets.js";
import { arg, TableModule } from "./executor.js";

/** The `answers` table. */
export class AnswersTable extends TableModule {
  /** A run's answers: ordinal -> answer text. */
  async ofRun(runId: string): Promise<Map<number, string>> {
    const { rows } = await this.compiled("answers.ofRun", [runId], () =>
      this.db.selectFrom("answers").select(["ordinal", "answer_text"]).where("run_id", "=", arg<string>(0)),
    );
    return new Map(rows.map((r) => [r.ordinal, r.answer_text]));
  }

  /**
   * The answers of the runs `runIds` (one page of runs: at most a thousand), in one query per chunk of
   * ids: run id -> (ordinal -> answer text). A run without any answer is absent (read it as an empty map).
   */
  async ofRuns(runIds: readonly string[]): Promise<Map<string, Map<number, string>>> {
    const out = new Map<string, Map<number, string>>();
    for (const part of chunks(runIds)) {
      const rows = await this.db
        .selectFrom("answers")
        .select(["run_id", "ordinal", "answer_text"])
        .where("run_id", "in", part)
        .execute();
      for (const r of rows) {
        let run = out.get(r.run_id);
        if (!run) out.set(r.run_id, (run = new Map()));
        run.set(r.ordinal, r.answer_text);
      }
    }
    return out;
  }

  /** Upserts answers (idempotent per ordinal: a second submit replaces the text). */
  async upsert(
    runId: string,
    answers: { ordinal: number; answer_text: string }[],
    at: string,
  ): Promise<void> {
    // One compiled statement per chunk length (rows of four parameters: run, ordinal, text, time).
    for (const part of chunks(answers)) {
      const values = part.flatMap((a) => [runId, a.ordinal, a.answer_text, at]);
      await this.compiled(`answers.upsert:${part.length}`, values, () =>
        this.db
          .insertInto("answers")
          .values(
            part.map((_, i) => ({
              run_id: arg<string>(4 * i),
              ordinal: arg<number>(4 * i + 1),
              answer_text: arg<string>(4 * i + 2),
              updated_at: arg<string>(4 * i + 3),
            })),
          )
          .onConflict((oc) =>
            oc.columns(["run_id", "ordinal"]).doUpdateSet((eb) => ({
              answer_text: eb.ref("excluded.answer_text"),
              updated_at: eb.ref("excluded.updated_at"),
            })),
          ),
      );
    }
  }

  /** The UTF-8 bytes of the run's stored answers at `ordinals` (those not stored count 0). */
  async bytesAt(runId: string, ordinals: number[]): Promise<number> {
    let n = 0;
    for (const part of chunks(ordinals)) {
      const rows = await this.db
        .selectFrom("answers")
        .select("answer_text")
        .where("run_id", "=", runId)
        .where("ordinal", "in", part)
        .execute();
      for (const r of rows) n += Buffer.byteLength(r.answer_text, "utf8");
    }
    return n;
  }

  /** How many answers a run holds. */
  async count(runId: string): Promise<number> {
    const { rows } = await this.compiled("answers.count", [runId], () =>
      this.db
        .selectFrom("answers")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("run_id", "=", arg<string>(0)),
    );
    return Number(rows[0]!.n);
  }
}
