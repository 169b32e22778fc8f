import { startDevChain, type DevChain } from "@bench-bounty/devchain";
import { Command } from "commander";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, vi } from "vitest";
import type { ChainConfig } from "../src/chain.js";
import { registerPlatformCommands } from "../src/cli.js";
import type { DatasetInput } from "../src/dataset.js";
import { PlatformError } from "../src/errors.js";
import { Platform, type PlatformOptions } from "../src/platform.js";

/** A manual clock (unix ms) for tests. */
export function manualClock(startMs = Date.UTC(2026, 0, 1)): {
  now: () => number;
  advance: (ms: number) => void;
  set: (ms: number) => void;
} {
  let t = startMs;
  return { now: () => t, advance: (ms) => void (t += ms), set: (ms) => void (t = ms) };
}

const dirs: string[] = [];

/** A fresh temporary store directory (removed by {@link cleanup}). */
export function tempDir(prefix = "bb-platform-"): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** Opens a platform on a fresh store. */
export function openTemp(opts: Partial<PlatformOptions> = {}): Platform {
  return Platform.open({ dir: tempDir(), ...opts });
}

/** Removes every store directory made by {@link tempDir} so far. */
export function cleanup(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** A small labelled dataset: `n` cities with a capital label. */
export function cities(n = 10, name = "cities"): DatasetInput {
  return {
    name,
    rows: Array.from({ length: n }, (_, i) => ({
      decision_ts: `2026-01-${String((i % 28) + 1).padStart(2, "0")}T00:00:00Z`,
      payload: { city: `City${i}`, index: i },
      label: `answer-${i}`,
    })),
  };
}

/** A deterministic in-process agent: answers `answer-<index>` read from the prompt, wrong on every third. */
export function promptAgent(prompt: string): string {
  const m = /#(\d+)/.exec(prompt);
  const i = Number(m?.[1] ?? -1);
  return i % 3 === 0 ? "wrong" : `answer-${i}`;
}

/**
 * Starts one local Base devchain for the whole test file: registers a `beforeAll` that starts it
 * (240 s allowed) and an `afterAll` that stops it and then runs {@link cleanup}.
 * @returns a getter for the running chain, to call inside a test
 */
export function useDevChain(): () => DevChain {
  let dc: DevChain | undefined;
  beforeAll(async () => {
    dc = await startDevChain();
  }, 240_000);
  afterAll(async () => {
    await dc?.stop();
    cleanup();
  });
  return () => {
    if (dc === undefined) throw new Error("the devchain is not running (call the getter inside a test)");
    return dc;
  };
}

/** The platform's chain settings on `dc`, sending as the funded account `accountIndex`. */
export function chainConfig(dc: DevChain, accountIndex: number): ChainConfig {
  return {
    rpcUrl: dc.rpcUrl,
    chainId: dc.chainId,
    contracts: dc.contracts,
    privateKey: dc.accounts[accountIndex]!.privateKey,
  };
}

/** The timestamp (unix seconds) of the chain's latest block. */
export async function latestBlockTime(dc: DevChain): Promise<number> {
  return Number((await dc.publicClient.getBlock()).timestamp);
}

/** The {@link PlatformError} that `fn` throws (the test fails if it throws anything else, or nothing). */
export function refusal(fn: () => unknown): PlatformError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(PlatformError);
    return e as PlatformError;
  }
  throw new Error("expected a refusal");
}

/** The {@link PlatformError} that `p` rejects with (the test fails if it rejects with anything else, or resolves). */
export async function rejection(p: Promise<unknown>): Promise<PlatformError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(PlatformError);
    return e as PlatformError;
  }
  throw new Error("expected a refusal");
}

/**
 * Runs the `bench-bounty` platform commands in-process with stdout and stderr captured.
 * @returns what was written to stdout and stderr, and the exit code: the one commander exits with
 *   (its own errors, on any subcommand) or else the one the command set on `process.exitCode`
 */
export async function runCli(...args: string[]): Promise<{ out: string; err: string; code: number }> {
  let out = "";
  let err = "";
  vi.spyOn(process.stdout, "write").mockImplementation(
    (s: string | Uint8Array) => ((out += String(s)), true),
  );
  vi.spyOn(process.stderr, "write").mockImplementation(
    (s: string | Uint8Array) => ((err += String(s)), true),
  );
  process.exitCode = 0;
  const program = registerPlatformCommands(new Command("bench-bounty").exitOverride());
  for (const c of program.commands) c.exitOverride();
  let code: number | undefined;
  try {
    await program.parseAsync(["node", "bench-bounty", ...args]);
  } catch (e) {
    code = (e as { exitCode?: number }).exitCode ?? 99;
  } finally {
    vi.restoreAllMocks();
  }
  code ??= Number(process.exitCode ?? 0);
  process.exitCode = 0;
  return { out, err, code };
}
