/**
 * The facts a prepared award froze, read once from its row and passed between the award's steps
 * (`preparedAward`): each ranked run's receipt URL and author flag, a winner's paid address, the
 * winners and the zero-winner reason; a row whose winner is not ranked is refused `invalid_store`.
 */
import { describe, expect, it } from "vitest";
import { preparedAward } from "../src/award/state.js";
import { toStored } from "../src/json.js";
import type { AwardRow } from "../src/store/awards.js";

const ADDRESS = `0x${"ab".repeat(20)}`;

/** A prepared award row ranking `rows`, paying `winners`. */
function row(
  rows: { run_id: string }[],
  winners: { run_id: string }[],
  zero: string | null = null,
): AwardRow {
  return {
    slug: "s",
    status: "prepared",
    rank_derivation_json: toStored({
      rows: rows.map((r, i) => ({
        run_id: r.run_id,
        receipt_url: `https://x/${r.run_id}`,
        is_author_agent: i > 0,
      })),
      zero_winner_reason: zero,
    }),
    ranking_digest: `0x${"0".repeat(64)}`,
    winners_json: toStored(
      winners.map((w, i) => ({
        place: i + 1,
        agent_id: `agent-${w.run_id}`,
        withdrawal_address: ADDRESS,
        amount_base_units: "10",
        run_id: w.run_id,
      })),
    ),
    award_tx: null,
    award_block: null,
    pack_hash: null,
    created_at: "2026-01-01T00:00:00.000Z",
  };
}

describe("preparedAward", () => {
  it("names each ranked run's frozen facts, a winner's paid address, the winners and the zero-winner reason", () => {
    const p = preparedAward(row([{ run_id: "r1" }, { run_id: "r2" }], [{ run_id: "r1" }]));
    expect([...p.runs]).toEqual([
      ["r1", { receipt_url: "https://x/r1", is_author_agent: false, withdrawal_address: ADDRESS }],
      ["r2", { receipt_url: "https://x/r2", is_author_agent: true }],
    ]);
    expect(p.winners.map((w) => [w.place, w.run_id])).toEqual([[1, "r1"]]);
    expect(p.zero_winner_reason).toBeNull();
    expect(preparedAward(row([{ run_id: "r1" }], [], "no_runs"))).toMatchObject({
      winners: [],
      zero_winner_reason: "no_runs",
    });
  });

  it("refuses a row whose winner's run is not ranked: invalid_store naming the run", () => {
    expect(() => preparedAward(row([{ run_id: "r1" }], [{ run_id: "r9" }]))).toThrow(
      expect.objectContaining({ code: "invalid_store", details: { run_id: "r9" } }),
    );
  });
});
