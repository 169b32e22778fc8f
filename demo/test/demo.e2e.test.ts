/**
 * End to end: runs the demo (small dataset, two attempts) with the processes held open, then checks its
 * outputs independently against the chain and the indexer it left running:
 * - the pack written to out/pack.json verifies under the `full` policy with every fact `verified`;
 * - the indexer's award equals the chain's `Awarded` log;
 * - the claimed balances are right (each winner's credit paid to where it claimed, nothing left over).
 */
import { anchorRegistryAbi, ANCHOR_KINDS, benchmarkBountyAbi, testUsdcAbi } from "@bench-bounty/contracts";
import { parseEvidencePack, packHash } from "@bench-bounty/evidence";
import { FACT_NAMES, verifyPack } from "@bench-bounty/verifier";
import { spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createPublicClient, getAddress, http, type Address, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_NAMES, AUTHOR_AGENT } from "../src/options.mjs";
import { INDEPENDENT_CHECK, PHASES, runDemo, type DemoResult } from "../src/run.js";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** A port p such that p, p+1 and p+2 are free on 127.0.0.1 now (for `--base-port`; probe27 B-F7). */
async function threeFreePorts(): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const srv = createServer();
      srv.once("error", () => resolve(false));
      srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
    });
  for (let i = 0; i < 50; i++) {
    const base = 20_000 + Math.floor(Math.random() * 40_000);
    if ((await free(base)) && (await free(base + 1)) && (await free(base + 2))) return base;
  }
  throw new Error("no three consecutive free ports found");
}

