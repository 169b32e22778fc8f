/**
 * The domain as the HTTP edge sees it: one async function per operation of the REST walks and the MCP
 * tools, each taking the caller's {@link Principal} (null: anonymous). Routes and tools call these and
 * nothing else; {@link platformDomain} implements them as calls into `@bench-bounty/platform`, where
 * every rule (ownership, secrecy, idempotence) lives. The edge only maps codes to statuses.
 */
import type { Hex, JsonValue } from "@bench-bounty/evidence";
import type {
  AccountView,
  AwardEvidenceHead,
  Principal,
  Registration,
  WriteHow,
  CreateAccountHow,
} from "@bench-bounty/platform";
import type { StoredVerification } from "./verification/view.js";

/**
 * The most bytes of tasks one answer carries (`POST /benchmarks/:slug/runs`, `GET
 * /benchmarks/runs/:id/tasks`, MCP `benchmark_start_run`, `benchmark_run_tasks`): 4 MiB, each task
 * counted as its JSON text and a comma. A run whose tasks take more is served a page at a time: the
 * answer's `next_offset` names the ordinal of the next page (null on the last one), `task_count` the
 * run's tasks (probe28 A-F5: a start served every task, 100 MB in one answer, the event loop held ~2 s).
 */
export const RUN_TASKS_PAGE_BYTES = 4 * 1024 * 1024;

/** {@link RUN_TASKS_PAGE_BYTES} in MiB, as the route and tool descriptions state it. */
export const RUN_TASKS_PAGE_MIB = RUN_TASKS_PAGE_BYTES / (1024 * 1024);

export type { AccountView, Principal, Registration, WriteHow };

/** The evidence door's answer without the pack's bytes: its hash and size (bytes), or the reason. */
export type { AwardEvidenceHead };

/**
 * The deadlines of a request's dataset work (unix ms): `answerBy`, its deadline for waits
 * (`AppEnv.revealBy`: a job still waiting for the dataset worker then is dropped, not run; the latest
 * moment to begin writing); `stopBy`, its own time limit (`AppEnv.endsAt`: a job still in the worker
 * then is stopped there, 503 `server_busy`, nothing stored: probe30 B-F5).
 */
export interface DatasetDeadlines {
  answerBy?: number;
  stopBy?: number;
}

/**
 * What a publish's planning costs its caller (`Domain.publish`), with its {@link DatasetDeadlines}:
 * `chargePlanning(bytes)` takes the stored rows' bytes before each planning; `owePlanning(bytes)` owes
 * the test set's bytes rendered beyond them after it.
 */
export interface PlanningCharges extends DatasetDeadlines {
  chargePlanning?: (bytes: number) => void;
  owePlanning?: (bytes: number) => void;
}

/**
 * The operations of the service. JSON results are served as returned (canonical JSON). Every write of a
 * request takes `opts` ({@link WriteHow}: `answerBy`, the request's deadline for waits, `AppEnv.revealBy`;
 * finalize its `revealBy`): on PostgreSQL a lock wait past it refuses the write 503 `server_busy`, nothing
 * written (probe19 A-F3), never a `request_timeout` followed by the write. The award has its own deadline.
 */
export interface Domain {
  /** The principal of an API key. @throws PlatformError `unauthenticated` for a key nobody holds */
  authenticate(apiKey: string): Promise<Principal>;
  /**
   * Creates an account with one API key and one agent (no key needed); `opts.network`, the request's
   * client network, is recorded on it (platform `createAccount`, probe30 A-F7).
   */
  register(
    input: {
      name?: string | undefined;
      agent_id?: string | undefined;
      withdrawal_address?: string | null | undefined;
    },
    opts?: CreateAccountHow,
  ): Promise<Registration>;
  me(p: Principal | null): Promise<AccountView>;
  /** Sets the address of all the caller's agents in one transaction (platform `setAccountWithdrawalAddress`). */
  setWithdrawalAddress(p: Principal | null, address: string, opts?: WriteHow): Promise<AccountView>;
  registerAgent(
    p: Principal | null,
    input: { agent_id: string; is_author_agent?: boolean | undefined },
    opts?: WriteHow,
  ): Promise<AccountView>;
  /**
   * Issues another API key for the caller's account (platform `issueKey`): the account as it is then and
   * the new key, shown this once (`Registration`'s shape). @throws PlatformError `unauthenticated` without
   * a key; `forbidden` (`operator_key_from_environment`) for the operator key; `too_many_keys` when the
   * account holds `MAX_ACTIVE_KEYS` active keys already (revoke one first); `server_busy`
   */
  issueKey(p: Principal | null, opts?: WriteHow): Promise<Registration>;
  /**
   * Revokes one of the caller's keys by its prefix (platform `revokeKey`; idempotent), the key in use too,
   * never the account's last active key: the account as it is then. @throws PlatformError `unknown_key`
   * (not a prefix, or not one of the caller's keys: `key_prefix`), `last_active_key`, `forbidden` for the
   * operator key, `unauthenticated` without a key, `server_busy`
   */
  revokeKey(p: Principal | null, keyPrefix: string, opts?: WriteHow): Promise<AccountView>;

