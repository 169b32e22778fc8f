/**
 * The verifier worker running inside `bench-bounty serve` (issue 17 item 2): at start it queues every
 * benchmark whose award pack exists and has no job yet, then loops over the queue
 * ({@link startWorker}: due jobs at once, every `pollMs` when idle, a lease per attempt, backoff while
 * the chain or indexer cannot be read), verifying each pack as the door serves it under the `full`
 * policy with `verifyPack` of `@bench-bounty/verifier`. Every `sweepMs` it also queues the packs
 * stored since by another process on the same store (the CLI's `award`, another `serve`): probe14 D3-F11.
 */
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { PlatformError, publicOrigin, redactRpc, terminalText, type Platform } from "@bench-bounty/platform";
import {
  DEFAULT_MAX_INDEXER_ANSWER_BYTES,
  describeError,
  VerifierInputError,
  fetchWithin,
  isBehindThePack,
  readBodyWithin,
  verifyPack,
} from "@bench-bounty/verifier";
import { indexerRefusalMessage, isIndexerRefusal, joinRoute } from "@bench-bounty/verifier/url";
import { WORKER_POLICY } from "./view.js";
import {
  startWorker,
  type StepOutcome,
  type VerificationJobReader,
  type VerificationQueue,
  type WorkerDeps,
} from "./worker.js";

/** Options of {@link startVerifier}. */
export interface VerifierOptions {
  jobs: VerificationQueue;
  /** The chain's JSON-RPC URL (the chain facts are `not-observed` without it). */
  rpcUrl?: string | undefined;
  /** The indexer's base URL (`indexer_agreement` is `not-observed` without it). */
  indexerUrl?: string | undefined;
  /** Idle poll interval (ms, default 1000). */
  pollMs?: number;
  /**
   * Interval of the sweep for packs minted by another process (ms, default {@link PACK_SWEEP_MS}):
   * such a pack is queued within it ({@link packSweep}).
   */
  sweepMs?: number;
  /** Told of the slugs a periodic sweep queued (serve prints them). */
  onSweep?: (queued: string[]) => void;
  /** Lease per attempt (ms, default 5 minutes). */
  leaseMs?: number;
  /** Unix ms. */
  now?: () => number;
  /** Told of every step (serve prints retries and failures). */
  onStep?: (o: StepOutcome) => void;
}

/** The pack is not at the door yet (award still minting): retried with backoff like a network error. */
class PackUnavailable extends Error {
  override readonly name = "PackUnavailable";
}

/** The indexer has not indexed the award yet: retried with backoff, for the first attempts only. */
class IndexerBehind extends Error {
  override readonly name = "IndexerBehind";
}

/**
 * The indexer could not say whether the award is indexed (unreachable, a 5xx or 429 answer, an
 * answer that is not a bounty): retried as {@link IndexerBehind} is, but told apart from it in the
 * log (probe24: `serve` logged "http 500, not yet awarded" for an indexer that was down).
 */
class IndexerUnavailable extends Error {
  override readonly name = "IndexerUnavailable";
}

/**
 * Attempts during which an indexer that has not caught up with the award is waited for (5 s + 10 s +
 * 20 s + 40 s + 80 s of backoff). A pack is verified right after it is minted, usually before the
 * indexer has seen the `Awarded` log; verifying then would store `indexer_agreement` unverified for
 * lag alone (the verifier reads the indexer's `/status` head: below the award's block its
 * disagreements are unverified, probe29 C-F7; an indexer without `/status`, failed). During these
 * attempts a report whose `indexer_agreement` is unverified only for that lag (`isBehindThePack`: the
 * indexer's head below the award's or the pack anchor's block, though it shows the bounty awarded) is
 * not stored either: the attempt is retried (probe39 C-F2: an indexer stuck below the anchor's block
 * had its verification stored `done`, policy not met, never retried). After these attempts the pack
 * is verified and stored whatever the indexer says, so a real disagreement is still reported.
 */
export const INDEXER_SETTLE_ATTEMPTS = 5;

/**
 * Throws {@link IndexerBehind} unless the indexer's `GET /bounties/:id` shows the pack's bounty
 * `awarded` ("bounty 7 is funded, not yet awarded"; a 404: "has not indexed bounty 7 yet"), or
 * {@link IndexerUnavailable} when the indexer cannot tell (unreachable, an answer other than 2xx, 404
 * or a refusal, an answer that is not a bounty): both retried; a `VerifierInputError` `indexer_refused`
 * (the job fails, not retried) when the indexer refuses the request (a 4xx but 404/429: 400
 * `invalid_parameter` to a query on the URL). The answer is read within
 * `DEFAULT_MAX_INDEXER_ANSWER_BYTES` as the verifier reads it (a refusal within 4 KiB): an answer
 * over it is "unreachable", the rest unread (it was read whole, however long); the whole exchange,
 * headers and body, within 10 s (an answer not in full by then is "unreachable").
 */
