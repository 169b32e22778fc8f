/**
 * Test helpers for the deploy tasks: a local Base-profile node
 * (@bench-bounty/devchain) and a runner that invokes `npx hardhat <task>` as a
 * user would, over the whole path (CLI parsing, environment, chain, output).
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { expect } from "chai";
import type { DevChain } from "@bench-bounty/devchain";

export const REPO_ROOT = path.join(__dirname, "..", "..");
const HARDHAT = path.join(REPO_ROOT, "node_modules", ".bin", "hardhat");

/** The repository's copy of the protocol, `spec/` (SPEC.md, vectors/). */
export function specDir(): string {
  return path.join(REPO_ROOT, "spec");
}

/** Path of `vectors/<name>` in `spec/` (read it raw for a lossless parse or a byte-exact copy). */
export function vectorPath(name: string): string {
  return path.join(specDir(), "vectors", name);
}

/** Parsed `vectors/<name>` (plain JSON.parse: these files hold no floats or big integers we read). */
export function vector<T = unknown>(name: string): T {
  return JSON.parse(fs.readFileSync(vectorPath(name), "utf8")) as T;
}

/** Starts a devchain (ESM package, loaded with require(esm)). */
export async function startChain(): Promise<DevChain> {
  const { startDevChain } = await import("@bench-bounty/devchain");
  return startDevChain();
}

/** A fresh temp directory, removed by the caller. */
export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "bench-bounty-deploy-test-"));
}

/** Writes `value` as JSON (or raw text) to `dir/name` and returns the path. */
export function writeFile(dir: string, name: string, value: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value, null, 2));
  return file;
}

/** Result of a task run. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Environment of a task run: nothing of the developer's own keys or RPC URLs leaks in. */
function taskEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of [
    "DEPLOYER_PRIVATE_KEY",
    "BASE_RPC_URL",
    "BASE_SEPOLIA_RPC_URL",
    "LOCAL_RPC_URL",
    "HARDHAT_NETWORK",
    "BASE_FORK_BLOCK",
  ]) {
    delete env[k];
  }
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Runs `hardhat <args>` in the repo with the given environment. */
export function hardhat(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return execRun(HARDHAT, args, env);
}

/** Runs `file <args>` in the repo with the tasks' environment ({@link taskEnv}): its exit code and output. */
function execRun(file: string, args: string[], env: Record<string, string | undefined>): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { cwd: REPO_ROOT, env: taskEnv(env), maxBuffer: 16 * 1024 * 1024, timeout: 240_000 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== "number") return reject(error);
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}

/** Asserts a successful run and returns its stdout. */
export function expectOk(run: Run): string {
  expect(run.code, `exit code; stderr:\n${run.stderr}\nstdout:\n${run.stdout}`).to.equal(0);
  return run.stdout;
}

/**
 * Asserts a refusal: exit code 1, one `Error: ...` message matching `pattern`
 * on stderr, and no stack trace.
 */
export function expectRefusal(run: Run, pattern: RegExp): void {
  expect(run.code, `exit code; stdout:\n${run.stdout}\nstderr:\n${run.stderr}`).to.equal(1);
  expect(run.stderr).to.match(/^Error: /m);
  expect(run.stderr).to.match(pattern);
  expect(run.stderr, "no stack trace").not.to.match(/^\s+at /m);
}

/** A runner bound to a devchain: `--network localhost` and its RPC URL, its local deployment file. */
export function localRunner(chain: DevChain, localDeployment: string) {
  return (args: string[], env: Record<string, string | undefined> = {}) =>
    hardhat([...args, "--network", "localhost"], localEnv(chain, localDeployment, env));
}

function localEnv(chain: DevChain, localDeployment: string, env: Record<string, string | undefined>) {
  return { LOCAL_RPC_URL: chain.rpcUrl, BENCH_BOUNTY_LOCAL_DEPLOYMENT: localDeployment, ...env };
}

/**
 * {@link localRunner}'s run with standard output piped into `head -1` (a reader that closes the pipe after
 * one line): the task's own exit code, `head`'s line as stdout.
 */
