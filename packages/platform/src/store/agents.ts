/** Data access of the `agents` table. */
import type { AgentRecord } from "../agents.js";
import { sql } from "kysely";
import { TableModule } from "./executor.js";
import type { AgentsTable as AgentRow } from "./schema.js";

const toAgent = (r: Omit<AgentRow, "is_author_agent"> & { is_author_agent: number }): AgentRecord => ({
  agent_id: r.agent_id,
  owner_account_id: r.owner_account_id,
  withdrawal_address: r.withdrawal_address,
  is_author_agent: r.is_author_agent === 1,
});

/** The `agents` table. */
export class AgentsTable extends TableModule {
  /** An agent, or null. `lock`: lock its row until the transaction ends (PostgreSQL), serialising its runs' start. */
  async get(agentId: string, opts: { lock?: boolean } = {}): Promise<AgentRecord | null> {
    const r = await this.rowByKey("agents", "agent_id", agentId, opts);
    return r ? toAgent(r) : null;
  }

  /**
   * The agent whose id is `agentId` in any case (`Alice` for `alice`: ids are unique without regard
   * to case, `foldName`), or null; the exact id first.
   */
  async getFolded(agentId: string): Promise<AgentRecord | null> {
    const r = await this.db
      .selectFrom("agents")
      .selectAll()
      .where(sql<string>`lower(agent_id)`, "=", agentId.toLowerCase())
      .orderBy(sql`agent_id = ${agentId}`, "desc")
      .executeTakeFirst();
    return r ? toAgent(r) : null;
  }

  /** Agents of an account, by id. */
  async ofAccount(accountId: string): Promise<AgentRecord[]> {
    const rows = await this.db
      .selectFrom("agents")
      .selectAll()
      .where("owner_account_id", "=", accountId)
      .orderBy("agent_id")
      .execute();
    return rows.map(toAgent);
  }

  /** How many agents an account holds. */
  async countOfAccount(accountId: string): Promise<number> {
    const r = await this.db
      .selectFrom("agents")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("owner_account_id", "=", accountId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /**
   * Takes the lock of an account's new agents until the transaction ends (PostgreSQL: an advisory
   * lock per account; SQLite's IMMEDIATE transaction holds the write lock already): the count of
   * its agents and the insert of a new one are one decision (`agents_per_account`).
   */
  async lockAccountAgents(accountId: string): Promise<void> {
    await this.advisoryLock(`account-agents:${accountId}`);
  }

  /**
   * Inserts an agent owned by `a.owner_account_id`; returns the stored row (an existing agent is left as
   * it is: the caller checks its owner).
   */
  async insertIfAbsent(a: AgentRecord, createdAt: string): Promise<AgentRecord> {
    await this.db
      .insertInto("agents")
      .values({
        agent_id: a.agent_id,
        owner_account_id: a.owner_account_id,
        withdrawal_address: a.withdrawal_address,
        is_author_agent: a.is_author_agent ? 1 : 0,
        created_at: createdAt,
      })
      .onConflict((oc) => oc.column("agent_id").doNothing())
      .execute();
    return (await this.get(a.agent_id))!;
  }

  /** Updates the owner-set fields of an agent, only when `ownerAccountId` still owns it. */
  async update(
    agentId: string,
    ownerAccountId: string,
    fields: { withdrawal_address?: string | null; is_author_agent?: boolean },
  ): Promise<AgentRecord | null> {
    const set: { withdrawal_address?: string | null; is_author_agent?: number } = {};
    if (fields.withdrawal_address !== undefined) set.withdrawal_address = fields.withdrawal_address;
    if (fields.is_author_agent !== undefined) set.is_author_agent = fields.is_author_agent ? 1 : 0;
    if (Object.keys(set).length > 0)
      await this.db
        .updateTable("agents")
        .set(set)
        .where("agent_id", "=", agentId)
        .where("owner_account_id", "=", ownerAccountId)
        .execute();
    return this.get(agentId);
  }
}
