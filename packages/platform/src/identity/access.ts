/**
 * The owner rules and the "visible to whom" rules of the platform, in one place. Each rule has a stable
 * name that a refusal carries in `details.rule`, so the HTTP edge and the CLI can say which rule refused.
 *
 * Owner rules (issue 13 item 5, issue 15 item 2):
 * - `agent_owner_only`: an agent (its withdrawal address, its author-agent flag) is changed only by the
 *   account that registered it; runs of an agent are started only by that account;
 * - `operator_owns_no_agents`: the operator principal registers no agents (a keyless CLI user is the
 *   operator, so it can never act for anybody's agent);
 * - `run_owner_only`: a run is read in full, submitted to, finalized and resumed only by the account that
 *   owns its agent;
 * - `dataset_owner_only`, `benchmark_author_only`: datasets and benchmarks (bounties included) by their
 *   author;
 * - `operator_only`: close, anchor and award (the operator, or for close the benchmark's author).
 *
 * Visibility rules (SPEC 6.1 v1.1): until a benchmark closes, nothing served to anyone but its author
 * is computed from private tasks; gold, salts and answers leave the store before the award only to the
 * benchmark's author.
 */
import type { BenchmarkRecord } from "../context.js";
import { PlatformError } from "../errors.js";
import { isOperator, type Principal } from "./principal.js";

/** Names of the owner rules (values of `details.rule` in a `forbidden` refusal). */
export type AccessRule =
  | "agent_owner_only"
  | "operator_owns_no_agents"
  | "run_owner_only"
  | "dataset_owner_only"
  | "benchmark_author_only"
  | "operator_only"
  | "role_required";

/** Throws `forbidden` naming `rule`. */
export function forbid(rule: AccessRule, message: string, details: Record<string, unknown> = {}): never {
  throw new PlatformError("forbidden", message, { rule, ...details });
}

/** Requires a principal. @throws PlatformError `unauthenticated` when there is none */
export function requirePrincipal(p: Principal | null | undefined): Principal {
  if (!p) throw new PlatformError("unauthenticated", "an API key is required", { rule: "key_required" });
  return p;
}

/** The agent owner rule. @throws PlatformError `forbidden` (`agent_owner_only`) */
export function assertAgentOwner(p: Principal, agent: { agent_id: string; owner_account_id: string }): void {
  if (agent.owner_account_id !== p.account_id)
    forbid("agent_owner_only", `agent ${agent.agent_id} belongs to another account`, {
      agent_id: agent.agent_id,
    });
}

/** The operator owns no agents. @throws PlatformError `forbidden` (`operator_owns_no_agents`) */
export function assertMayOwnAgents(p: Principal): void {
  if (isOperator(p))
    forbid(
      "operator_owns_no_agents",
      "the operator registers no agents: create an account (CLI: bench-bounty account create; REST: POST /api/v1/accounts) and pass its key (BENCH_BOUNTY_API_KEY or --api-key)",
    );
}

/**
 * The run owner rule. The keyless CLI (the local operator, principal `via: "local"`, who owns no agents and
 * so no runs) is told that the run's key is needed, as `--server` without a key is (`remoteOf`), not that
 * the run is another account's (probe40 B-F1: a resume pasted without the key the run was made with said
 * "belongs to another account" to the run's owner).
 * @throws PlatformError `unauthenticated` (`key_required`, `details.run_id`) to the keyless CLI;
 *   `forbidden` (`run_owner_only`, `details.run_id`) to any other caller but the run's account
 */
export function assertRunOwner(p: Principal, run: { run_id: string; account_id: string }): void {
  if (run.account_id === p.account_id) return;
  if (p.via === "local")
    throw new PlatformError(
      "unauthenticated",
      `this needs --api-key (or BENCH_BOUNTY_API_KEY): run ${run.run_id} belongs to that key's account (without a key the CLI acts as the store's local operator, who owns no runs)`,
      { rule: "key_required", run_id: run.run_id },
    );
  forbid("run_owner_only", `run ${run.run_id} belongs to another account`, { run_id: run.run_id });
}

/** The dataset owner rule. @throws PlatformError `forbidden` (`dataset_owner_only`) */
export function assertDatasetOwner(p: Principal, ds: { dataset_id: string; owner_account_id: string }): void {
  if (ds.owner_account_id !== p.account_id)
    forbid("dataset_owner_only", `dataset ${ds.dataset_id} belongs to another account`, {
      dataset_id: ds.dataset_id,
    });
}