export function localRunnerIntoHead(chain: DevChain, localDeployment: string) {
  return (args: string[]): Promise<Run> =>
    execRun(
      "bash",
      ["-c", '"$0" "$@" | head -1; exit "${PIPESTATUS[0]}"', HARDHAT, ...args, "--network", "localhost"],
      localEnv(chain, localDeployment, {}),
    );
}

/**
 * A local deployment file in `dir` (BENCH_BOUNTY_LOCAL_DEPLOYMENT; tests never write
 * deploy/.local): with `chain`, it holds that devchain's deployment; without, it does not exist yet.
 */
export function localDeploymentFile(dir: string, chain?: DevChain): string {
  const file = path.join(dir, "local-deployment.json");
  if (chain) {
    const entry = {
      network: "localhost",
      benchmarkBounty: chain.contracts.benchmarkBounty,
      anchorRegistry: chain.contracts.anchorRegistry,
      usdc: chain.contracts.usdc,
      startBlock: chain.startBlock,
    };
    fs.writeFileSync(file, JSON.stringify(entry, null, 2));
  }
  return file;
}

/**
 * Anchors each digest of `digests` not anchored yet as a receipt (account #0 signs), as the platform
 * anchors every run's receipt: `bounty:award` refuses rows whose receipt hashes are not anchored
 * (probe35 C-F3). Takes a rank-derivation or pack file too: its rows' `receipt_hash`es.
 */
export async function anchorReceipts(chain: DevChain, digests: readonly string[] | string): Promise<void> {
  const { anchorRegistryAbi, ANCHOR_KINDS } = await import("@bench-bounty/contracts");
  let hashes: readonly string[];
  if (typeof digests === "string") {
    const doc = JSON.parse(fs.readFileSync(digests, "utf8")) as {
      rank_derivation?: { rows: { receipt_hash: string }[] };
      rows?: { receipt_hash: string }[];
    };
    hashes = (doc.rank_derivation ?? doc).rows!.map((r) => r.receipt_hash);
  } else hashes = digests;
  for (const digest of hashes) {
    const record = await chain.publicClient.readContract({
      address: chain.contracts.anchorRegistry,
      abi: anchorRegistryAbi,
      functionName: "anchorOf",
      args: [digest as `0x${string}`],
    });
    if (!/^0x0{40}$/.test(record[0])) continue;
    const hash = await chain.wallet(0).writeContract({
      address: chain.contracts.anchorRegistry,
      abi: anchorRegistryAbi,
      functionName: "anchor",
      args: [digest as `0x${string}`, ANCHOR_KINDS.receipt],
    });
    await chain.publicClient.waitForTransactionReceipt({ hash });
  }
}

/** Block number of the chain (to prove that a refusal sent nothing). */
export async function blockNumber(chain: DevChain): Promise<bigint> {
  return chain.publicClient.getBlockNumber();
}

/** Latest block timestamp, unix seconds. */
export async function chainTime(chain: DevChain): Promise<bigint> {
  return (await chain.publicClient.getBlock()).timestamp;
}

/**
 * A valid `bounty:lock` command line (the `three-rows` test set of the shared vectors, written to `dir`;
 * a pool of 1, closing in 1000 s) to add options to; `--allow-unanchored`, as its root is not anchored
 * (probe34 C-F3).
 */
export async function lockCommand(chain: DevChain, dir: string): Promise<string[]> {
  const { parseJson, canonicalJsonString } = await import("@bench-bounty/evidence");
  const commitments = parseJson(fs.readFileSync(vectorPath("commitment.json"))) as {
    test_sets: { name: string; rows: unknown }[];
  };
  const rows = commitments.test_sets.find((t) => t.name === "three-rows")!.rows;
  const file = writeFile(dir, "lock-set.json", canonicalJsonString({ test_set: rows }));
  const now = await chainTime(chain);
  return [
    ...["bounty:lock", "--test-set", file, "--pool", "1", "--threshold-bps", "0"],
    ...["--closes-at", String(now + 1000n), "--award-deadline", String(now + 100000n)],
    ...["--payout-rule", "winner_take_all", "--allow-unanchored"],
  ];
}

