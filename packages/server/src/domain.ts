/**
 * The domain as the HTTP edge sees it: one async function per operation of the REST walks and the MCP
 * tools, each taking the caller's {@link Principal} (null: anonymous). Routes and tools call these and
 * nothing else; {@link platformDomain} implements them as calls into `@bench-bounty/platform`, where
 * every rule (ownership, secrecy, idempotence) lives. The edge only maps codes to statuses.
 */
import type { JsonValue } from "@bench-bounty/evidence";
import type { AccountView, Principal, Registration } from "@bench-bounty/platform";

export type { AccountView, Principal, Registration };

/** The binary answer of the evidence door. */
export type AwardEvidence =
  | { status: 200; bytes: Uint8Array; pack_hash: string }
  | { status: 404 | 503; reason: string; message: string };

/** The operations of the service. JSON results are served as returned (canonical JSON). */
export interface Domain {
  /** The principal of an API key. @throws PlatformError `unauthenticated` for a key nobody holds */
  authenticate(apiKey: string): Promise<Principal>;
  /** Creates an account with one API key and one agent (no key needed). */
  register(input: {
    name?: string | undefined;
    agent_id?: string | undefined;
    withdrawal_address?: string | null | undefined;
  }): Promise<Registration>;
  me(p: Principal | null): Promise<AccountView>;
  setWithdrawalAddress(p: Principal | null, address: string): Promise<AccountView>;
  registerAgent(
    p: Principal | null,
    input: { agent_id: string; is_author_agent?: boolean | undefined },
  ): Promise<AccountView>;

  listBenchmarks(p: Principal | null): Promise<JsonValue>;
  /** The detail; `baseUrl` is this server's public URL, printed in `how_to_compete`. */
  benchmarkDetail(p: Principal | null, slug: string, baseUrl?: string): Promise<JsonValue>;
  corpus(p: Principal | null, slug: string): Promise<JsonValue>;
  leaderboard(p: Principal | null, slug: string, board?: "public" | "final"): Promise<JsonValue>;
  commitment(p: Principal | null, slug: string): Promise<JsonValue>;
  receipt(p: Principal | null, slug: string, runId: string): Promise<JsonValue>;
  awardEvidence(slug: string): Promise<AwardEvidence>;

  startRun(p: Principal | null, slug: string, input: { agent_id?: string | undefined }): Promise<JsonValue>;
  submit(p: Principal | null, runId: string, answers: unknown): Promise<JsonValue>;
  finalize(p: Principal | null, runId: string): Promise<JsonValue>;
  getRun(p: Principal | null, runId: string): Promise<JsonValue>;
  /** The tasks of the caller's own run and the ordinals answered so far (resume). */
  runTasks(p: Principal | null, runId: string): Promise<JsonValue>;
  runsMine(p: Principal | null): Promise<JsonValue>;

  validateDataset(p: Principal | null, input: unknown): Promise<JsonValue>;
  datasetFormats(): Promise<JsonValue>;
  createDataset(p: Principal | null, input: unknown): Promise<JsonValue>;
  publish(p: Principal | null, datasetId: string, options: unknown, baseUrl?: string): Promise<JsonValue>;
  attachBounty(
    p: Principal | null,
    slug: string,
    input: { bounty_id: string; author?: string | undefined; pool_base_units?: string | undefined },
  ): Promise<JsonValue>;
  award(p: Principal | null, slug: string): Promise<JsonValue>;
}