/**
 * The benchmark administration rule (attach or lock its bounty, close it): its author, or the operator
 * who runs the service. @throws PlatformError `forbidden` (`benchmark_author_only`) for anyone else
 */
export function assertAuthorOrOperator(
  p: Principal,
  b: Pick<BenchmarkRecord, "slug" | "author_account_id">,
): void {
  if (!isOperator(p)) assertAuthor(p, b);
}

/** The benchmark author rule. @throws PlatformError `forbidden` (`benchmark_author_only`) */
export function assertAuthor(p: Principal, b: Pick<BenchmarkRecord, "slug" | "author_account_id">): void {
  if (!isAuthorOf(p, b))
    forbid("benchmark_author_only", `only the author of ${b.slug} may do this`, { slug: b.slug });
}

/** The operator rule. @throws PlatformError `forbidden` (`operator_only`) */
export function assertOperator(p: Principal, what: string): void {
  if (!isOperator(p)) forbid("operator_only", `only the operator may ${what}`);
}

/** A role the caller's account must hold. @throws PlatformError `forbidden` (`role_required`) */
export function assertRole(p: Principal, role: "author" | "competitor"): void {
  if (!p.roles.includes(role)) forbid("role_required", `this needs the ${role} role`, { role });
}

/** True when `p` is the benchmark's author. */
export function isAuthorOf(
  p: Principal | null | undefined,
  b: Pick<BenchmarkRecord, "author_account_id">,
): boolean {
  return !!p && p.account_id === b.author_account_id;
}

/**
 * SPEC 6.1: may `viewer` see figures computed from private tasks (the private composite, private
 * accuracy, private correctness, receipts)? The author always; everyone once the benchmark is closed;
 * everyone when the bank has no private tasks (nothing to hide).
 */
export function privateFiguresVisible(
  viewer: Principal | null | undefined,
  b: Pick<BenchmarkRecord, "author_account_id" | "private_count">,
  open: boolean,
): boolean {
  return isAuthorOf(viewer, b) || !open || b.private_count === 0;
}

/**
 * The `buyer_only` visibility (the compete seed, section 7: a benchmark commissioned by one buyer):
 * true when `viewer` is not the author of such a benchmark, who then sees no per-run data of it: no
 * leaderboard rows and no receipts, open or closed. The award evidence pack stays public (SPEC 8:
 * "the same pack forever after"); so does a competitor's own finalize result.
 */
export function buyerOnlyHides(
  viewer: Principal | null | undefined,
  b: Pick<BenchmarkRecord, "author_account_id" | "config">,
): boolean {
  return (b.config.leaderboard_visibility ?? "public") === "buyer_only" && !isAuthorOf(viewer, b);
}

/**
 * SPEC 6.1: receipts are served once the benchmark is closed (to its author at any time); a
 * `buyer_only` benchmark serves them to its author only ({@link buyerOnlyHides}).
 */
export function receiptsVisible(
  viewer: Principal | null | undefined,
  b: Pick<BenchmarkRecord, "author_account_id" | "config">,
  open: boolean,
): boolean {
  return isAuthorOf(viewer, b) || (!open && !buyerOnlyHides(viewer, b));
}

/**
 * Per-task credit of PRIVATE tasks (the per-task tables, the GAOS `taskScores`, finalize's `per_task`):
 * to the author at any time, to everyone else only once the benchmark is awarded (status `awarded`: the
 * award is confirmed and its pack, which reveals the test set, is served). A closed benchmark whose prize
 * is not awarded (the award window running, the award deadline passed, the prize reclaimed, no bounty at
 * all) keeps them withheld as while open (probe36 C-F2): a constant answer's credit on a private task is
 * that task's label, and SPEC 1.1 `reclaim`: an unawarded prize never reveals its test set. What SPEC 6.1
 * serves at close (the final board on the private composite, receipts) is not this rule's.
 */
export function privateCreditsVisible(
  viewer: Principal | null | undefined,
  b: Pick<BenchmarkRecord, "author_account_id" | "status">,
): boolean {
  return isAuthorOf(viewer, b) || b.status === "awarded";
}

/** Gold, salts and answers: to the author, and to everyone once the benchmark is awarded (the pack). */
export function goldVisible(
  viewer: Principal | null | undefined,
  b: Pick<BenchmarkRecord, "author_account_id" | "status">,
): boolean {
  return isAuthorOf(viewer, b) || b.status === "awarded";
}