/**
 * A bare `hardhat node` (chain id 8453, nothing deployed), for the deployment
 * tests; with `profile`, the local Base profile (test USDC at the Base USDC
 * address, `BENCH_BOUNTY_DEVCHAIN=profile`). Resolves with its URL and a stop function.
 */
export function startBareNode(
  opts: { profile?: boolean } = {},
): Promise<{ rpcUrl: string; stop: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(HARDHAT, ["node", "--hostname", "127.0.0.1", "--port", "0"], {
      cwd: REPO_ROOT,
      env: taskEnv({
        BENCH_BOUNTY_DEVCHAIN: opts.profile ? "profile" : undefined,
        BENCH_BOUNTY_DEVCHAIN_PARENT_PID: String(process.pid),
      }),
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    const stop = async () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ESRCH") throw e; // ESRCH: gone
      }
      await exited;
    };
    process.once("exit", () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ESRCH") throw e; // ESRCH: gone
      }
    });
    let out = "";
    const timer = setTimeout(() => reject(new Error(`bare node not ready:\n${out}`)), 120_000);
    child.stdout!.on("data", (d: Buffer) => {
      out = (out + d.toString()).slice(-10_000);
      const m = /Started HTTP and WebSocket JSON-RPC server at (http:\/\/[0-9.]+:\d+)\//.exec(out);
      if (m && (!opts.profile || out.includes("Local Base profile: test USDC placed"))) {
        clearTimeout(timer);
        resolve({ rpcUrl: m[1]!, stop });
      }
    });
    child.stderr!.on("data", (d: Buffer) => {
      out = (out + d.toString()).slice(-10_000);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`bare node exited (${code}):\n${out}`));
    });
  });
}

/** A JSON-RPC call against a node URL. */
export async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result as T;
}

/**
 * The CREATE2 addresses of the current artifacts, computed here independently of
 * the code under test: CreateX's address for `keccak256(abi.encode(salt))` and
 * the creation bytecode (neither contract has constructor arguments).
 */
export function artifactAddresses(): { benchmarkBounty: string; anchorRegistry: string } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: loaded only by the tests that compare addresses
  const { ethers } = require("ethers") as typeof import("ethers");
  const { CREATEX_ADDRESS, DEPLOYMENT_SALT } =
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: the built package is read only when this is called
    require("@bench-bounty/contracts") as typeof import("@bench-bounty/contracts");
  const at = (name: string) => {
    const artifact = JSON.parse(
      fs.readFileSync(path.join(REPO_ROOT, "artifacts", "contracts", `${name}.sol`, `${name}.json`), "utf8"),
    ) as { bytecode: string };
    const guarded = ethers.keccak256(DEPLOYMENT_SALT); // abi.encode(bytes32) is the word itself
    return ethers.getCreate2Address(CREATEX_ADDRESS, guarded, ethers.keccak256(artifact.bytecode));
  };
  return { benchmarkBounty: at("BenchmarkBounty"), anchorRegistry: at("AnchorRegistry") };
}

/**
 * Runs tasks inside this process (one Hardhat runtime, `--network localhost`
 * on the devchain), taking the same argv as the command line: parameters are
 * parsed with the tasks' own Hardhat argument types, output is captured, and a
 * thrown TaskError becomes exit code 1 with `Error: <message>` on stderr, as the
 * CLI prints it (deploy/lib/errors.ts `userAction`). The command-line wiring
 * itself is covered by the subprocess runs of {@link hardhat}.
 *
 * Must be the only Hardhat runtime of the process: the environment is read once.
 */
