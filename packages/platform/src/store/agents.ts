/** Data access of the `agents` table (async methods whatever the engine). */
import type Database from "better-sqlite3";
import type { AgentRecord } from "../agents.js";

interface AgentRow {
  agent_id: string;
  owner_account_id: string;
  withdrawal_address: string | null;
  is_author_agent: number;
  created_at: string;
}

const toAgent = (r: AgentRow): AgentRecord => ({
  agent_id: r.agent_id,
  owner_account_id: r.owner_account_id,
  withdrawal_address: r.withdrawal_address,
  is_author_agent: r.is_author_agent === 1,
});

/** The `agents` table. */
export class AgentsTable {
  constructor(private readonly db: Database.Database) {}

  /** An agent, or null. */
  async get(agentId: string): Promise<AgentRecord | null> {
    return this.getSync(agentId);
  }

  /** Synchronous read, for use inside a store transaction. */
  getSync(agentId: string): AgentRecord | null {
    const r = this.db.prepare("SELECT * FROM agents WHERE agent_id = ?").get(agentId) as AgentRow | undefined;
    return r ? toAgent(r) : null;
  }

  /** Agents of an account, by id. */
  async ofAccount(accountId: string): Promise<AgentRecord[]> {
    return (
      this.db
        .prepare("SELECT * FROM agents WHERE owner_account_id = ? ORDER BY agent_id")
        .all(accountId) as AgentRow[]
    ).map(toAgent);
  }

  /**
   * Inserts an agent owned by `a.owner_account_id`; returns the stored row (an existing agent is left as
   * it is: the caller checks its owner).
   */
  async insertIfAbsent(a: AgentRecord, createdAt: string): Promise<AgentRecord> {
    this.db
      .prepare(
        "INSERT INTO agents (agent_id, owner_account_id, withdrawal_address, is_author_agent, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (agent_id) DO NOTHING",
      )
      .run(a.agent_id, a.owner_account_id, a.withdrawal_address, a.is_author_agent ? 1 : 0, createdAt);
    return this.getSync(a.agent_id)!;
  }

  /** Updates the owner-set fields of an agent, only when `ownerAccountId` still owns it. */
  async update(
    agentId: string,
    ownerAccountId: string,
    fields: { withdrawal_address?: string | null; is_author_agent?: boolean },
  ): Promise<AgentRecord | null> {
    if (fields.withdrawal_address !== undefined)
      this.db
        .prepare("UPDATE agents SET withdrawal_address = ? WHERE agent_id = ? AND owner_account_id = ?")
        .run(fields.withdrawal_address, agentId, ownerAccountId);
    if (fields.is_author_agent !== undefined)
      this.db
        .prepare("UPDATE agents SET is_author_agent = ? WHERE agent_id = ? AND owner_account_id = ?")
        .run(fields.is_author_agent ? 1 : 0, agentId, ownerAccountId);
    return this.getSync(agentId);
  }
}
