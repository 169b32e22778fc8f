/**
 * Bench fixtures: the agents a seeded board's runs belong to (one per three runs, owned by the
 * operator account), inserted straight into the store inside the caller's transaction.
 */
import type { Tables } from "../src/store.js";

/** Inserts `agent-0 .. agent-(ceil(runs / 3) - 1)`; returns how many. */
export async function insertBenchAgents(t: Tables, runs: number): Promise<number> {
  const agents = Math.ceil(runs / 3);
  await t.db
    .insertInto("agents")
    .values(
      Array.from({ length: agents }, (_, a) => ({
        agent_id: `agent-${a}`,
        owner_account_id: "acct_operator",
        withdrawal_address: null,
        is_author_agent: 0,
        created_at: "2026-01-01T00:00:00Z",
      })),
    )
    .execute();
  return agents;
}