export function inProcessRunner(chain: DevChain, localDeployment: string) {
  process.env.HARDHAT_NETWORK = "localhost";
  process.env.LOCAL_RPC_URL = chain.rpcUrl;
  process.env.BENCH_BOUNTY_LOCAL_DEPLOYMENT = localDeployment;
  for (const k of ["DEPLOYER_PRIVATE_KEY", "BASE_RPC_URL", "BASE_SEPOLIA_RPC_URL"]) delete process.env[k];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: Hardhat reads HARDHAT_NETWORK and the env set just above when it loads
  const hre = require("hardhat") as import("hardhat/types").HardhatRuntimeEnvironment;
  if (hre.network.name !== "localhost")
    throw new Error("a Hardhat runtime was already loaded for another network");

  return async (argv: string[]): Promise<Run> => {
    const [name, ...rest] = argv;
    const def = hre.tasks[name!];
    if (!def) throw new Error(`no task ${name}`);
    const args: Record<string, unknown> = {};
    for (let i = 0; i < rest.length; i++) {
      const flag = rest[i]!;
      if (!flag.startsWith("--")) throw new Error(`unexpected argument ${flag}`);
      const key = flag.slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
      const param = def.paramDefinitions[key];
      if (!param) throw new Error(`task ${name} has no parameter ${flag}`);
      if (param.isFlag) args[key] = true;
      else
        args[key] = (param.type as unknown as { parse(n: string, v: string): unknown }).parse(
          key,
          rest[++i]!,
        );
    }
    let stdout = "";
    let stderr = "";
    const log = console.log;
    const error = console.error;
    console.log = (...a: unknown[]) => void (stdout += a.map(String).join(" ") + "\n");
    console.error = (...a: unknown[]) => void (stderr += a.map(String).join(" ") + "\n");
    try {
      await hre.run(name!, args);
      return { code: 0, stdout, stderr };
    } catch (e) {
      if ((e as Error).name === "TaskError")
        return { code: 1, stdout, stderr: stderr + `Error: ${(e as Error).message}\n` };
      throw e;
    } finally {
      console.log = log;
      console.error = error;
    }
  };
}

/**
 * A local chain for one describe block's task runs (mocha `before`/`after`): `chain`, `dir` (its
 * deployment file's folder, removed after), `run` (the tasks against it) and `refuses` (a task refused
 * with a line matching `pattern`, and no block mined: nothing sent).
 */
export function useTaskChain(): {
  chain: DevChain;
  dir: string;
  run: ReturnType<typeof localRunner>;
  refuses: (args: string[], pattern: RegExp) => Promise<void>;
} {
  const local = {
    refuses: async (args: string[], pattern: RegExp) => {
      const before = await blockNumber(local.chain);
      expectRefusal(await local.run(args), pattern);
      expect(await blockNumber(local.chain), "a refusal sends nothing").to.equal(before);
    },
  } as ReturnType<typeof useTaskChain>;
  before(async function () {
    local.chain = await startChain();
    local.dir = tempDir();
    local.run = localRunner(local.chain, localDeploymentFile(local.dir, local.chain));
  });
  after(async function () {
    await local.chain?.stop();
    if (local.dir) fs.rmSync(local.dir, { recursive: true, force: true });
  });
  return local;
}

/** One credit a fake indexer ({@link startIndexer}) lists: its bounty and token (lower-case, as the indexer stores addresses). */
export interface IndexedCredit {
  bountyId: bigint;
  token: string;
}

/**
 * A fake indexer's `GET /accounts/:address/credits` (indexer/src/api: `token`, `limit`, `cursor`; the
 * credits newest first, `nextCursor` the last id of a full page), listing `credits` with 1 base unit
 * outstanding each (the tasks re-read every amount on-chain). Each request's query is kept in
 * `requests`, and `served` counts the credits answered. `GET /status` answers `status()` (Ponder's
 * `{ <chain>: { id, block: { number, timestamp } } }`, see {@link indexerStatus}), or 404 without it.
 */