describe("npm run demo, end to end", () => {
  let outDir: string;
  let result: DemoResult;
  let basePort: number;
  const lines: string[] = [];

  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), "bench-bounty-demo-test-"));
    basePort = await threeFreePorts();
    result = await runDemo(
      {
        size: 24,
        publicFraction: 0.25,
        agents: [...AGENT_NAMES],
        seed: 7,
        attempts: 2,
        prizeUsdc: 100,
        outDir,
        keepRunning: false,
        verbose: false,
        basePort,
      },
      { log: (l) => lines.push(l), hold: true },
    );
    if (!result.ok) console.error(lines.join("\n"));
  });

  afterAll(async () => {
    await result?.stop();
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  const client = () => createPublicClient({ transport: http(result.rpcUrl!) });
  const pack = () => parseEvidencePack(readFileSync(join(outDir, "pack.json")));

  it("--base-port: the chain, the indexer and the service listen on the three ports asked for (probe27 B-F7)", () => {
    expect(new URL(result.rpcUrl!).port).toBe(String(basePort));
    expect(new URL(result.indexerUrl!).port).toBe(String(basePort + 1));
    expect(new URL(result.serviceUrl!).port).toBe(String(basePort + 2));
  });

  it("runs every phase and writes pack.json, verification.json and report.md", () => {
    expect(result.phases.map((p) => [p.name, p.status])).toEqual(PHASES.map((n) => [n, "ok"]));
    expect(result.ok).toBe(true);
    for (const f of ["pack.json", "verification.json", "report.md"])
      expect(existsSync(join(outDir, f))).toBe(true);
    const report = readFileSync(join(outDir, "report.md"), "utf8");
    for (const name of PHASES) expect(report).toContain(`| ${name} | ok |`);
    expect(report).toMatch(/Total: \d+\.\d s\./);
  });

  it("writes the pack the door serves, byte for byte, and its hash is anchored", async () => {
    const url = `${result.serviceUrl}/api/v1/benchmarks/${result.slug}/award-evidence`;
    const served = new Uint8Array(await (await fetch(url)).arrayBuffer());
    expect(Buffer.from(served).equals(readFileSync(join(outDir, "pack.json")))).toBe(true);
    const p = pack();
    expect(p.pack_hash).toBe(packHash(p));
    const [, block, , kind] = await client().readContract({
      address: result.contracts!.anchorRegistry,
      abi: anchorRegistryAbi,
      functionName: "anchorOf",
      args: [p.pack_hash as Hex],
    });
    expect(block).toBeGreaterThan(0n);
    expect(kind).toBe(ANCHOR_KINDS.pack);
  });

  it("the pack verifies under the full policy with every fact verified (fresh verifier run on out/pack.json)", async () => {
    const report = await verifyPack({
      source: join(outDir, "pack.json"),
      rpcUrl: result.rpcUrl!,
      indexerUrl: result.indexerUrl!,
      policy: "full",
    });
    expect(report.policy_met).toBe(true);
    expect(Object.keys(report.facts)).toEqual([...FACT_NAMES]);
    for (const name of FACT_NAMES) expect([name, report.facts[name].state]).toEqual([name, "verified"]);
    const written = JSON.parse(readFileSync(join(outDir, "verification.json"), "utf8"));
    expect(written.policy).toBe("full");
    expect(written.policy_met).toBe(true);
    expect(Object.values(written.facts).map((f) => (f as { state: string }).state)).toEqual(
      FACT_NAMES.map(() => "verified"),
    );
  });

  const hasPython = spawnSync("python3", ["--version"]).status === 0;

  it.skipIf(!hasPython)(
    "an independent Python implementation of the SPEC accepts the pack, against the chain too",
    () => {
      expect(result.independent?.ran).toBe(true);
      expect(result.independent?.passed).toBe(true);
      const r = spawnSync(
        "python3",
        [INDEPENDENT_CHECK, join(outDir, "pack.json"), "--rpc", result.rpcUrl!],
        {
          encoding: "utf8",
        },
      );
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      const lines = r.stdout.trim().split("\n");
      expect(lines.at(-1)).toBe("independent check: 12/12 passed");
      expect(lines.filter((l) => l.startsWith("ok "))).toHaveLength(12);
    },
  );

  it.skipIf(!hasPython)("the independent check refuses a pack whose money was moved", () => {
    const doc = JSON.parse(readFileSync(join(outDir, "pack.json"), "utf8"));
    const [first, second] = doc.winners;
    first.amount_base_units = String(BigInt(first.amount_base_units) - 1_000_000n);
    second.amount_base_units = String(BigInt(second.amount_base_units) + 1_000_000n);
    const tampered = join(outDir, "tampered.json");
    writeFileSync(tampered, JSON.stringify(doc));
    const r = spawnSync("python3", [INDEPENDENT_CHECK, tampered], { encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^FAIL pack_hash/m);
    expect(r.stdout).toMatch(/^FAIL selection_and_payouts .*winner amounts differ from the place amounts/m);
  });

  it("the indexer's award equals the chain's Awarded log", async () => {
    const p = pack();
    const bountyId = BigInt(p.benchmark.bounty_id);
    const logs = await client().getContractEvents({
      address: result.contracts!.benchmarkBounty,
      abi: benchmarkBountyAbi,
      eventName: "Awarded",
      args: { bountyId },
      fromBlock: 0n,
    });
    expect(logs).toHaveLength(1);
    const ev = logs[0]!.args;
    const body = (await (await fetch(`${result.indexerUrl}/awards`)).json()) as {
      items: {
        bountyId: string;
        authorRemainder: string;
        rankingDigest: string;
        awardedTx: string;
        winners: {
          place: number;
          account: string;
          amount: string;
          claimedAmount: string;
          outstanding: string;
        }[];
      }[];
    };
    const award = body.items.find((a) => String(a.bountyId) === bountyId.toString());
    expect(award).toBeDefined();
    const winners = [...award!.winners].sort((a, b) => a.place - b.place);
    expect(winners.map((w) => getAddress(w.account))).toEqual(ev.winners!.map((a) => getAddress(a)));
    expect(winners.map((w) => String(w.amount))).toEqual(ev.amounts!.map(String));
    expect(String(award!.authorRemainder)).toBe(ev.authorRemainder!.toString());
    expect(award!.rankingDigest.toLowerCase()).toBe(ev.rankingDigest!.toLowerCase());
    expect(award!.awardedTx.toLowerCase()).toBe(logs[0]!.transactionHash.toLowerCase());
    // and the pack names the same award
    expect(p.benchmark.award_tx).toBe(logs[0]!.transactionHash.toLowerCase());
    expect(p.winners.map((w) => w.withdrawal_address)).toEqual(ev.winners!.map((a) => a.toLowerCase()));
    expect(p.winners.map((w) => w.amount_base_units)).toEqual(ev.amounts!.map(String));
    // after the claims the indexer shows nothing outstanding
    for (const w of winners) {
      expect(String(w.claimedAmount)).toBe(String(w.amount));
      expect(String(w.outstanding)).toBe("0");
    }
  });

  it("the claimed balances are right: each winner's amount reached where it claimed, no credit is left", async () => {
    const p = pack();
    const bountyId = BigInt(p.benchmark.bounty_id);
    const c = client();
    const usdc = (a: string) =>
      c.readContract({
        address: result.contracts!.usdc,
        abi: testUsdcAbi,
        functionName: "balanceOf",
        args: [a as Address],
      });
    expect(p.winners.length).toBe(3);
    expect(p.winners.map((w) => w.agent_id)).not.toContain(AUTHOR_AGENT);
    const pool = BigInt(p.benchmark.pool_base_units);
    expect(pool).toBe(100_000_000n);
    expect(p.winners.reduce((s, w) => s + BigInt(w.amount_base_units), 0n)).toBe(pool);
    const claims = result.claims!;
    expect(claims.map((cl) => cl.place)).toEqual([1, 2, 3]);
    // Place 1 claimed to another address; the others to themselves.
    expect(claims[0]!.to).not.toBe(claims[0]!.account);
    for (const cl of claims.slice(1)) expect(cl.to).toBe(cl.account);
    for (const w of p.winners) {
      const cl = claims.find((x) => x.place === w.place)!;
      expect(cl.account).toBe(w.withdrawal_address);
      expect(cl.amount).toBe(w.amount_base_units);
      // The agent owners held no USDC before: what they hold now is exactly what they claimed.
      expect(await usdc(cl.to)).toBe(BigInt(w.amount_base_units));
      if (cl.to !== cl.account) expect(await usdc(cl.account)).toBe(0n);
      const credit = await c.readContract({
        address: result.contracts!.benchmarkBounty,
        abi: benchmarkBountyAbi,
        functionName: "creditOf",
        args: [bountyId, w.withdrawal_address as Address],
      });
      expect(credit).toBe(0n);
    }
    // The whole pool left the contract.
    expect(await usdc(result.contracts!.benchmarkBounty)).toBe(0n);
  });

  it("prints the leaderboard, award, claims, verification facts, indexer history and output paths", () => {
    const out = lines.join("\n");
    for (const heading of [
      "── leaderboard",
      "── award: bounty",
      "── claims ──",
      "── verification facts (policy full: met) ──",
      "── award history as the indexer serves it",
      "── outputs",
    ]) {
      expect(out).toContain(heading);
    }
    expect(out).toContain(join(outDir, "pack.json"));
    expect(out).toContain(join(outDir, "verification.json"));
    expect(out).toContain(join(outDir, "report.md"));
    expect(out).toMatch(/✓ demo finished in \d/);
  });
});

describe("npm run demo -- --help", () => {
  const cli = (args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", join("demo", "src", "main.ts"), ...args], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    });

  it("lists the options and exits 0 without starting anything", () => {
    const r = cli(["--help"]);
    expect(r.status).toBe(0);
    for (const opt of ["--size", "--agents", "--seed", "--attempts", "--keep-running", "--out", "--prize"]) {
      expect(r.stdout).toContain(opt);
    }
  });

  it("refuses an unknown agent with a message naming the option", () => {
    const r = cli(["--agents", "always-sun,nobody"]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("--agents");
    expect(r.stderr).toContain("unknown agent nobody");
  });
});
