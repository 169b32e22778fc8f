/**
 * On-chain checks (`--rpc URL`), read with viem: the bounty contract and the
 * AnchorRegistry named by the pack, on the chain the pack names. One module
 * per fact family, each a step of {@link CHAIN_STEPS} over one shared {@link ChainWalk}:
 * - `bounty.ts`: `onchain_root` and `onchain_leaf_count` (the root and leaf count on chain);
 * - `root-burned.ts`: `root_burned` (`rootBurned(author, root)`, v1.1);
 * - `award-log.ts`: `award_log` (the `Awarded` log and `getBounty`);
 * - `anchors.ts`: `commitment_anchor`, `receipt_anchors` and `pack_anchor`.
 *
 * When the RPC serves another chain than `benchmark.chain_id`, every chain fact fails. When a contract
 * the pack names answers a call with no data or data its ABI cannot decode, the facts read from it fail
 * (an answer of the chain, not an unreadable RPC); a revert of one of its views, whose code is the
 * protocol's, is the RPC's answer: it cannot be read (probe38 B-N1, `viewRevertProblem`).
 * Every answer of the RPC is read within {@link DEFAULT_MAX_RPC_ANSWER_BYTES} (streamed) and
 * within the per-request timeout, headers and body together (one retry: about twice the timeout
 * at most for a server that drips its answer).
 *
 * @packageDocumentation
 */
import { createPublicClient, http, type PublicClient } from "viem";
import { fact } from "../facts.js";
import type { OfflineDerived } from "../offline/index.js";
import type { PackView } from "../pack.js";
import type { ProgressCallback } from "../progress.js";
import { boundedFetch } from "../source.js";
import { commitmentAnchorFacts, packAnchorFacts } from "./anchors.js";
import { awardLogFacts } from "./award-log.js";
import { pinnedRootFacts } from "./bounty.js";
import { rootBurnedFacts } from "./root-burned.js";
import { checkedRpcFetch, readChainId } from "./rpc-answers.js";
import {
  CHAIN_FACTS,
  ContractAnswerError,
  makeChainWalk,
  namedBy,
  rpcReader,
  type ChainFacts,
  type ChainObservation,
  type ChainStep,
  type ChainWalk,
} from "./context.js";
import { credentialsToHeader, urlOrigin } from "../url.js";

export { CHAIN_FACTS, type ChainCredits, type ChainFactName, type ChainObservation } from "./context.js";

/** Largest JSON-RPC answer read (bytes, streamed): a receipt with thousands of logs fits; 2 GiB does not. */
export const DEFAULT_MAX_RPC_ANSWER_BYTES = 64 * 1024 * 1024;

/** Deadline of one JSON-RPC request, headers and body (milliseconds); viem retries once. */
export const DEFAULT_RPC_TIMEOUT_MS = 20_000;

/** The steps of the on-chain walk (they read the chain concurrently; each decides its own facts). */
export const CHAIN_STEPS: readonly ChainStep[] = [
  { facts: ["onchain_root", "onchain_leaf_count"], run: pinnedRootFacts },
  { facts: ["root_burned"], run: rootBurnedFacts },
  { facts: ["award_log"], run: awardLogFacts },
  { facts: ["commitment_anchor", "receipt_anchors"], run: commitmentAnchorFacts },
  { facts: ["pack_anchor"], run: packAnchorFacts },
];

/**
 * Run a step; a contract the pack names that answers a call with no data or data its ABI cannot decode
 * fails every fact of the step, naming where the pack names it, the call and the answer.
 */
async function runStep(step: ChainStep, walk: ChainWalk): Promise<Partial<ChainFacts>> {
  try {
    return await step.run(walk);
  } catch (e) {
    if (!(e instanceof ContractAnswerError)) throw e;
    const failed = fact(
      "failed",
      `${namedBy(walk.view, e.address)} ${e.address}: ${e.call} ${e.answer}: not the protocol's contract`,
    );
    return Object.fromEntries(step.facts.map((n) => [n, failed]));
  }
}

/** Result of {@link verifyOnchain}. */
export interface OnchainResult {
  facts: ChainFacts;
  observation: ChainObservation;
}