  /**
   * One page of the benchmark list, oldest first: `{benchmarks, offset, limit, next_offset}` (default the
   * first 100). @throws PlatformError `invalid_option` naming `offset` or `limit` (at most 1,000)
   */
  listBenchmarks(p: Principal | null, page?: { offset: number; limit: number }): Promise<JsonValue>;
  /** The detail; `baseUrl` is this server's public URL, printed in `how_to_compete`. */
  benchmarkDetail(p: Principal | null, slug: string, baseUrl?: string): Promise<JsonValue>;
  /** Resolves when the benchmark exists (a store read only). @throws PlatformError `unknown_benchmark` */
  assertBenchmark(slug: string): Promise<void>;
  /**
   * Whether this process runs without a chain on a store used on one (platform `chainlessOnChainStore`):
   * the MCP instructions then send the address and a prize benchmark's run to the main address.
   */
  chainlessOnChainStore(): Promise<boolean>;
  corpus(p: Principal | null, slug: string): Promise<JsonValue>;
  /**
   * The board (SPEC 6.1), or one page of it with `page` (rows `offset .. offset + limit - 1` in rank
   * order, plus `total_rows`, `offset`, `limit`, `next_offset`). The same object is returned until the
   * board changes (the edge serialises it once). @throws PlatformError `invalid_option` naming the field
   */
  leaderboard(
    p: Principal | null,
    slug: string,
    board?: "public" | "final",
    page?: { offset: number; limit: number },
  ): Promise<JsonValue>;
  commitment(p: Principal | null, slug: string): Promise<JsonValue>;
  receipt(p: Principal | null, slug: string, runId: string): Promise<JsonValue>;
  /**
   * One page of per-task credit of the finalized runs, regraded (platform `taskScores`): once closed to
   * everyone the board is for, to the author at any time. Paged over runs (`offset`, `limit` runs, at most
   * `MAX_TASK_SCORE_CELLS` run-task cells a page). @throws PlatformError `invalid_option`,
   * `task_scores_withheld`, `forbidden`
   */
  taskScores(p: Principal | null, slug: string, page?: { offset: number; limit: number }): Promise<JsonValue>;
  /**
   * The per-task credit of the runs `runIds` of `slug` (a leaderboard page's rows), in the order asked,
   * as many as the cell bound lets one answer hold (platform `taskScoresOfIds`); the rule of
   * {@link taskScores}. @throws PlatformError `invalid_option` naming `run_ids` or `run_ids[i]`, as
   * {@link taskScores}
   */
  taskScoresOfIds(p: Principal | null, slug: string, runIds: unknown): Promise<JsonValue>;
  /**
   * GAOS `taskScores` (credit in [0, 1] by bank ordinal) of the finalized runs `runIds` of `slug` (a page
   * of entries, bounded by the caller), by run id; the access rule of {@link taskScores}.
   */
  gaosTaskScoresOf(
    p: Principal | null,
    slug: string,
    runIds: readonly string[],
  ): Promise<Map<string, Record<string, number>>>;
  /**
   * The door's answer without the pack's bytes (SPEC 8): its hash and size (bytes), or the SPEC 8 reason.
   * The door's logic (the benchmark and award rows, the award's recovery and minting) runs here, once
   * per answer: a 304 or a metadata answer reads nothing more (probe20 F4).
   */
  awardEvidenceHead(slug: string): Promise<AwardEvidenceHead>;
  /**
   * The bytes of the stored pack of `slug` whose hash is `packHash`, the `pack_hash` of an
   * {@link awardEvidenceHead} `pack` answer (a 200, an inline MCP answer): the pack's bytes only, the
   * door's logic not run again. @throws Error when no such pack is stored (a fault: 500)
   */
  awardEvidenceBytes(slug: string, packHash: Hex): Promise<Uint8Array>;
  /**
   * The bytes of the stored pack of `slug` whose hash is `packHash` and size `size` (bytes), both an
   * {@link awardEvidenceHead} `pack` answer's, in order, in chunks: the pack read when the first is
   * asked for, once per process for all readers (the door's 200 streams them: no copy per reader,
   * probe26 A-F2).
   * @throws Error while iterating when no such pack is stored (a fault)
   */
  awardEvidenceChunks(slug: string, packHash: Hex, size: number): AsyncIterable<Uint8Array>;

