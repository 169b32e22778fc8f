/**
 * The verifier worker running inside `bench-bounty serve` (issue 17 item 2): at start it queues every
 * benchmark whose award pack exists and has no job yet, then loops over the queue
 * ({@link startWorker}: due jobs at once, every `pollMs` when idle, a lease per attempt, backoff while
 * the chain or indexer cannot be read), verifying each pack as the door serves it under the `full`
 * policy with `verifyPack` of `@bench-bounty/verifier`.
 */
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { Platform } from "@bench-bounty/platform";
import { verifyPack } from "@bench-bounty/verifier";
import { WORKER_POLICY } from "./view.js";
import { startWorker, type StepOutcome, type VerificationQueue, type WorkerDeps } from "./worker.js";

/** Options of {@link startVerifier}. */
export interface VerifierOptions {
  jobs: VerificationQueue;
  /** The chain's JSON-RPC URL (the chain facts are `not-observed` without it). */
  rpcUrl?: string | undefined;
  /** The indexer's base URL (`indexer_agreement` is `not-observed` without it). */
  indexerUrl?: string | undefined;
  /** Idle poll interval (ms, default 1000). */
  pollMs?: number;
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

/** The worker's ports over a platform. */
export function verifierDeps(platform: Platform, o: VerifierOptions): WorkerDeps {
  return {
    jobs: o.jobs,
    worker: `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`,
    now: o.now ?? Date.now,
    ...(o.leaseMs !== undefined ? { leaseMs: o.leaseMs } : {}),
    async readPack(slug) {
      const door = await platform.awardEvidence(slug);
      if (door.status !== 200) throw new PackUnavailable(`${slug}: ${door.reason}: ${door.message}`);
      return door.bytes;
    },
    verify: (pack) =>
      verifyPack({
        source: pack,
        policy: WORKER_POLICY,
        ...(o.rpcUrl ? { rpcUrl: o.rpcUrl } : {}),
        ...(o.indexerUrl ? { indexerUrl: o.indexerUrl } : {}),
      }),
  };
}

/**
 * Queues every benchmark whose pack is at the door and that has no job (the startup sweep).
 * @returns the slugs queued
 */
export async function enqueuePackedAwards(
  platform: Platform,
  enqueueIfPacked: (slug: string) => Promise<boolean>,
): Promise<string[]> {
  const queued: string[] = [];
  for (const b of await platform.listBenchmarks()) if (await enqueueIfPacked(b.slug)) queued.push(b.slug);
  return queued;
}

/**
 * Sweeps, then starts the loop.
 * @returns `stop()`, resolving once the step in progress has finished, and the slugs the sweep queued
 */
export async function startVerifier(
  platform: Platform,
  o: VerifierOptions & { enqueueIfPacked: (slug: string) => Promise<boolean> },
): Promise<{ stop(): Promise<void>; queued: string[] }> {
  const queued = await enqueuePackedAwards(platform, o.enqueueIfPacked);
  const worker = startWorker(verifierDeps(platform, o), {
    ...(o.pollMs !== undefined ? { pollMs: o.pollMs } : {}),
    ...(o.onStep ? { onStep: o.onStep } : {}),
  });
  return { stop: () => worker.stop(), queued };
}