async function indexerCaughtUp(indexerUrl: string, pack: Uint8Array): Promise<void> {
  let bountyId: unknown;
  try {
    bountyId = (JSON.parse(new TextDecoder().decode(pack)) as { benchmark?: { bounty_id?: unknown } })
      .benchmark?.bounty_id;
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    return; // not JSON: verifyPack refuses it with its own VerifierInputError
  }
  if (typeof bountyId !== "string" && typeof bountyId !== "number") return;
  const route = `/bounties/${encodeURIComponent(String(bountyId))}`;
  // the route joins the URL's path, before its query; userinfo becomes a Basic header (probe10 R3)
  const { url, headers } = joinRoute(indexerUrl, route);
  const where = `${publicOrigin(indexerUrl)}${route}`;
  const unavailable = (why: string) => new IndexerUnavailable(`${where}: ${why} (will retry)`);
  let res: Response;
  try {
    // 10 s to the body's last byte (fetchWithin: a dripped body is cut off at it; the
    // AbortSignal.timeout used before could be lost to a garbage collection, probe27 B-F6)
    res = await fetchWithin(url, { headers }, { what: "indexer answer", timeoutMs: 10_000 });
  } catch (e) {
    throw unavailable(`the indexer is unreachable: ${describeError(e)}`);
  }
  // a refusal (400 invalid_parameter: a query on --indexer-url) fails the job, not retried (probe11 O9)
  if (isIndexerRefusal(res.status))
    throw new VerifierInputError(
      "indexer_refused",
      "--indexer-url",
      indexerRefusalMessage(indexerUrl, route, res.status, await refusalBody(res)),
    );
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    if (res.status === 404)
      throw new IndexerBehind(
        `${where}: the indexer has not indexed bounty ${String(bountyId)} yet (http 404)`,
      );
    throw unavailable(`the indexer answered http ${res.status}, not the bounty`);
  }
  let status: unknown;
  try {
    const bytes = await readBodyWithin(res, DEFAULT_MAX_INDEXER_ANSWER_BYTES, "indexer answer");
    status = (JSON.parse(new TextDecoder().decode(bytes)) as { bounty?: { status?: unknown } }).bounty
      ?.status;
  } catch (e) {
    throw unavailable(`the indexer's answer cannot be read: ${describeError(e)}`);
  }
  if (typeof status !== "string") throw unavailable("the indexer's answer names no bounty status");
  // the indexer names statuses as the contract's enum does ("Awarded"): compared case-insensitively, as
  // the verifier's own indexer facts do (probe15 B-F9)
  if (status.toLowerCase() !== "awarded")
    throw new IndexerBehind(
      `${where}: bounty ${String(bountyId)} is ${terminalText(status.slice(0, 40))}, not yet awarded`,
    );
}

/** A refusal's JSON body, read within 4 KiB (as the verifier reads it), or undefined: not JSON, or longer. */
async function refusalBody(res: Response): Promise<unknown> {
  try {
    return JSON.parse(new TextDecoder().decode(await readBodyWithin(res, 4096, "indexer answer")));
  } catch {
    return undefined; // not JSON, too long or cut: the status alone is named
  }
}

/** The secret-bearing URLs of the worker: the RPC URL and the indexer URL (`--indexer-url` may carry credentials). */
interface SecretUrls {
  rpcUrl?: string | undefined;
  indexerUrl?: string | undefined;
}

/** `text` with the RPC and indexer URLs reduced to their origins (either may carry a key in its path). */
function redactText(text: string, o: SecretUrls): string {
  const out = redactRpc(text, o.rpcUrl);
  return redactRpc(out, o.indexerUrl);
}

/** A verification report with the operator's RPC URL reduced to its origin everywhere in it (and the indexer URL likewise). */
function redactReport<T>(report: T, o: SecretUrls): T {
  if (!o.rpcUrl && !o.indexerUrl) return report;
  return JSON.parse(redactText(JSON.stringify(report), o)) as T;
}

/** `e` with the operator's RPC URL reduced to its origin in its message (name kept: the worker reads it). */
function redactError(e: unknown, o: SecretUrls): unknown {
  if (!(e instanceof Error)) return e;
  const message = redactText(e.message, o);
  if (message === e.message) return e;
  return Object.assign(new Error(message, { cause: e }), { name: e.name });
}

/**
 * The worker's ports over a platform. The stored report (served to anyone at
 * `.../verification/report`) and the stored `last_error` never carry the RPC URL beyond its origin, nor
 * the indexer URL's userinfo or secret parameters.
 */