export async function startIndexer(
  credits: () => IndexedCredit[],
  status?: () => unknown,
): Promise<{
  url: string;
  requests: URLSearchParams[];
  served: () => number;
  close: () => Promise<void>;
}> {
  const requests: URLSearchParams[] = [];
  let served = 0;
  const server = http.createServer((req, res) => {
    const { pathname, searchParams: q } = new URL(req.url ?? "/", "http://x");
    if (pathname === "/status") {
      if (!status) return void res.writeHead(404, { "content-type": "application/json" }).end("{}");
      return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(status()));
    }
    requests.push(q);
    const token = q.get("token")?.toLowerCase();
    const cursor = q.get("cursor");
    const limit = Number(q.get("limit") ?? "50");
    const rows = credits()
      .filter((c) => token === undefined || c.token === token)
      .filter((c) => cursor === null || c.bountyId < BigInt(cursor))
      .sort((a, b) => (a.bountyId > b.bountyId ? -1 : 1));
    const page = rows.slice(0, limit);
    served += page.length;
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        account: "0x",
        totals: [],
        credits: page.map((c) => ({ bountyId: String(c.bountyId), token: c.token, outstanding: "1" })),
        nextCursor: rows.length > limit ? String(page.at(-1)!.bountyId) : null,
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    served: () => served,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Ponder's `GET /status` answer of an indexer at block `number` of chain `id` (named `base`). */
export function indexerStatus(id: number, number: number | bigint): unknown {
  return { base: { id, block: { number: Number(number), timestamp: 0 } } };
}

/** packs/small.json's rank derivation alone, its rows' receipts dropped (they name another root). */
async function rankDerivationOnly(packText: string): Promise<string> {
  const { parseJson, canonicalJsonString } = await import("@bench-bounty/evidence");
  const pack = parseJson(packText) as unknown as { rank_derivation: { rows: Record<string, unknown>[] } };
  for (const row of pack.rank_derivation.rows) delete row.receipt;
  return canonicalJsonString({ rank_derivation: pack.rank_derivation });
}

/** A closed bounty awarded from the small vector pack ({@link closedSmallPackBounty}). */
export interface SmallPackBounty {
  id: bigint;
  /** `bounty:award` of it by the awarder, from the pack's rank derivation, vec-a/c/d paid to w1..w3. */
  awardArgs: string[];
}

/**
 * Locks, through `run` (the tasks against the chain or a proxy in front of it), a bounty of 12.345679 USDC
 * by `author` on an unanchored root ending in `rootTag` (12 leaves, top_n_split, 5000 bps, `awarder`), the
 * small vector pack's receipts anchored first (an award refuses unanchored receipts), and moves the chain
 * past its close. Files go in `dir`.
 * @param winners the withdrawal addresses of vec-a, vec-c and vec-d
 */
export async function closedSmallPackBounty(
  chain: DevChain,
  dir: string,
  run: (args: string[]) => Promise<Run>,
  who: { author: string; awarder: string; winners: readonly [string, string, string] },
  rootTag: string,
): Promise<SmallPackBounty> {
  await chain.mintUsdc(who.author as `0x${string}`, 100_000_000n);
  await anchorReceipts(chain, vectorPath("packs/small.json"));
  const commitment = writeFile(dir, "commitment.json", {
    root: "0x" + rootTag.padStart(64, "0"),
    leafCount: 12,
  });
  const now = await chainTime(chain);
  const lock = expectOk(
    await run([
      ...["bounty:lock", "--from", who.author, "--commitment", commitment, "--pool", "12.345679"],
      ...["--closes-at", String(now + 60n), "--award-deadline", String(now + 7200n)],
      ...["--payout-rule", "top_n_split", "--threshold-bps", "5000", "--awarder", who.awarder],
      "--allow-unanchored", // a root no one anchored: the tests are about the award and the views
    ]),
  );
  const id = BigInt(/Bounty (\d+) locked/.exec(lock)![1]!);
  await chain.increaseTime(61);
  const rd = writeFile(
    dir,
    "rd.json",
    await rankDerivationOnly(fs.readFileSync(vectorPath("packs/small.json"), "utf8")),
  );
  const [w1, w2, w3] = who.winners;
  const withdrawals = writeFile(dir, "withdrawals.json", { "vec-a": w1, "vec-c": w2, "vec-d": w3 });
  const awardArgs = ["bounty:award", "--from", who.awarder, "--id", String(id), "--rank-derivation", rd];
  awardArgs.push("--withdrawals-file", withdrawals);
  return { id, awardArgs };
}
