/**
 * The domain as the HTTP edge sees it: one async function per operation of the REST walks and the MCP
 * tools, each taking the caller's {@link Principal}. Routes and tools call these and nothing else, so a
 * rule (ownership, secrecy, idempotence) lives once, behind this port, in `@bench-bounty/platform`.
 *
 * Every function throws `PlatformError` with a stable code on refusal (`unauthenticated`,
 * `forbidden`, `unknown_run`, `invalid_answers`, ...); the edge maps codes to statuses in
 * `errors.ts` and never decides a rule itself.
 */
import type { JsonValue } from "@bench-bounty/evidence";

/** Who is calling: nobody, an account (by API key), or the operator (the key from the environment). */
export type Principal =
  | { kind: "anonymous" }
  | { kind: "account"; account_id: string }
  | { kind: "operator" };

/** An account as shown to its owner. Addresses are checksummed. */
export interface AccountView {
  account_id: string;
  name: string;
  withdrawal_address: string | null;
  /** The agents this account registered (the first is the default agent of runs). */
  agents: { agent_id: string; is_author_agent: boolean }[];
  /** Prefixes of the account's live API keys (the keys themselves are shown once, at creation). */
  key_prefixes: string[];
  created_at: string;
}

/** The answer of a registration: the account and its key, shown this once. */
export interface Registration {
  account: AccountView;
  api_key: string;
}

/** The binary answer of the evidence door. */
export type AwardEvidence =
  | { status: 200; bytes: Uint8Array; pack_hash: string }
  | { status: 404 | 503; reason: string; message: string };

/** The operations of the service. JSON results are served as returned (canonical JSON). */
export interface Domain {
  /** Resolves an API key; null when no live key matches (the edge answers 403 `forbidden`). */
  authenticate(apiKey: string): Promise<Principal | null>;
  /** Creates an account with one API key and one agent (no key needed). */
  register(input: { name?: string; agent_id?: string; withdrawal_address?: string | null }): Promise<Registration>;
  me(p: Principal): Promise<AccountView>;
  setWithdrawalAddress(p: Principal, address: string): Promise<AccountView>;
  registerAgent(p: Principal, input: { agent_id: string; is_author_agent?: boolean }): Promise<AccountView>;

  listBenchmarks(p: Principal): Promise<JsonValue>;
  benchmarkDetail(p: Principal, slug: string): Promise<JsonValue>;
  corpus(p: Principal, slug: string): Promise<JsonValue>;
  leaderboard(p: Principal, slug: string): Promise<JsonValue>;
  commitment(p: Principal, slug: string): Promise<JsonValue>;
  receipt(p: Principal, slug: string, runId: string): Promise<JsonValue>;
  awardEvidence(slug: string): Promise<AwardEvidence>;

  startRun(p: Principal, slug: string, input: { agent_id?: string }): Promise<JsonValue>;
  submit(p: Principal, runId: string, answers: unknown): Promise<JsonValue>;
  finalize(p: Principal, runId: string): Promise<JsonValue>;
  getRun(p: Principal, runId: string): Promise<JsonValue>;
  runsMine(p: Principal): Promise<JsonValue>;

  validateDataset(p: Principal, input: unknown): Promise<JsonValue>;
  datasetFormats(): Promise<JsonValue>;
  createDataset(p: Principal, input: unknown): Promise<JsonValue>;
  publish(p: Principal, datasetId: string, options: unknown): Promise<JsonValue>;
  attachBounty(p: Principal, slug: string, input: { bounty_id: string }): Promise<JsonValue>;
  award(p: Principal, slug: string): Promise<JsonValue>;
}