export function verifierDeps(platform: Platform, o: VerifierOptions): WorkerDeps {
  return {
    jobs: o.jobs,
    worker: `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`,
    // only the work it can do (probe26 A-F6: a serve without a chain re-verified an award and replaced
    // the chain-verified report for every process)
    observes: { chain: Boolean(o.rpcUrl), indexer: Boolean(o.indexerUrl) },
    now: o.now ?? Date.now,
    ...(o.leaseMs !== undefined ? { leaseMs: o.leaseMs } : {}),
    async readPack(slug) {
      const door = await platform.awardEvidence(slug);
      if (door.kind !== "pack") throw new PackUnavailable(`${slug}: ${door.reason}: ${door.message}`);
      return door.bytes;
    },
    verify: async (pack, job) => {
      try {
        if (o.indexerUrl && job.attempts < INDEXER_SETTLE_ATTEMPTS) await indexerCaughtUp(o.indexerUrl, pack);
        const report = await verifyPack({
          source: pack,
          policy: WORKER_POLICY,
          ...(o.rpcUrl ? { rpcUrl: o.rpcUrl } : {}),
          ...(o.indexerUrl ? { indexerUrl: o.indexerUrl } : {}),
        });
        const indexerFact = report.facts.indexer_agreement;
        if (o.indexerUrl && job.attempts < INDEXER_SETTLE_ATTEMPTS && isBehindThePack(indexerFact))
          throw new IndexerBehind(`${indexerFact.reasons[0] ?? ""} (will retry)`);
        return redactReport(report, o);
      } catch (e) {
        throw redactError(e, o);
      }
    },
  };
}

/**
 * Queues every benchmark whose pack is at the door and that has no job (the startup sweep). A
 * benchmark whose award cannot be brought to the door (a `PlatformError`, e.g. a confirmed award whose
 * pack cannot be minted consistently) is reported in `refused` and the sweep goes on: one benchmark
 * never keeps `serve` from starting; any other error stops the sweep.
 * @returns the slugs queued, and those refused with the reason
 */
export async function enqueuePackedAwards(
  platform: Platform,
  enqueueIfPacked: (slug: string) => Promise<boolean>,
): Promise<{ queued: string[]; refused: { slug: string; error: string }[] }> {
  const queued: string[] = [];
  const refused: { slug: string; error: string }[] = [];
  for (const b of await platform.listBenchmarks()) {
    try {
      if (await enqueueIfPacked(b.slug)) queued.push(b.slug);
    } catch (e) {
      if (!(e instanceof PlatformError)) throw e;
      refused.push({ slug: b.slug, error: e.message });
    }
  }
  return { queued, refused };
}

/** Default interval of the sweep for packs minted by another process (ms): 5 s. */
export const PACK_SWEEP_MS = 5_000;

/**
 * The periodic sweep (probe14 D3-F11): a pack minted by another process on the same store (the CLI's
 * `bench-bounty award` beside a running `serve`) queues no job in this one, and the start-up sweep
 * ({@link enqueuePackedAwards}) has already run. Each call reads the stored packs' slugs
 * (`platform.packedSlugs()`, one query, no bytes) and queues those without a job through
 * `enqueueIfPacked` (`enqueueFirst` below it: of every process sweeping one store, one queues the
 * job, and a job once queued is never queued again by a sweep, so an award is verified once). A slug
 * seen with a job is remembered and not read again.
 * @returns a function that sweeps once and resolves with the slugs it queued; it rejects when the
 *   store cannot be read
 */
export function packSweep(
  platform: Platform,
  jobs: VerificationJobReader,
  enqueueIfPacked: (slug: string) => Promise<boolean>,
): () => Promise<string[]> {
  const withJob = new Set<string>();
  return async () => {
    const queued: string[] = [];
    for (const slug of await platform.packedSlugs()) {
      if (withJob.has(slug)) continue;
      if (await enqueueIfPacked(slug)) queued.push(slug);
      if ((await jobs.get(slug)) !== null) withJob.add(slug);
    }
    return queued;
  };
}

/**
 * Sweeps, then starts the loop and the periodic sweep ({@link packSweep}, every `sweepMs`; a failed
 * sweep is told to `onStep` as a `retry` of the queue and tried again at the next interval).
 * @returns `stop()`, resolving once the step and the sweep in progress have finished, the slugs the
 *   start-up sweep queued and those it could not bring to the door ({@link enqueuePackedAwards})
 */
export async function startVerifier(
  platform: Platform,
  o: VerifierOptions & { enqueueIfPacked: (slug: string) => Promise<boolean> },
): Promise<{ stop(): Promise<void>; queued: string[]; refused: { slug: string; error: string }[] }> {
  const { queued, refused } = await enqueuePackedAwards(platform, o.enqueueIfPacked);
  const worker = startWorker(verifierDeps(platform, o), {
    ...(o.pollMs !== undefined ? { pollMs: o.pollMs } : {}),
    ...(o.onStep ? { onStep: o.onStep } : {}),
  });
  const sweepMs = o.sweepMs ?? PACK_SWEEP_MS;
  const now = o.now ?? Date.now;
  const sweep = packSweep(platform, o.jobs, o.enqueueIfPacked);
  let stopped = false;
  let sweeping: Promise<void> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const tick = (): void => {
    if (stopped) return;
    sweeping = sweep().then(
      (slugs) => {
        if (slugs.length > 0) o.onSweep?.(slugs);
      },
      (e: unknown) =>
        o.onStep?.({
          kind: "retry",
          slug: "",
          nextAt: now() + sweepMs,
          error: e instanceof Error ? `${e.name}: ${e.message}` : String(e),
        }),
    );
    void sweeping.then(() => {
      if (!stopped) timer = setTimeout(tick, sweepMs);
    });
  };
  timer = setTimeout(tick, sweepMs);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await Promise.all([worker.stop(), sweeping]);
    },
    queued,
    refused,
  };
}