/** Options of {@link verifyOnchain}. */
export interface OnchainOptions {
  rpcUrl: string;
  /** Per-request deadline, headers and body, milliseconds (default {@link DEFAULT_RPC_TIMEOUT_MS}). */
  timeoutMs?: number;
  onProgress?: ProgressCallback;
  /** A viem client to use instead of building one from `rpcUrl` (tests). */
  client?: PublicClient;
  /** Largest RPC answer, bytes (default {@link DEFAULT_MAX_RPC_ANSWER_BYTES}). */
  maxAnswerBytes?: number;
  /** Aborts every request (the verification's total deadline). */
  signal?: AbortSignal;
  /**
   * Hashes of a competitor's own receipts (`verify --receipt`): their `anchorOf` is read on the pack's
   * registry with the receipt anchors, into `observation.anchors` (for `receipt_inclusion`).
   */
  givenReceiptHashes?: readonly string[];
}

/** The chain facts when the chain was not read (no `--rpc`). */
export function chainNotObserved(): ChainFacts {
  return allFacts(fact("not-observed", "no --rpc: the chain was not read"));
}

function allFacts(f: ReturnType<typeof fact>): ChainFacts {
  const facts = {} as ChainFacts;
  for (const n of CHAIN_FACTS) facts[n] = f;
  return facts;
}

/**
 * The viem client of an RPC URL: one retry, batched, every answer read within `maxAnswerBytes`
 * and within `timeoutMs` from the request's start to the body's last byte, and checked to answer its
 * request ({@link checkedRpcFetch}: the request's ids, a `result` or an `error`, an `eth_call` result hex data).
 */
export function rpcClient(
  rpcUrl: string,
  options: { timeoutMs?: number; maxAnswerBytes?: number; batch?: boolean; signal?: AbortSignal },
): PublicClient {
  const timeoutMs = options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
  // userinfo (`http://user:pw@host/`) goes as Basic auth: fetch refuses a URL with credentials
  const { url, headers } = credentialsToHeader(rpcUrl);
  return createPublicClient({
    transport: http(url, {
      fetchOptions: { headers },
      timeout: timeoutMs,
      retryCount: 1,
      batch: options.batch === false ? false : { batchSize: 200 },
      fetchFn: checkedRpcFetch(
        boundedFetch({
          what: "RPC answer",
          timeoutMs,
          maxBytes: options.maxAnswerBytes ?? DEFAULT_MAX_RPC_ANSWER_BYTES,
          signal: options.signal,
        }),
      ),
    }),
  }) as PublicClient;
}

/**
 * Read the chain and decide the chain facts.
 * @throws VerifierNetworkError when the RPC cannot be reached, answers an unexpected error (other than a
 *   contract's revert, which fails that contract's facts), or answers more than the limit
 */
export async function verifyOnchain(
  view: PackView,
  derived: OfflineDerived,
  options: OnchainOptions,
): Promise<OnchainResult> {
  const b = view.benchmark;
  const target = `rpc ${urlOrigin(options.rpcUrl)}`; // a provider's key is in the path or query: only the origin is printed
  const client = options.client ?? rpcClient(options.rpcUrl, options);
  const chainId = await rpcReader(target, options.rpcUrl)("eth_chainId", () => readChainId(client));
  const observation: ChainObservation = { chainId, awarded: null, anchors: new Map(), bounty: null };
  if (chainId !== b.chain_id)
    return {
      facts: allFacts(
        fact("failed", `the RPC serves chain ${chainId}, $.benchmark.chain_id is ${b.chain_id}`),
      ),
      observation,
    };
  // bounty_id is an integer string (pack.ts reads it so)
  const bountyId = BigInt(b.bounty_id);
  const walk = await makeChainWalk({
    view,
    derived,
    onProgress: options.onProgress,
    client,
    chainId,
    bountyId,
    target,
    rpcUrl: options.rpcUrl,
    givenReceiptHashes: options.givenReceiptHashes ?? [],
  });
  const facts = {} as ChainFacts;
  for (const part of await Promise.all(CHAIN_STEPS.map((step) => runStep(step, walk))))
    Object.assign(facts, part);
  for (const n of CHAIN_FACTS)
    if (facts[n] === undefined) facts[n] = fact("failed", "not decided (internal)");
  return { facts, observation: walk.observation };
}