  /**
   * Starts a run: `{run, tasks, task_count, next_offset}`, `tasks` the first page of the run's tasks
   * (at most `RUN_TASKS_PAGE_BYTES`, 4 MiB: `tasksPage`), `next_offset` the ordinal the next page of
   * {@link runTasks} starts at, null when every task is in this answer.
   */
  startRun(
    p: Principal | null,
    slug: string,
    input: { agent_id?: string | undefined },
    opts?: WriteHow,
  ): Promise<JsonValue>;
  submit(p: Principal | null, runId: string, answers: unknown, opts?: WriteHow): Promise<JsonValue>;
  /**
   * Finalizes the caller's run; `opts.revealBy` (unix ms): the latest moment to wait for the receipt's
   * anchor batch and for the transaction's locks (the request's deadline for its waits, `AppEnv.revealBy`).
   */
  finalize(p: Principal | null, runId: string, opts?: { revealBy?: number }): Promise<JsonValue>;
  getRun(p: Principal | null, runId: string): Promise<JsonValue>;
  /**
   * One page of the tasks of the caller's own run, from ordinal `opts.offset` (default 0) on, and the
   * ordinals answered so far (resume): `{run_id, tasks, task_count, offset, next_offset,
   * answered_ordinals}`, at most `RUN_TASKS_PAGE_BYTES` (4 MiB) of tasks (`tasksPage`). `opts.admit`
   * is called with the page's bytes once the caller is known to own the run and before the answer is
   * built (it throws to refuse it: the edge's answer-bytes charge).
   */
  runTasks(
    p: Principal | null,
    runId: string,
    opts?: { admit?: (minBytes: number) => void; offset?: number },
  ): Promise<JsonValue>;
  /**
   * One page of the caller's runs, newest first: `{runs, offset, limit, next_offset}` (default the first
   * 100). @throws PlatformError `invalid_option` naming `offset` or `limit` (at most 1,000)
   */
  runsMine(p: Principal | null, page?: { offset: number; limit: number }): Promise<JsonValue>;

