/**
 * INTERIM (replaced on merge by the platform's identity model: accounts, hashed API keys, principals).
 *
 * Accounts with API keys for the edge until `@bench-bounty/platform` serves them: keys are 32 random
 * bytes (`bb_` + base64url), shown once, kept only as their SHA-256; an account owns the agents it
 * registered and the datasets it uploaded. In memory only: a restart forgets accounts (the platform's
 * store keeps them once it lands). Nothing here is imported by a route; only by `platform-domain.ts`.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { PlatformError } from "@bench-bounty/platform";

/** One account as held here. */
export interface InterimAccount {
  account_id: string;
  name: string;
  key_hashes: Buffer[];
  key_prefixes: string[];
  agents: string[];
  created_at: string;
}

function sha256(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/** The key of an account: `bb_` + 43 base64url characters. */
export function newApiKey(): string {
  return "bb_" + randomBytes(32).toString("base64url");
}

/** Accounts, keys and what each account owns. */
export class InterimIdentity {
  private readonly accounts = new Map<string, InterimAccount>();
  private readonly byKeyHash = new Map<string, string>();
  private readonly agentOwner = new Map<string, string>();
  private readonly datasetOwner = new Map<string, string>();
  private readonly operatorHash: Buffer | null;

  constructor(operatorKey: string | null) {
    this.operatorHash = operatorKey ? sha256(operatorKey) : null;
  }

  /** Creates an account with one key; returns the account and the key (shown once). */
  create(name: string, now: string): { account: InterimAccount; api_key: string } {
    const account_id = "acct-" + randomBytes(6).toString("hex");
    const api_key = newApiKey();
    const h = sha256(api_key);
    const account: InterimAccount = {
      account_id,
      name,
      key_hashes: [h],
      key_prefixes: [api_key.slice(0, 10)],
      agents: [],
      created_at: now,
    };
    this.accounts.set(account_id, account);
    this.byKeyHash.set(h.toString("hex"), account_id);
    return { account, api_key };
  }

  /** `operator`, an account id, or null for a key nobody holds. */
  resolve(apiKey: string): "operator" | string | null {
    const h = sha256(apiKey);
    if (this.operatorHash && timingSafeEqual(h, this.operatorHash)) return "operator";
    return this.byKeyHash.get(h.toString("hex")) ?? null;
  }

  account(accountId: string): InterimAccount {
    const a = this.accounts.get(accountId);
    if (!a) throw refuse("unauthenticated", "unknown account", { account_id: accountId });
    return a;
  }

  /** Gives an agent id to an account. @throws `agent_exists` when another account holds it */
  claimAgent(accountId: string, agentId: string, existsInStore: boolean): void {
    const owner = this.agentOwner.get(agentId);
    if (owner === accountId) return;
    if (owner !== undefined || existsInStore)
      throw refuse("agent_exists", `agent_id ${agentId} belongs to another account`, {
        field: "agent_id",
        agent_id: agentId,
      });
    this.agentOwner.set(agentId, accountId);
    this.account(accountId).agents.push(agentId);
  }

  ownerOfAgent(agentId: string): string | null {
    return this.agentOwner.get(agentId) ?? null;
  }

  setDatasetOwner(datasetId: string, accountId: string): void {
    if (!this.datasetOwner.has(datasetId)) this.datasetOwner.set(datasetId, accountId);
  }

  ownerOfDataset(datasetId: string): string | null {
    return this.datasetOwner.get(datasetId) ?? null;
  }
}

/** A PlatformError with a code the platform's identity model adds (`unauthenticated`, `forbidden`, ...). */
export function refuse(code: string, message: string, details: Record<string, unknown>): PlatformError {
  return new PlatformError(code as never, message, details);
}