  /**
   * The dry run of a dataset body: its JSON bytes as received (parsed, schema-checked and checked off
   * the event loop: `dataset-check.ts`); `opts` its {@link DatasetDeadlines}.
   * @throws EdgeError `invalid_json`, `invalid_request`, `server_busy` (past `opts.answerBy` not run, at
   *   `opts.stopBy` stopped)
   */
  validateDataset(p: Principal | null, body: Uint8Array, opts?: DatasetDeadlines): Promise<JsonValue>;
  datasetFormats(): Promise<JsonValue>;
  /**
   * An upload: the body's JSON bytes as received (parsed and checked off the event loop, then stored);
   * `opts` its {@link DatasetDeadlines} (`answerBy` also the latest moment to begin storing).
   * @throws EdgeError `invalid_json`, `invalid_request`, `server_busy` (its check stopped at
   *   `opts.stopBy`); PlatformError `invalid_dataset`, `forbidden`, `server_busy` (past `opts.answerBy`:
   *   nothing stored), `write_too_long` (its rows' insert ran past `opts.answerBy`; nothing stored)
   */
  createDataset(p: Principal | null, body: Uint8Array, opts?: DatasetDeadlines): Promise<JsonValue>;
  /**
   * The caller's own datasets with their stored bytes and the account's quota (platform `myDatasets`).
   * @throws PlatformError `unauthenticated`
   */
  myDatasets(p: Principal | null): Promise<JsonValue>;
  /**
   * Deletes the caller's dataset never published (platform `deleteDataset`).
   * @throws PlatformError `unknown_dataset`, `forbidden` (`dataset_owner_only`), `dataset_published`
   */
  deleteDataset(p: Principal | null, datasetId: string, opts?: WriteHow): Promise<JsonValue>;
  /**
   * `opts.answerBy` (unix ms): the latest moment to begin writing and to wait for the commitment's
   * anchor batch (`AppEnv.revealBy`; platform `PublishHow.answerBy`); `opts.chargePlanning(bytes)`:
   * called with the stored rows' bytes before each planning, refused or not (`AppEnv.chargeDatasetBytes`,
   * probe17 A-F3: refused plannings cost their caller nothing and held the dataset worker);
   * `opts.owePlanning(bytes)`: called after a planning with the bytes of the test set it rendered beyond
   * the stored rows charged (`AppEnv.oweDatasetBytes`: a template repeating a field renders more than the
   * rows hold; the caller's next dataset work waits until that is paid back).
   * @throws what `opts.chargePlanning` throws (EdgeError `rate_limited`: nothing planned)
   */
  publish(
    p: Principal | null,
    datasetId: string,
    options: unknown,
    baseUrl?: string,
    opts?: PlanningCharges,
  ): Promise<JsonValue>;
  attachBounty(
    p: Principal | null,
    slug: string,
    input: { bounty_id: string; author?: string | undefined; pool_base_units?: string | undefined },
    opts?: WriteHow,
  ): Promise<JsonValue>;
  /**
   * The award (platform `award`); `opts.answerBy` (unix ms): the latest moment it answers
   * (`AppEnv.awardBy`). @throws PlatformError `award_in_progress`, `award_pending`, `server_busy`, ...
   */
  award(p: Principal | null, slug: string, opts?: { answerBy?: number }): Promise<JsonValue>;

  /**
   * The stored verification of the award pack (job state; facts, policy and versions once a report
   * is stored). @throws EdgeError `verification_unavailable` (404) before the pack exists
   */
  verification(p: Principal | null, slug: string): Promise<JsonValue>;
  /** The stored report's exact bytes. @throws EdgeError `verification_pending` (404) before one is stored */
  verificationReport(slug: string): Promise<Uint8Array>;
  /**
   * Queues a verification again (the benchmark's author or the operator). @throws EdgeError `rate_limited`
   * (429) when the author asks within `REVERIFY_COOLDOWN_MS` (10 min) of the last result (probe30 A-F6)
   */
  requestVerification(p: Principal | null, slug: string, opts?: WriteHow): Promise<JsonValue>;
  /**
   * Queues a verification of `slug` when its pack exists and it has no job yet (award, startup). True when queued.
   * @throws PlatformError `award_not_allowed` when a confirmed award's pack cannot be minted here: this
   *   process signs with another key than the bounty's awarder (probe36 C-F1)
   */
  enqueueIfPacked(slug: string): Promise<boolean>;
  /** The stored verification as the GAOS entries read it, or null. */
  storedVerification(slug: string): Promise<StoredVerification | null>;
  /**
   * Submits a winner's signed claim (SPEC 1.1 `claimWithSig`) from the operator's account, which pays
   * the gas; the credit goes to the signed `to`. Checked before any gas is spent: the signature is
   * `account`'s for the current nonce (ECDSA for an account without code; a smart-contract wallet's, ERC-1271,
   * by the contract in the simulation), the deadline has not passed, `account` has credit.
   * `opts.answerBy` (unix ms, `AppEnv.awardBy`): the latest moment the claim is sent and waited for
   * (probe24 C-F2). @throws EdgeError `server_busy` (not sent by then: nothing sent), `claim_pending`
   * (sent, not mined by then: `details.tx_hash`), ...
   */
  relayClaim(
    p: Principal | null,
    slug: string,
    input: RelayClaimInput,
    opts?: { answerBy?: number },
  ): Promise<JsonValue>;
}

/** The body of a relayed claim, as validated at the edge (addresses and signature as hex). */
export interface RelayClaimInput {
  account: `0x${string}`;
  to: `0x${string}`;
  /** Unix seconds (the last second the signature is valid). */
  deadline: bigint;
  signature: `0x${string}`;
}
