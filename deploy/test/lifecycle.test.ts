/**
 * The author / awarder / winner tasks over their whole path (`npx hardhat
 * <task> --network localhost`) against a local Base-profile node: lock with
 * permit and with approve, status and the lock check, award from the shared
 * vector packs, claim (one, several, all via logs and via an indexer, --to,
 * blacklisted winner), credits, reclaim, anchors; and every refusal, each
 * proven to send nothing (the block number does not move).
 *
 * Expected figures come from the shared vectors (an independent
 * implementation): the commitment root of `three-rows`, the place amounts and
 * ranking digest of `packs/small.json`, the receipt hash of `receipts.json`.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "chai";
import type { DevChain } from "@bench-bounty/devchain";
import { benchmarkBountyAbi, testUsdcAbi, anchorRegistryAbi, ANCHOR_KINDS } from "@bench-bounty/contracts";
import {
  anchorReceipts,
  blockNumber,
  chainTime,
  localDeploymentFile,
  expectOk,
  expectRefusal,
  inProcessRunner,
  localRunner,
  localRunnerIntoHead,
  REPO_ROOT,
  rpc,
  startChain,
  tempDir,
  vector,
  vectorPath,
  writeFile,
  type Run,
} from "./helpers";

type Pack = {
  benchmark: { ranking_digest: string; commit_root: string; leaf_count: number };
  rank_derivation: Record<string, unknown> & { rows: unknown[] };
};

/**
 * `{rank_derivation}` of a pack's text, written losslessly: a document that names no bounty (no `benchmark`).
 * Its rows embed their receipts, which name the vector's test-set root (only a bounty locked on that root
 * takes them: probe31 C-F3), unless `receipts` is false: rows without their receipts (optional, SPEC 8) name
 * no test set, for a bounty on another root.
 */
async function rankDerivationOnly(packText: string, { receipts = true } = {}): Promise<string> {
  const { parseJson, canonicalJsonString } = await import("@bench-bounty/evidence");
  const pack = parseJson(packText) as unknown as { rank_derivation: { rows: Record<string, unknown>[] } };
  if (!receipts) for (const row of pack.rank_derivation.rows) delete row.receipt;
  return canonicalJsonString({ rank_derivation: pack.rank_derivation });
}

/**
 * The parameters of one `bounty:lock` run, named as the task names them. Each
 * field given becomes `--flag value` (in the order of this interface); a field
 * left out is not passed, so a refusal can omit a flag or give both commitment
 * sources.
 */
interface LockFlags {
  from: string;
  /** A `{root, leafCount}` commitment file; normally exactly one of this and `testSet`. */
  commitment?: string;
  /** A test-set file the task commits itself. */
  testSet?: string;
  /** An ERC-20 other than the network's USDC. */
  token?: string;
  /** Whole token units, as typed on the command line. */
  pool: string;
  /** Unix seconds, or text the task must parse (or refuse). */
  closesAt: bigint | string;
  awardDeadline: bigint | string;
  /** `winner_take_all` or `top_n_split` (or a bad value to refuse); normally exactly one of this and `splits`. */
  payoutRule?: string;
  /** Place shares in bps, comma-separated. */
  splits?: string;
  thresholdBps: number;
  /** Defaults to the signer in the task. */
  awarder?: string;
  /**
   * `--allow-unanchored` (locks on a root not anchored as a commitment), passed unless this is false: the
   * tests lock on fresh roots nobody anchored; the anchor rule itself is tested with false (probe34 C-F3).
   */
  allowUnanchored?: boolean;
}

/** The argv of `bounty:lock` with `flags`; append plain flags (`--approve`, `--dry-run`, ...) to it. */
function lockArgs(flags: LockFlags): string[] {
  const args = ["bounty:lock", "--from", flags.from];
  const add = (flag: string, value: bigint | number | string | undefined) => {
    if (value !== undefined) args.push(flag, String(value));
  };
  add("--commitment", flags.commitment);
  add("--test-set", flags.testSet);
  add("--token", flags.token);
  add("--pool", flags.pool);
  add("--closes-at", flags.closesAt);
  add("--award-deadline", flags.awardDeadline);
  add("--payout-rule", flags.payoutRule);
  add("--splits", flags.splits);
  add("--threshold-bps", flags.thresholdBps);
  add("--awarder", flags.awarder);
  if (flags.allowUnanchored !== false) args.push("--allow-unanchored");
  return args;
}

/** The bounty id of a successful `bounty:lock` output (`Bounty <id> locked`). */
function lockedId(out: string): bigint {
  const m = /Bounty (\d+) locked/.exec(out);
  expect(m, out).to.not.equal(null);
  return BigInt(m![1]!);
}

/** The parameters of one `bounty:award` run; the withdrawal addresses as a file, inline, or (to refuse) not at all. */
interface AwardFlags {
  from: string;
  id: bigint;
  /** The pack (or bare rank derivation) file. */
  rankDerivation: string;
  /** A JSON file mapping each winning submitter to its withdrawal address. */
  withdrawalsFile?: string;
  /** The same mapping inline: `submitter=address,...`. */
  withdrawals?: string;
}

/** The argv of `bounty:award` with `flags`; append plain flags (`--dry-run`) to it. */
function awardArgs(flags: AwardFlags): string[] {
  const args = ["bounty:award", "--from", flags.from, "--id", String(flags.id)];
  args.push("--rank-derivation", flags.rankDerivation);
  if (flags.withdrawalsFile !== undefined) args.push("--withdrawals-file", flags.withdrawalsFile);
  if (flags.withdrawals !== undefined) args.push("--withdrawals", flags.withdrawals);
  return args;
}

describe("bounty tasks on a local Base-profile node", function () {
  let chain: DevChain;
  let dir: string;
  let run: (args: string[]) => Promise<Run>;
  let cli: (args: string[]) => Promise<Run>;
  let cliIntoHead: (args: string[]) => Promise<Run>;
  let author: string, awarder: string, w1: string, w2: string, w3: string, other: string, stranger: string;
  let small: Pack;
  let smallText: string;

  /** Runs a task that must refuse, and checks that no transaction was mined. */
  async function refuses(args: string[], pattern: RegExp) {
    const before = await blockNumber(chain);
    expectRefusal(await run(args), pattern);
    expect(await blockNumber(chain), "a refusal sends nothing").to.equal(before);
  }
  const usdcBalance = (account: string) =>
    chain.publicClient.readContract({
      address: chain.contracts.usdc,
      abi: testUsdcAbi,
      functionName: "balanceOf",
      args: [account as `0x${string}`],
    });
  const bounty = (id: bigint) =>
    chain.publicClient.readContract({
      address: chain.contracts.benchmarkBounty,
      abi: benchmarkBountyAbi,
      functionName: "getBounty",
      args: [id],
    });
  const creditOf = (id: bigint, account: string) =>
    chain.publicClient.readContract({
      address: chain.contracts.benchmarkBounty,
      abi: benchmarkBountyAbi,
      functionName: "creditOf",
      args: [id, account as `0x${string}`],
    });
  let rootCounter = 0;
  /** A fresh commitment file {root, leafCount}. */
  function commitmentFile(leafCount = 12): string {
    rootCounter++;
    const root = "0x" + (0xc0ffee00 + rootCounter).toString(16).padStart(64, "0");
    return writeFile(dir, `commitment-${rootCounter}.json`, { root, leafCount });
  }
  /**
   * `bounty:lock` argv for the usual lock: from the author, a pool of 1 USDC,
   * closing an hour after `now` with the award deadline an hour later, winner
   * takes all, no threshold, and no commitment source unless `flags` gives one.
   * `flags` overrides any of these; a field set to `undefined` drops its flag.
   */
  function plainLockArgs(now: bigint, flags: Partial<LockFlags>): string[] {
    return lockArgs({
      from: author,
      pool: "1",
      closesAt: now + 3600n,
      awardDeadline: now + 7200n,
      payoutRule: "winner_take_all",
      thresholdBps: 0,
      ...flags,
    });
  }
  /**
   * Runs the `bounty:status` command `bounty:lock` printed (its words from `hardhat` on, `--network`
   * dropped: the runner adds it) and expects the lock of bounty `id` to verify, author and token checked.
   */
  async function expectPrintedStatusVerifies(words: string[], id: bigint): Promise<void> {
    const argv = words.slice(1).filter((w, i, all) => w !== "--network" && all[i - 1] !== "--network");
    const status = expectOk(await run(argv));
    expect(status).to.include(`✓ author is the declared ${author}`);
    expect(status).not.to.include("author not checked");
    expect(status).to.include(`The lock of bounty ${id} verifies.`);
  }
  /** Runs `bounty:lock` with `flags`, expects it to succeed, and returns the new bounty's id. */
  async function lockBounty(flags: LockFlags): Promise<bigint> {
    return lockedId(expectOk(await run(lockArgs(flags))));
  }
  /** The commitment file {root, leafCount} of a vector pack's own test set (its rows' receipts name that root). */
  function commitmentOf(pack: Pack): string {
    rootCounter++;
    const { commit_root: root, leaf_count: leafCount } = pack.benchmark;
    return writeFile(dir, `commitment-${rootCounter}.json`, { root, leafCount });
  }
  /**
   * Locks a bounty matching packs/small.json (pool 12.345679 USDC, top_n_split, 5000 bps) on `commitment`
   * (default: a fresh root, which the vector's receipts do not name) and returns its id.
   */
  async function lockSmall(
    closesIn: bigint,
    deadlineIn: bigint,
    commitment = commitmentFile(),
  ): Promise<bigint> {
    const now = await chainTime(chain);
    return lockBounty({
      from: author,
      commitment,
      pool: "12.345679",
      closesAt: now + closesIn,
      awardDeadline: now + deadlineIn,
      payoutRule: "top_n_split",
      thresholdBps: 5000,
      awarder,
    });
  }
  /**
   * packs/small.json made the pack of bounty `id` on this chain (its `benchmark` naming the bounty, the
   * chain's contract, the bounty's root and leaf count) with `winners` paid at `addresses`, written
   * losslessly (canonical JSON of the SPEC 2 parse); `edit` changes the benchmark block further.
   */
  async function packOf(
    id: bigint,
    addresses: string[],
    edit: (benchmark: Record<string, unknown>) => void = () => {},
  ): Promise<string> {
    const { parseJson, canonicalJsonString } = await import("@bench-bounty/evidence");
    const pack = parseJson(smallText) as unknown as {
      benchmark: Record<string, unknown>;
      winners: { withdrawal_address: string }[];
    };
    const b = await bounty(id);
    Object.assign(pack.benchmark, {
      bounty_id: String(id),
      bounty_contract: chain.contracts.benchmarkBounty.toLowerCase(),
      commit_root: b.testSetRoot,
      leaf_count: b.leafCount,
    });
    edit(pack.benchmark);
    pack.winners.forEach((w, i) => (w.withdrawal_address = addresses[i]!.toLowerCase()));
    rootCounter++;
    return writeFile(dir, `pack-${id}-${rootCounter}.json`, canonicalJsonString(pack));
  }
  /**
   * Deploys the test token `contracts/test/<name>.sol` from its artifact and
   * mints 10 tokens (10^19 base units) to the author; returns its address.
   */
  async function deployTestToken(
    name: "ReentrantToken" | "FeeOnTransferToken" | "RefusingToken",
  ): Promise<string> {
    const artifact = JSON.parse(
      fs.readFileSync(`${REPO_ROOT}/artifacts/contracts/test/${name}.sol/${name}.json`, "utf8"),
    ) as { abi: readonly unknown[]; bytecode: `0x${string}` };
    const hash = await chain.wallet(0).deployContract({ abi: artifact.abi, bytecode: artifact.bytecode });
    const token = (await chain.publicClient.waitForTransactionReceipt({ hash })).contractAddress!;
    const mint = await chain.wallet(0).writeContract({
      address: token,
      abi: artifact.abi,
      functionName: "mint",
      args: [author, 10n * 10n ** 18n],
    });
    await chain.publicClient.waitForTransactionReceipt({ hash: mint });
    return token;
  }

  before(async function () {
    chain = await startChain();
    dir = tempDir();
    const book = localDeploymentFile(dir, chain);
    run = inProcessRunner(chain, book);
    cli = localRunner(chain, book);
    cliIntoHead = localRunnerIntoHead(chain, book);
    [author, awarder, w1, w2, w3, other] = chain.accounts.slice(1, 7).map((a) => a.address);
    stranger = chain.accounts[9]!.address;
    await chain.mintUsdc(author as `0x${string}`, 1_000_000_000n); // 1,000 USDC
    smallText = fs.readFileSync(vectorPath("packs/small.json"), "utf8");
    small = JSON.parse(smallText) as Pack;
    // the vectors' receipts anchored, as the platform anchors each run's: an award refuses rows whose
    // receipt hashes are not (probe35 C-F3)
    for (const pack of ["packs/small.json", "packs/zero-winner.json"])
      await anchorReceipts(chain, vectorPath(pack));
  });
  after(async function () {
    await chain?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  describe("bounty:lock", function () {
    it("commits a test-set file and locks with an EIP-2612 permit in one transaction", async function () {
      // The three-rows vector holds a 2^53+1 integer and a float: write its rows losslessly.
      const { parseJson, canonicalJsonString } = await import("@bench-bounty/evidence");
      const commitments = parseJson(fs.readFileSync(vectorPath("commitment.json"))) as {
        test_sets: { name: string; rows: unknown; root: string; leaf_count: number }[];
      };
      const three = commitments.test_sets.find((t) => t.name === "three-rows")!;
      const file = writeFile(dir, "three-rows.json", canonicalJsonString({ test_set: three.rows }));
      const now = await chainTime(chain);
      const before = await usdcBalance(author);
      const blockBefore = await blockNumber(chain);
      const out = expectOk(
        await run(
          lockArgs({
            from: author,
            testSet: file,
            pool: "250",
            closesAt: now + 3600n,
            awardDeadline: now + 7200n,
            payoutRule: "winner_take_all",
            thresholdBps: 6000,
          }),
        ),
      );
      expect(out).to.include("EIP-2612 permit + createAndFundWithPermit (1 transaction)");
      expect(out).to.match(/Bounty 1 locked: Funded with 250\.000000 USDC/);
      expect(out).to.match(/tx\s+0x[0-9a-f]{64}/);
      expect(out).to.include("(local node: no explorer)");
      // probe24: the printed status command, its line pasted whole into a shell (the shell's `npx`
      // prints its words), runs that command: it stands alone on its line (was `  check  npx ...`)
      const line = out.split("\n").find((l) => l.includes("bounty:status"));
      const pasted = spawnSync("bash", ["-c", `npx() { printf '%s\\0' "$@"; }\n${line}`], {
        encoding: "utf8",
      });
      expect(pasted.status, `${line}\n${pasted.stderr}`).to.equal(0);
      const words = pasted.stdout.split("\0").slice(0, -1);
      expect(words).to.deep.equal([
        "hardhat",
        "bounty:status",
        "--network",
        "localhost",
        "--id",
        "1",
        "--author",
        author,
      ]);
      // review28 A-F8: run as printed, it checks the lock, the author included (was: "author not checked")
      await expectPrintedStatusVerifies(words, 1n);
      expect(await blockNumber(chain)).to.equal(blockBefore + 1n); // one transaction
      const b = await bounty(1n);
      expect(b.testSetRoot).to.equal(three.root);
      expect(b.leafCount).to.equal(three.leaf_count);
      expect(b.pool).to.equal(250_000_000n);
      expect(b.status).to.equal(2); // Funded
      expect(b.awarder).to.equal(author); // defaults to the signer
      expect([...b.splitsBps]).to.deep.equal([10000]);
      expect(await usdcBalance(author)).to.equal(before - 250_000_000n);
    });

    it("--approve uses approve + createAndFund", async function () {
      const now = await chainTime(chain);
      const blockBefore = await blockNumber(chain);
      const out = expectOk(
        await run([
          ...lockArgs({
            from: author,
            commitment: commitmentFile(),
            pool: "1.5",
            closesAt: now + 3600n,
            awardDeadline: now + 7200n,
            splits: "6000,4000",
            thresholdBps: 0,
          }),
          "--approve",
        ]),
      );
      expect(out).to.include("approve + createAndFund (--approve)");
      expect(out).to.match(/Bounty 2 locked/);
      expect(await blockNumber(chain)).to.equal(blockBefore + 2n); // approve, then createAndFund
      expect([...(await bounty(2n)).splitsBps]).to.deep.equal([6000, 4000]);
    });

    it("--dry-run checks and simulates the permit path and sends nothing", async function () {
      const now = await chainTime(chain);
      const before = await blockNumber(chain);
      const out = expectOk(
        await run([...plainLockArgs(now, { commitment: commitmentFile(), pool: "3" }), "--dry-run"]),
      );
      expect(out).to.include("Dry run: the permit and createAndFundWithPermit simulate fine; nothing sent.");
      expect(await blockNumber(chain)).to.equal(before);
    });

    it("falls back to approve + createAndFund for a token without permit", async function () {
      const token = await deployTestToken("ReentrantToken");
      const now = await chainTime(chain);
      const before = await blockNumber(chain);
      const out = expectOk(await run(plainLockArgs(now, { commitment: commitmentFile(), token, pool: "3" })));
      expect(out).to.include("the token has no EIP-2612 permit: approve + createAndFund");
      expect(out).to.match(/pool\s+3\.000000000000000000 REENT \(3000000000000000000 base units\)/);
      expect(await blockNumber(chain)).to.equal(before + 2n);
      const id = lockedId(out);
      expect((await bounty(id)).token.toLowerCase()).to.equal(token.toLowerCase());
      // review28 A-F8: the printed check declares the lock's token (bounty:status defaults to USDC)
      const line = /^Check it with:\n {2}(.*)$/m.exec(out)?.[1];
      expect(line, out).to.match(
        new RegExp(
          `npx hardhat bounty:status --network localhost --id ${id} --author ${author} --token ${token}$`,
        ),
      );
      await expectPrintedStatusVerifies(line!.replace(/^.*?npx /, "").split(" "), id);
    });

    it("decodes FundingShortfall for a fee-on-transfer token before the approve: nothing sent, no allowance left (probe30 C-F2)", async function () {
      const token = await deployTestToken("FeeOnTransferToken");
      const now = await chainTime(chain);
      const allowance = () =>
        chain.publicClient.readContract({
          address: token as `0x${string}`,
          abi: testUsdcAbi,
          functionName: "allowance",
          args: [author as `0x${string}`, chain.contracts.benchmarkBounty],
        });
      for (const extra of [["--dry-run"], []])
        await refuses(
          [...plainLockArgs(now, { commitment: commitmentFile(), token }), ...extra],
          /createAndFund \(simulated as if approved\) reverted with FundingShortfall\(1000000000000000000, \d+\)\. The contract received \d+ base units instead of 1000000000000000000: the token takes a fee on transfer.* Nothing was sent \(no approve\)\./,
        );
      expect(await allowance(), "no approve was sent").to.equal(0n);
    });

    it("refuses a command without exactly one commitment source", async function () {
      const now = await chainTime(chain);
      await refuses(plainLockArgs(now, {}), /Give exactly one of --commitment <file>/);
      await refuses(
        plainLockArgs(now, { commitment: commitmentFile(), testSet: commitmentFile() }),
        /Give exactly one of --commitment/,
      );
    });

    it("takes the platform's GET .../commitment answer as --commitment, and names its null root (probe32 A-F1)", async function () {
      const now = await chainTime(chain);
      const root = "0x" + "cd".repeat(32);
      const served = {
        slug: "cities-1",
        commit_root: root,
        leaf_count: 7,
        commitment_anchor: { tx_hash: "0x" + "11".repeat(32), block_number: 5 },
        commitment_anchor_status: "anchored",
        commitment_squat: null,
      };
      const file = writeFile(dir, "served-commitment.json", served);
      const out = expectOk(await run([...plainLockArgs(now, { commitment: file }), "--dry-run"]));
      expect(out).to.include(`commitment    root ${root}, 7 leaves, from ${file}`);
      const pending = writeFile(dir, "served-pending.json", {
        ...served,
        commit_root: null,
        commitment_anchor: null,
        commitment_anchor_status: "pending",
      });
      await refuses(
        plainLockArgs(now, { commitment: pending }),
        /served-pending\.json: \$\.commit_root is null: the platform shows it once the commitment's anchor is confirmed \(\$\.commitment_anchor_status is "pending"\)/,
      );
      const zeroCount = writeFile(dir, "served-zero.json", { ...served, leaf_count: 0 });
      await refuses(
        plainLockArgs(now, { commitment: zeroCount }),
        /\$\.leaf_count must be an integer 1\.\.4294967295, got 0/,
      );
      const both = writeFile(dir, "served-both.json", { ...served, root, leafCount: 7 });
      await refuses(
        plainLockArgs(now, { commitment: both }),
        /has both \$\.root\/\$\.leafCount and the platform's/,
      );
      // the answer names the service's signing address: the awarder its attach accepts, taken when
      // --awarder is not given; another --awarder is refused (a pool the service could never award)
      const service = chain.accounts[5]!.address;
      const named = writeFile(dir, "served-awarder.json", { ...served, awarder: service.toLowerCase() });
      const withAwarder = plainLockArgs(now, { commitment: named }).filter(
        (w, i, all) => w !== "--awarder" && all[i - 1] !== "--awarder",
      );
      const taken = expectOk(await run([...withAwarder, "--dry-run"]));
      expect(taken).to.match(new RegExp(`awarder +${service}.*\\(the --commitment file's awarder\\)`, "i"));
      await refuses(
        [...withAwarder, "--awarder", chain.accounts[6]!.address],
        new RegExp(
          `--awarder ${chain.accounts[6]!.address} is not the awarder --commitment \\S+ names \\(${service.toLowerCase()}, the service's signing address\\)`,
        ),
      );
    });

    it("refuses a platform answer anchored on chain whose awarder is null unless --awarder is given (probe36 A-F6)", async function () {
      const now = await chainTime(chain);
      // saved from a serve without the chain on a store anchored on one: the root anchored, no awarder
      const served = {
        slug: "cities-2",
        commit_root: "0x" + "ce".repeat(32),
        leaf_count: 7,
        commitment_anchor: { tx_hash: "0x" + "11".repeat(32), block_number: 5 },
        commitment_anchor_status: "anchored",
        commitment_squat: null,
        awarder: null,
      };
      const file = writeFile(dir, "served-no-awarder.json", served);
      const noAwarder = plainLockArgs(now, { commitment: file }).filter(
        (w, i, all) => w !== "--awarder" && all[i - 1] !== "--awarder",
      );
      await refuses(
        noAwarder,
        /served-no-awarder\.json: \$\.awarder is null while the commitment is anchored on chain .*pass --awarder <the service's awarder> explicitly\. Nothing was sent\./,
      );
      // --awarder given: taken as given
      const service = chain.accounts[5]!.address;
      const given = expectOk(await run([...noAwarder, "--awarder", service, "--dry-run"]));
      expect(given).to.match(new RegExp(`awarder +${service}`, "i"));
    });

    it("refuses malformed commitment and test-set files, naming the JSON path", async function () {
      const now = await chainTime(chain);
      const upper = writeFile(dir, "upper.json", { root: "0x" + "AB".repeat(32), leafCount: 3 });
      await refuses(plainLockArgs(now, { commitment: upper }), /\$\.root must be 0x \+ 64 lowercase hex/);
      const noCount = writeFile(dir, "nocount.json", { root: "0x" + "ab".repeat(32) });
      await refuses(plainLockArgs(now, { commitment: noCount }), /\$\.leafCount must be an integer/);
      const dup = writeFile(
        dir,
        "dup.json",
        '{"root": "0x' + "ab".repeat(32) + '", "leafCount": 3, "leafCount": 4}',
      );
      await refuses(plainLockArgs(now, { commitment: dup }), /is not valid JSON: .*duplicate/i);
      await refuses(
        plainLockArgs(now, { commitment: `${dir}/missing.json` }),
        /cannot read .*missing\.json \(ENOENT\)/,
      );
      const badRows = writeFile(dir, "badrows.json", [
        {
          ordinal: 1,
          prompt: "p",
          gold: { value: "x" },
          salt: "00".repeat(32),
          visibility: "public",
          grader_type: "exact",
        },
      ]);
      await refuses(plainLockArgs(now, { testSet: badRows }), /--test-set .*badrows\.json: \$\[0\]/);
    });

    it("refuses bad times, splits, threshold and pool before any transaction", async function () {
      const now = await chainTime(chain);
      const commitment = commitmentFile();
      const lock = (flags: Partial<LockFlags>) => plainLockArgs(now, { commitment, ...flags });
      await refuses(lock({ closesAt: now - 10n }), /--closes-at .* is in the past \(chain time/);
      await refuses(lock({ awardDeadline: now + 3600n }), /--award-deadline .* must be after --closes-at/);
      await refuses(lock({ closesAt: "next tuesday" }), /--closes-at must be unix seconds or ISO-8601/);
      await refuses(
        lock({ payoutRule: undefined, splits: "3000,5000,2000" }),
        /Bad splits: .*non-increasing/,
      );
      await refuses(lock({ payoutRule: undefined, splits: "5000,3000" }), /Bad splits/);
      await refuses(
        lock({ payoutRule: "top_3" }),
        /--payout-rule must be one of winner_take_all, top_n_split/,
      );
      await refuses(lock({ thresholdBps: 10001 }), /--threshold-bps must be an integer 0\.\.10000/);
      await refuses(lock({ pool: "1.0000001" }), /--pool has more than 6 decimals/);
      await refuses(lock({ pool: "0" }), /--pool must be more than 0/);
    });

    it("refuses an insufficient balance and an insufficient allowance", async function () {
      const now = await chainTime(chain);
      const commitment = commitmentFile();
      await refuses(
        plainLockArgs(now, { from: stranger, commitment, pool: "5" }),
        /Insufficient USDC balance: 0x[0-9a-fA-F]{40} holds 0\.000000 USDC, the pool needs 5\.000000 USDC/,
      );
      await refuses(
        [...plainLockArgs(now, { commitment, pool: "5" }), "--use-allowance"],
        /Insufficient allowance: .* may spend 0\.000000 USDC .* the pool needs 5\.000000 USDC/,
      );
    });

    it("decodes a contract revert before sending: a root already bound to a live bounty", async function () {
      const b1 = await bounty(1n);
      const now = await chainTime(chain);
      const reused = writeFile(dir, "reused.json", { root: b1.testSetRoot, leafCount: 3 });
      await refuses(
        plainLockArgs(now, { commitment: reused }),
        /createBounty reverted with RootBoundToLiveBounty\(0x[0-9a-fA-F]{40}, 0x[0-9a-f]{64}, 1\)\. Your bounty 1 is still live on this root/,
      );
    });
  });

  describe("bounty:status", function () {
    it("shows the state, the ladder and a verifying lock", async function () {
      const out = expectOk(await run(["bounty:status", "--id", "1", "--author", author]));
      expect(out).to.include("Pending -> [Funded] -> Awarded | Reclaimed");
      expect(out).to.match(/pool\s+250\.000000 USDC \(250000000 base units\)/);
      expect(out).to.include(`✓ token is the declared USDC ${chain.contracts.usdc}`);
      expect(out).to.include(`✓ author is the declared ${author}`);
      expect(out).to.include("✓ BountyFunded moved the whole pool into the contract");
      expect(out).to.include("The lock of bounty 1 verifies.");
    });

    it("fails the lock check for another author or token, and checks a declared commitment", async function () {
      // a failing line names what the chain holds and what was declared (probe40 C-N2)
      const r = await run(["bounty:status", "--id", "1", "--author", stranger]);
      expectRefusal(
        r,
        new RegExp(
          `The lock of bounty 1 does NOT verify: author on-chain is ${author}, not the declared ${stranger}\\.`,
        ),
      );
      expect(r.stdout).to.include(`✗ author on-chain is ${author}, not the declared ${stranger}`);
      const r2 = await run(["bounty:status", "--id", "1", "--token", chain.contracts.anchorRegistry]);
      expectRefusal(
        r2,
        new RegExp(
          `does NOT verify: token on-chain is ${chain.contracts.usdc}, not the declared token ${chain.contracts.anchorRegistry}\\.`,
          "i",
        ),
      );
      const b = await bounty(1n);
      const declared = writeFile(dir, "declared.json", { root: b.testSetRoot, leafCount: 4 });
      const r3 = await run(["bounty:status", "--id", "1", "--commitment", declared]);
      expectRefusal(
        r3,
        new RegExp(`does NOT verify: leaf count on-chain is ${b.leafCount}, not the declared 4\\.`),
      );
      expect(r3.stdout).to.include(`✗ leaf count on-chain is ${b.leafCount}, not the declared 4`);
      expect(r3.stdout).to.include("✓ test-set root is the declared");
      const otherRoot = `0x${"5e".repeat(32)}`;
      const other = writeFile(dir, "declared-other.json", {
        root: otherRoot,
        leafCount: Number(b.leafCount),
      });
      const r5 = await run(["bounty:status", "--id", "1", "--commitment", other]);
      const onChainRoot = b.testSetRoot.toLowerCase();
      expectRefusal(
        r5,
        new RegExp(
          `does NOT verify: test-set root on-chain is ${onChainRoot}, not the declared ${otherRoot}\\.`,
        ),
      );
      expect(r5.stdout).to.include(
        `✗ test-set root on-chain is ${onChainRoot}, not the declared ${otherRoot}`,
      );
      expect(r5.stdout).to.include(`✓ leaf count is the declared ${b.leafCount}`);
      // the platform's GET .../commitment answer declares it too (probe32 A-F1)
      const served = writeFile(dir, "served-declared.json", {
        slug: "s",
        commit_root: b.testSetRoot.toLowerCase(),
        leaf_count: Number(b.leafCount),
        commitment_anchor_status: "anchored",
      });
      const r4 = await run(["bounty:status", "--id", "1", "--commitment", served]);
      expect(r4.stdout).to.include(`✓ test-set root is the declared ${b.testSetRoot.toLowerCase()}`);
      expect(r4.stdout).to.include(`✓ leaf count is the declared ${b.leafCount}`);
    });

    it("refuses an unknown or malformed id", async function () {
      await refuses(
        ["bounty:status", "--id", "99"],
        /There is no bounty 99 on localhost \(bounty ids run from 1 to \d+\)/,
      );
      await refuses(["bounty:status", "--id", "0x1"], /--id must be a bounty id/);
    });
  });

  describe("bounty:award, bounty:claim, bounty:credits", function () {
    let a: bigint; // awarded from packs/small.json, locked on its test set's root
    let b: bigint; // the same ranking again (on another root), so winners hold credit in two bounties
    let rdFile: string; // the vector's rank derivation: its rows' receipts name a's root
    let rdNoReceipts: string; // the same rows without their receipts: for bounties on other roots
    let withdrawals: string;

    before(async function () {
      a = await lockSmall(600n, 7200n, commitmentOf(small));
      b = await lockSmall(600n, 7200n);
      rdFile = writeFile(dir, "small-rd.json", await rankDerivationOnly(smallText));
      rdNoReceipts = writeFile(
        dir,
        "small-rd-no-receipts.json",
        await rankDerivationOnly(smallText, { receipts: false }),
      );
      withdrawals = writeFile(dir, "withdrawals.json", { "vec-a": w1, "vec-c": w2, "vec-d": w3 });
    });
    /**
     * `bounty:award` argv awarding bounty `id` from packs/small.json as the
     * awarder, with the withdrawal addresses file; `flags` overrides any of these.
     */
    const awardSmallArgs = (id: bigint, flags: Partial<AwardFlags> = {}) =>
      awardArgs({ from: awarder, id, rankDerivation: rdFile, withdrawalsFile: withdrawals, ...flags });

    it("refuses before the bounty closes", async function () {
      await refuses(awardSmallArgs(a), /closes at .*: the award window is not open yet/);
    });

    it("refuses a winner without a withdrawal address", async function () {
      await chain.increaseTime(601);
      await refuses(
        awardSmallArgs(a, { withdrawalsFile: undefined, withdrawals: `vec-a=${w1},vec-c=${w2}` }),
        /Winner "vec-d" \(place 3\) has no withdrawal address/,
      );
    });

    it("refuses a rank derivation whose amounts, order or bounty disagree", async function () {
      const tampered = JSON.parse(smallText) as Pack;
      (tampered.rank_derivation.place_amounts_base_units as string[])[0] = "6172842";
      await refuses(
        awardSmallArgs(a, { rankDerivation: writeFile(dir, "t1.json", tampered) }),
        /place_amounts_base_units is \["6172842","3703703","2469135"\] but the recomputed amounts are \["6172841","3703703","2469135"\]\. Refusing to award\./,
      );
      const swapped = JSON.parse(smallText) as Pack;
      const rows = swapped.rank_derivation.rows;
      [rows[1], rows[2]] = [rows[2], rows[1]];
      await refuses(
        awardSmallArgs(a, { rankDerivation: writeFile(dir, "t2.json", swapped) }),
        /rows\[1\] is out of SPEC 7\.1 order/,
      );
      const otherPool = JSON.parse(smallText) as Pack;
      otherPool.rank_derivation.pool_base_units = "12345680";
      otherPool.rank_derivation.place_amounts_base_units = ["6172840", "3703704", "2469136"]; // SPEC 7.3 by hand
      await refuses(
        // the rank derivation alone: a pack's own winners would disagree with the withdrawals file first
        awardSmallArgs(a, {
          rankDerivation: writeFile(dir, "t3.json", { rank_derivation: otherPool.rank_derivation }),
        }),
        /does not match bounty \d+: pool 12345679 on-chain vs pool_base_units 12345680/,
      );
    });

    // probe33 C-F4: a number bounty_id was refused "is 2 but --id is 2: this pack is not bounty 2's"
    it("refuses a pack field of another JSON type than SPEC 8's naming the type, never 'is 2 but --id is 2' (probe33 C-F4)", async function () {
      const cases: [(bench: Record<string, unknown>) => void, RegExp][] = [
        [
          (bench) => (bench.bounty_id = Number(a)),
          new RegExp(
            `^Error: --rank-derivation \\S+ \\$\\.benchmark\\.bounty_id must be a decimal string \\(SPEC 8\\), got the number ${a}: this pack is not bounty ${a}'s\\. Refusing to award; nothing was sent\\.$`,
            "m",
          ),
        ],
        [
          (bench) => (bench.chain_id = "8453"),
          /\$\.benchmark\.chain_id must be an integer \(SPEC 8\), got the string "8453": /,
        ],
        [(bench) => delete bench.leaf_count, /\$\.benchmark\.leaf_count is missing \(SPEC 8: an integer\): /],
      ];
      for (const [edit, pattern] of cases)
        await refuses(
          awardSmallArgs(a, {
            rankDerivation: await packOf(a, [w1, w2, w3], edit),
            withdrawalsFile: undefined,
          }),
          pattern,
        );
    });

    it("refuses a signer that is not the awarder", async function () {
      await refuses(awardSmallArgs(a, { from: stranger }), /is not the awarder of bounty \d+/);
    });

    // probe35 C-F1: an award paying the bounty's author as a winner was sent; its pack fails `selection`
    it("refuses a winner paid at the bounty's author, from the flags or a pack, --dry-run too (probe35 C-F1)", async function () {
      const refusal = (place: number, agent: string, from: string) =>
        new RegExp(
          `^Error: The withdrawal address of place ${place} \\(agent "${agent}", ${from}\\) is ${author}, the author of bounty ${a} \\(getBounty\\(${a}\\)\\.author ${author}\\): the bounty's author takes no prize \\(SPEC 7\\.2, author agents rank but take no money\\), so no evidence pack of this award could verify its selection fact\\. .*Refusing to award; nothing was sent\\.$`,
          "mi",
        );
      for (const extra of [["--dry-run"], []])
        await refuses(
          [
            ...awardSmallArgs(a, {
              withdrawalsFile: undefined,
              withdrawals: `vec-a=${w1},vec-c=${author.toLowerCase()},vec-d=${w3}`,
            }),
            ...extra,
          ],
          refusal(2, "vec-c", "--withdrawals"),
        );
      await refuses(
        awardSmallArgs(a, { rankDerivation: await packOf(a, [author, w2, w3]), withdrawalsFile: undefined }),
        refusal(1, "vec-a", "\\S+ \\(winners\\)"),
      );
    });

    // probe27 C-F1: the pack of another bounty with the same terms awarded --id to that pack's winners
    it("refuses a pack of another bounty, chain or contract, naming the field and both values (probe27 C-F1)", async function () {
      const rootOfB = (await bounty(b)).testSetRoot;
      const rootOfA = (await bounty(a)).testSetRoot;
      await refuses(
        awardSmallArgs(a, { rankDerivation: await packOf(b, [w1, w2, w3]), withdrawalsFile: undefined }),
        new RegExp(
          `^Error: --rank-derivation \\S+ \\$\\.benchmark\\.bounty_id is "${b}" but --id is ${a}: this pack is not bounty ${a}'s\\. Refusing to award; nothing was sent\\.$`,
          "m",
        ),
      );
      const cases: [string, (bench: Record<string, unknown>) => void, RegExp][] = [
        [
          "commit_root",
          (bench) => (bench.commit_root = rootOfB),
          new RegExp(`commit_root is "${rootOfB}" but bounty ${a}'s test-set root on-chain is ${rootOfA}`),
        ],
        [
          "leaf_count",
          (bench) => (bench.leaf_count = 13),
          /leaf_count is 13 but bounty \d+'s leaf count on-chain is 12/,
        ],
        [
          "chain_id",
          (bench) => (bench.chain_id = 84532),
          /chain_id is 84532 but the chain id of --network localhost is 8453/,
        ],
        [
          "bounty_contract",
          (bench) => (bench.bounty_contract = "0x" + "11".repeat(20)),
          new RegExp(
            `bounty_contract is "0x${"11".repeat(20)}" but the BenchmarkBounty of localhost is ${chain.contracts.benchmarkBounty}`,
          ),
        ],
      ];
      for (const [, edit, pattern] of cases)
        await refuses(
          awardSmallArgs(a, {
            rankDerivation: await packOf(a, [w1, w2, w3], edit),
            withdrawalsFile: undefined,
          }),
          pattern,
        );
    });

    it("a pack's own winner addresses bind: --withdrawals(-file) may not name others (probe27 C-F1)", async function () {
      const pack = await packOf(a, [w1, w2, w3]);
      await refuses(
        awardSmallArgs(a, {
          rankDerivation: pack,
          withdrawalsFile: writeFile(dir, "other-withdrawals.json", { "vec-a": other, "vec-c": w2 }),
        }),
        new RegExp(
          `\\$\\.vec-a: agent "vec-a" has withdrawal address ${other} but --rank-derivation \\S+ \\$\\.winners\\[0\\]\\.withdrawal_address says ${w1.toLowerCase()}: refusing to award`,
        ),
      );
      await refuses(
        awardSmallArgs(a, {
          rankDerivation: pack,
          withdrawalsFile: undefined,
          withdrawals: `vec-d=${other}`,
        }),
        /--withdrawals: agent "vec-d" has withdrawal address .* but .*\$\.winners\[2\]\.withdrawal_address says/,
      );
      // the pack of this bounty, with or without agreeing flags, simulates (and pays its own addresses)
      for (const flags of [{ withdrawalsFile: undefined }, {}]) {
        const out = expectOk(
          await run([...awardSmallArgs(a, { rankDerivation: pack, ...flags }), "--dry-run"]),
        );
        expect(out).to.include(`place 1       vec-a -> ${w1.toLowerCase()}  6.172841 USDC`);
        expect(out).to.include("Dry run: the award simulates fine; nothing sent.");
      }
    });

    // probe31 C-F3: a bare rank derivation of another benchmark (its terms edited to match) awarded
    // bounty --id and burned its root: every embedded receipt named another test-set root
    it("refuses rows whose embedded receipts name another test-set root or benchmark, bare or in a pack, --dry-run too (probe31 C-F3)", async function () {
      const rootOfB = (await bounty(b)).testSetRoot;
      for (const extra of [["--dry-run"], []])
        await refuses(
          [...awardSmallArgs(b), ...extra],
          new RegExp(
            `^Error: --rank-derivation \\S+ \\$\\.rank_derivation\\.rows\\[0\\]\\.receipt\\.commit_root is "${small.benchmark.commit_root}" but bounty ${b}'s test-set root on-chain is ${rootOfB}: these rows were not run on bounty ${b}'s test set, and no evidence pack carrying them could verify\\. Refusing to award; nothing was sent\\.$`,
            "m",
          ),
        );
      // rows of two benchmarks: one receipt names another slug (its row's receipt_hash follows it)
      const { parseJson, canonicalJsonString, receiptHash } = await import("@bench-bounty/evidence");
      const mixed = parseJson(await rankDerivationOnly(smallText)) as unknown as {
        rank_derivation: { rows: { receipt: Record<string, unknown>; receipt_hash: string }[] };
      };
      const row = mixed.rank_derivation.rows[1]!;
      row.receipt.benchmark_slug = "another-benchmark";
      row.receipt_hash = receiptHash(row.receipt);
      await refuses(
        awardSmallArgs(a, { rankDerivation: writeFile(dir, "mixed-rd.json", canonicalJsonString(mixed)) }),
        /\$\.rank_derivation\.rows\[1\]\.receipt\.benchmark_slug is "another-benchmark" but \$\.rank_derivation\.rows\[0\]\.receipt\.benchmark_slug is "vector-small": these rows are not of one benchmark/,
      );
      // a pack of bounty a whose rows are not of its own benchmark
      await refuses(
        awardSmallArgs(a, {
          rankDerivation: await packOf(a, [w1, w2, w3], (bench) => (bench.slug = "another-benchmark")),
          withdrawalsFile: undefined,
        }),
        /\$\.rank_derivation\.rows\[0\]\.receipt\.benchmark_slug is "vector-small" but the pack's \$\.benchmark\.slug is "another-benchmark": these rows are not of the pack's benchmark/,
      );
      // a pack of bounty a whose second winner's receipt was run on another test set (probe31 C-F3 rest)
      const pack = parseJson(fs.readFileSync(await packOf(a, [w1, w2, w3]), "utf8")) as unknown as {
        winners: { receipt: Record<string, unknown> }[];
      };
      const otherRoot = "0x" + "ab".repeat(32);
      pack.winners[1]!.receipt.commit_root = otherRoot;
      await refuses(
        awardSmallArgs(a, {
          rankDerivation: writeFile(dir, "winner-of-another-root.json", canonicalJsonString(pack)),
          withdrawalsFile: undefined,
        }),
        new RegExp(
          `\\$\\.winners\\[1\\]\\.receipt\\.commit_root is "${otherRoot}" but bounty ${a}'s test-set root on-chain is ${(await bounty(a)).testSetRoot}: this winner's run was not on bounty ${a}'s test set`,
        ),
      );
    });

    // probe35 C-F3: an award whose rows' receipt hashes were never anchored was sent; its pack fails
    // receipt_anchors for good
    it("refuses rows whose receipt hashes are not anchored, --dry-run too, naming the anchor command; pasted, it anchors (probe35 C-F3)", async function () {
      const { parseJson, canonicalJsonString } = await import("@bench-bounty/evidence");
      const rd = parseJson(fs.readFileSync(rdNoReceipts)) as unknown as {
        rank_derivation: { rows: { agent_id: string; receipt_hash: string }[] };
      };
      const rows = rd.rank_derivation.rows;
      const fresh = [1, 3].map((i) => (rows[i]!.receipt_hash = "0x" + `${i}f35`.repeat(16)));
      const file = writeFile(dir, "unanchored-rd.json", canonicalJsonString(rd));
      const refusal = (i: number, more: string) =>
        new RegExp(
          `^Error: --rank-derivation \\S+ \\$\\.rank_derivation\\.rows\\[${i}\\]\\.receipt_hash ${rows[i]!.receipt_hash} \\(agent "${rows[i]!.agent_id}", rank ${i + 1}\\) is not anchored in AnchorRegistry ${chain.contracts.anchorRegistry}${more}: SPEC 9 receipt_anchors needs every row's receipt anchored at or before the award block, so no evidence pack of this award could ever verify\\. Refusing to award; nothing was sent\\. Anchor it first, then award again:\\n  (.*npx hardhat anchor --network localhost --from ${awarder} --digest ${rows[i]!.receipt_hash} --kind receipt)$`,
          "m",
        );
      for (const extra of [["--dry-run"], []])
        await refuses(
          [...awardSmallArgs(a, { rankDerivation: file }), ...extra],
          refusal(1, " \\(2 of the 5 rows' receipt hashes are not anchored: anchor each the same way\\)"),
        );
      // the printed command, pasted into a shell as is, anchors the hash (then the next one is named)
      const r = await run(awardSmallArgs(a, { rankDerivation: file }));
      const command = refusal(1, ".*").exec(r.stderr)![1]!;
      const pasted = spawnSync("bash", ["-c", command], { cwd: REPO_ROOT, encoding: "utf8" });
      expect(pasted.status, `${command}\n${pasted.stderr}`).to.equal(0);
      expect(pasted.stdout).to.include(`Anchored ${fresh[0]} as receipt by ${awarder}`);
      await refuses(awardSmallArgs(a, { rankDerivation: file }), refusal(3, ""));
      // anchored with another kind, it exists at a block: counted as anchored here
      await chain.publicClient.waitForTransactionReceipt({
        hash: await chain.wallet(0).writeContract({
          address: chain.contracts.anchorRegistry,
          abi: anchorRegistryAbi,
          functionName: "anchor",
          args: [fresh[1]! as `0x${string}`, ANCHOR_KINDS.pack],
        }),
      });
      const out = expectOk(await run([...awardSmallArgs(a, { rankDerivation: file }), "--dry-run"]));
      expect(out).to.include("Dry run: the award simulates fine; nothing sent.");
    });

    it("--dry-run recomputes, checks and simulates the award and sends nothing", async function () {
      const before = await blockNumber(chain);
      const out = expectOk(await run([...awardSmallArgs(a), "--dry-run"]));
      expect(out).to.include(`place 1       vec-a -> ${w1}  6.172841 USDC`);
      expect(out).to.include(`ranking digest ${small.benchmark.ranking_digest}`);
      expect(out).to.include("Dry run: the award simulates fine; nothing sent.");
      expect(await blockNumber(chain)).to.equal(before);
    });

    it("awards from packs/small.json with the vector's amounts and ranking digest", async function () {
      const out = expectOk(await run(awardSmallArgs(a)));
      expect(out).to.include("Awarded (tx 0x");
      expect(out).to.include(`rankingDigest   ${small.benchmark.ranking_digest}`);
      expect(out).to.include(`winner 1        ${w1}  6.172841 USDC`);
      expect(out).to.include(`winner 2        ${w2}  3.703703 USDC`);
      expect(out).to.include(`winner 3        ${w3}  2.469135 USDC`);
      expect(out).to.include("authorRemainder 0.000000 USDC");
      expect(await creditOf(a, w1)).to.equal(6_172_841n);
      expect(await creditOf(a, w2)).to.equal(3_703_703n);
      expect(await creditOf(a, w3)).to.equal(2_469_135n);
      const logs = await chain.publicClient.getContractEvents({
        address: chain.contracts.benchmarkBounty,
        abi: benchmarkBountyAbi,
        eventName: "Awarded",
        args: { bountyId: a },
        fromBlock: 0n,
      });
      expect(logs[0]!.args.rankingDigest).to.equal(small.benchmark.ranking_digest);
      // The second bounty, awarded with withdrawal addresses given inline.
      expectOk(
        await run(
          awardSmallArgs(b, {
            rankDerivation: rdNoReceipts,
            withdrawalsFile: undefined,
            withdrawals: `vec-a=${w1},vec-c=${w2},vec-d=${w3}`,
          }),
        ),
      );
    });

    it("refuses to award twice; the same award again is done already, by its transaction (probe34 C-F4)", async function () {
      const before = await blockNumber(chain);
      // the rerun after a send whose answer was lost: this very award holds, exit 0, nothing sent
      expect(expectOk(await run(awardSmallArgs(a)))).to.match(
        new RegExp(
          `^Bounty ${a} is already awarded with this ranking digest ${small.benchmark.ranking_digest} and these winners, by transaction 0x[0-9a-f]{64} \\(block \\d+\\): nothing to do, nothing was sent\\.$`,
          "m",
        ),
      );
      expect(await blockNumber(chain), "nothing sent").to.equal(before);
      await refuses(
        awardSmallArgs(a, { rankDerivation: rdNoReceipts }),
        new RegExp(
          `Bounty ${a} is already Awarded by transaction 0x[0-9a-f]{64} \\(block \\d+\\) with ranking digest ${small.benchmark.ranking_digest}, not this rank derivation's 0x[0-9a-f]{64}: it cannot be awarded again\\. Nothing was sent\\.`,
        ),
      );
      await refuses(
        awardSmallArgs(a, { withdrawalsFile: undefined, withdrawals: `vec-a=${w2},vec-c=${w1},vec-d=${w3}` }),
        /is already Awarded by transaction 0x[0-9a-f]{64} \(block \d+\) with this ranking digest, but to /,
      );
    });

    it("bounty:credits lists a winner's credit from the logs", async function () {
      const out = expectOk(await run(["bounty:credits", "--account", w1]));
      expect(out).to.include(`bounty ${a}  6.172841 USDC`);
      expect(out).to.include(`bounty ${b}  6.172841 USDC`);
      expect(out).to.include("total 12.345682 USDC");
      expect(expectOk(await run(["bounty:credits", "--account", stranger]))).to.include("  none");
    });

    it("refuses claims without credit, without a target, or to the zero address", async function () {
      await refuses(
        ["bounty:claim", "--from", stranger, "--id", String(a)],
        /has no credit in bounty \d+: see bounty:credits\. Nothing was sent\./,
      );
      await refuses(
        ["bounty:claim", "--from", stranger, "--all"],
        /has no outstanding credit on localhost: nothing to claim/,
      );
      await refuses(["bounty:claim", "--from", w1], /Give exactly one of --id <n>, --ids <n,m,...> or --all/);
      await refuses(
        [
          "bounty:claim",
          "--from",
          w1,
          "--id",
          String(a),
          "--to",
          "0x0000000000000000000000000000000000000000",
        ],
        /--to: the zero address can never claim/,
      );
      await refuses(
        ["bounty:claim", "--from", w1, "--id", "1"],
        /has no credit in bounty 1 \(it is not awarded\)/,
      );
    });

    it("claims one bounty to another address (--to)", async function () {
      const before = await usdcBalance(other);
      const out = expectOk(await run(["bounty:claim", "--from", w2, "--id", String(a), "--to", other]));
      expect(out).to.include(`Claimed bounty ${a}: 3.703703 USDC from ${w2} to ${other}`);
      expect(await usdcBalance(other)).to.equal(before + 3_703_703n);
      expect(await creditOf(a, w2)).to.equal(0n);
      await refuses(["bounty:claim", "--from", w2, "--id", String(a)], /has no credit in bounty/); // double claim
    });

    it("claims several bounties in one claimMany (--ids)", async function () {
      const before = await usdcBalance(w1);
      const blockBefore = await blockNumber(chain);
      const out = expectOk(await run(["bounty:claim", "--from", w1, "--ids", `${a},${b}`]));
      expect(out).to.include(`Claimed bounty ${a}: 6.172841 USDC`);
      expect(out).to.include(`Claimed bounty ${b}: 6.172841 USDC`);
      expect(await blockNumber(chain)).to.equal(blockBefore + 1n);
      expect(await usdcBalance(w1)).to.equal(before + 12_345_682n);
    });

    it("claims every bounty with credit found through an indexer (--all --indexer)", async function () {
      // A stand-in for the indexer's REST API (GET /accounts/:address/credits), paginated.
      const seen: string[] = [];
      const server = http.createServer((req, res) => {
        seen.push(req.url ?? "");
        const url = new URL(req.url ?? "/", "http://x");
        const page = url.searchParams.get("cursor");
        const body = page
          ? {
              account: w2,
              totals: [],
              credits: [{ bountyId: String(a), outstanding: "0" }],
              nextCursor: null,
            }
          : {
              account: w2,
              totals: [],
              credits: [{ bountyId: String(b), outstanding: "3703703" }],
              nextCursor: String(b),
            };
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify(body));
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        const out = expectOk(await run(["bounty:claim", "--from", w2, "--all", "--indexer", url]));
        expect(out).to.include(`Claimed bounty ${b}: 3.703703 USDC from ${w2} to ${w2}`);
        expect(seen[0]).to.match(new RegExp(`^/accounts/${w2}/credits\\?limit=100`));
        expect(seen[1]).to.include(`cursor=${b}`);
      } finally {
        server.close();
      }
      await refuses(
        ["bounty:claim", "--from", w2, "--all", "--indexer", "http://127.0.0.1:9"],
        /Cannot reach the indexer/,
      );
      // probeD3 F12: credentials in --indexer are never printed (fetch's message named the whole URL)
      const secret = await run([
        "bounty:claim",
        "--from",
        w2,
        "--all",
        "--indexer",
        "http://u:IDXPW12@127.0.0.1:9/",
      ]);
      expectRefusal(secret, /^Error: --indexer http:\/\/127\.0\.0\.1:9 carries credentials/m);
      expect(secret.stdout + secret.stderr).not.to.include("IDXPW12");
    });

    it("a blacklisted winner gets a decoded refusal, then claims --to a clean address", async function () {
      const hash = await chain.wallet(0).writeContract({
        address: chain.contracts.usdc,
        abi: testUsdcAbi,
        functionName: "blacklist",
        args: [w3 as `0x${string}`],
      });
      await chain.publicClient.waitForTransactionReceipt({ hash });
      await refuses(
        ["bounty:claim", "--from", w3, "--all"],
        // each credit is simulated on its own (probe21 B-F10): both named, with the token's advice
        new RegExp(
          `No credit of ${w3} can be claimed now; nothing was sent:\n {2}bounty ${a} \\(token \\S+\\): claim reverted: .*blacklisted.*The token blacklists ${w3} \\(the recipient\\): retry with --to a clean address\\.\n {2}bounty ${b} `,
        ),
      );
      // probe28c C-F4: the retry lines carry --to <clean address> (pasted without it, they failed the
      // same way), and the header does not tell the winner to wait for the token
      const refused = await run(["bounty:claim", "--from", w3, "--all"]);
      expect(refused.stderr).not.to.include("once its token transfers again");
      expect(refused.stderr).to.include(
        `Retry each alone (the token blacklists ${w3}: replace <clean address> with an address it does not blacklist) with:`,
      );
      const retries = [...refused.stderr.matchAll(/^ {2}(.*bounty:claim.* --id .*)$/gm)].map((m) => m[1]!);
      expect(retries, refused.stderr).to.have.length(2);
      expect(retries[0]).to.match(
        new RegExp(
          `npx hardhat bounty:claim --network localhost --from ${w3} --id ${a} --to '<clean address>'$`,
        ),
      );
      const before = await usdcBalance(other);
      // the first retry, filled with a clean address, claims that bounty
      const argv = retries[0]!
        .replace(/^.*npx hardhat /, "")
        .replace("'<clean address>'", other)
        .split(" ")
        .filter((w, i, all) => w !== "--network" && all[i - 1] !== "--network");
      expect(expectOk(await run(argv))).to.include(
        `Claimed bounty ${a}: 2.469135 USDC from ${w3} to ${other}`,
      );
      const out = expectOk(await run(["bounty:claim", "--from", w3, "--all", "--to", other]));
      expect(out).to.include(`Claimed bounty ${b}: 2.469135 USDC from ${w3} to ${other}`);
      expect(await usdcBalance(other)).to.equal(before + 2n * 2_469_135n);
    });

    // probe31 C-F2: at closesAt - 1 in the latest block it was refused "not open yet", though the block the
    // award lands in (the pending one) is open
    it("judges the window's opening by the block the award lands in: at closesAt - 1 in the latest block it simulates (probe31 C-F2)", async function () {
      const c = await lockSmall(60n, 7200n);
      const { closesAt } = await bounty(c);
      await rpc(chain.rpcUrl, "evm_setNextBlockTimestamp", [Number(closesAt - 1n)]);
      await rpc(chain.rpcUrl, "evm_mine");
      expect(await chainTime(chain)).to.equal(closesAt - 1n);
      const before = await blockNumber(chain);
      const out = expectOk(await run([...awardSmallArgs(c, { rankDerivation: rdNoReceipts }), "--dry-run"]));
      expect(out).to.include("Dry run: the award simulates fine; nothing sent.");
      expect(await blockNumber(chain), "a dry run sends nothing").to.equal(before);
    });

    it("refuses an award at the deadline's last second, --dry-run too: the send lands in the next block; nothing sent (probe28c C-F1)", async function () {
      const c = await lockSmall(60n, 120n);
      const cDeadline = (await bounty(c)).awardDeadline;
      // the latest block's time is the award deadline: no block to come can carry the award
      await rpc(chain.rpcUrl, "evm_setNextBlockTimestamp", [Number(cDeadline)]);
      await rpc(chain.rpcUrl, "evm_mine");
      expect(await chainTime(chain)).to.equal(cDeadline);
      const nonce = await chain.publicClient.getTransactionCount({ address: awarder as `0x${string}` });
      for (const extra of [["--dry-run"], []])
        await refuses(
          [...awardSmallArgs(c, { rankDerivation: rdNoReceipts }), ...extra],
          /award reverted with AwardAfterDeadline\(/,
        );
      expect(
        await chain.publicClient.getTransactionCount({ address: awarder as `0x${string}` }),
        "nonce unchanged: nothing sent",
      ).to.equal(nonce);
    });

    it("says so when the award it sent is mined reverted: its hash, block and gas, not a bare revert (probe28c C-F1)", async function () {
      const c = await lockSmall(60n, 120n);
      const { awardDeadline: cDeadline, status: funded } = await bounty(c);
      await chain.increaseTime(61); // the window is open: the simulation on the pending block passes
      await rpc(chain.rpcUrl, "evm_setAutomine", [false]);
      try {
        const awarding = run(awardSmallArgs(c, { rankDerivation: rdNoReceipts }));
        // the award waits in the pool; the block that carries it comes after the deadline
        const deadline = Date.now() + 60_000;
        let pending: { hash: string }[] = [];
        while (pending.length === 0 && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 100));
          const block = await rpc<{ transactions: { hash: string; from: string }[] }>(
            chain.rpcUrl,
            "eth_getBlockByNumber",
            ["pending", true],
          );
          pending = block.transactions.filter((t) => t.from.toLowerCase() === awarder.toLowerCase());
        }
        expect(pending, "the award was sent").to.have.length(1);
        await rpc(chain.rpcUrl, "evm_setNextBlockTimestamp", [Number(cDeadline) + 1]);
        await rpc(chain.rpcUrl, "evm_mine");
        const r = await awarding;
        expectRefusal(
          r,
          new RegExp(
            `award transaction ${pending[0]!.hash} was mined reverted in block \\d+ \\(gas used \\d+ paid by ${awarder}\\)`,
            "i",
          ),
        );
        expect((await bounty(c)).status, "still funded: not awarded").to.equal(funded);
      } finally {
        await rpc(chain.rpcUrl, "evm_setAutomine", [true]);
      }
    });

    it("refuses an award after the deadline", async function () {
      const c = await lockSmall(60n, 120n);
      const cDeadline = (await bounty(c)).awardDeadline;
      await chain.increaseTime(Number(cDeadline - (await chainTime(chain))) + 1);
      await refuses(
        awardSmallArgs(c, { rankDerivation: rdNoReceipts }),
        /award deadline of bounty \d+ .* has passed: it can no longer be awarded; the author may reclaim/,
      );
    });
  });

  describe("zero-winner award and the author's credit", function () {
    /**
     * Locks a bounty of 5 tokens (USDC unless `token`) from the author, closing in 60 s, that
     * packs/zero-winner.json awards (its threshold), on `commitment` (default: a fresh root, which the
     * vector's receipts do not name), and returns its id.
     */
    async function lockZeroWinner(
      thresholdBps: number,
      token?: string,
      commitment = commitmentFile(),
    ): Promise<bigint> {
      const now = await chainTime(chain);
      return lockBounty({
        from: author,
        commitment,
        pool: "5",
        closesAt: now + 60n,
        awardDeadline: now + 3600n,
        payoutRule: "winner_take_all",
        thresholdBps,
        awarder,
        ...(token ? { token } : {}),
      });
    }

    it("credits the whole pool to the author and lets the author claim it (--all from logs)", async function () {
      const zero = vector<Pack>("packs/zero-winner.json");
      const rd = zero.rank_derivation as unknown as {
        pool_base_units: string;
        splits_bps: number[];
        threshold_bps: number;
      };
      expect(rd.splits_bps).to.deep.equal([10000]);
      const id = await lockZeroWinner(rd.threshold_bps, undefined, commitmentOf(zero));
      await chain.increaseTime(61);
      const award = expectOk(
        await run(
          awardArgs({
            from: awarder,
            id,
            rankDerivation: writeFile(dir, "zero.json", { rank_derivation: zero.rank_derivation }),
          }),
        ),
      );
      expect(award).to.include(
        "no winner     none_at_or_above_threshold: the whole pool returns to the author",
      );
      expect(award).to.include("authorRemainder 5.000000 USDC");
      expect(award).to.include(`rankingDigest   ${zero.benchmark.ranking_digest}`);
      expect(await creditOf(id, author)).to.equal(5_000_000n);
      const awardedStatus = expectOk(await run(["bounty:status", "--id", String(id)]));
      expect(awardedStatus).to.include(
        "✓ the pool was locked and is awarded: 5.000000 USDC (5000000 base units) of credit is still in the contract",
      );
      // bounty:credits prints the claim command; run it as printed.
      const credits = expectOk(await run(["bounty:credits", "--account", author]));
      const printed = /^Claim with:\n {2}(.*)$/m
        .exec(credits)?.[1]
        ?.replace(
          `LOCAL_RPC_URL=${chain.rpcUrl} BENCH_BOUNTY_LOCAL_DEPLOYMENT=${process.env.BENCH_BOUNTY_LOCAL_DEPLOYMENT} npx hardhat `,
          "",
        );
      expect(printed, credits).to.equal(`bounty:claim --network localhost --from ${author} --all`);
      const argv = printed!.split(" ").filter((w, i, all) => w !== "--network" && all[i - 1] !== "--network");
      const before = await usdcBalance(author);
      const claim = expectOk(await run(argv));
      expect(claim).to.include(`Claimed bounty ${id}: 5.000000 USDC`);
      expect(await usdcBalance(author)).to.equal(before + 5_000_000n);
      const paidOut = expectOk(await run(["bounty:status", "--id", String(id)]));
      expect(paidOut).to.include(
        "✓ the pool was locked, then awarded and paid out: every credit has been claimed (status Awarded)",
      );
      expect(paidOut).not.to.include("the pool is locked");
      expect(paidOut).to.include(`${author}  5.000000 USDC (5000000 base units) (remainder; claimed)`);
      // probe26 B-F4: piped into a reader that closes after one line (its lines come between chain reads):
      // no 'error' event with a stack, the task's own exit code
      const headed = await cliIntoHead(["bounty:status", "--id", String(id)]);
      expect(headed.stdout.split("\n").filter(Boolean), headed.stderr).to.have.length(1);
      expect(headed.stderr).not.to.match(/EPIPE|^\s+at /m);
      expect(headed.code, headed.stderr).to.equal(0);
    });

    it("--all claims each credit on its own: a token refusing transfers is named with its --id retry, the USDC credit is still claimed (probe21 B-F10)", async function () {
      const zero = vector<Pack>("packs/zero-winner.json");
      // two bounties on fresh roots: the rows without the receipts that name the vector's root
      for (const row of zero.rank_derivation.rows) delete (row as { receipt?: unknown }).receipt;
      const rdFile = writeFile(dir, "zero-again.json", { rank_derivation: zero.rank_derivation });
      const junk = await deployTestToken("RefusingToken");
      const threshold = (zero.rank_derivation as unknown as { threshold_bps: number }).threshold_bps;
      const junkId = await lockZeroWinner(threshold, junk);
      const usdcId = await lockZeroWinner(threshold);
      await chain.increaseTime(61);
      for (const id of [junkId, usdcId])
        expectOk(await run(awardArgs({ from: awarder, id, rankDerivation: rdFile })));
      const refuse = async (on: boolean) =>
        chain.publicClient.waitForTransactionReceipt({
          hash: await chain.wallet(0).writeContract({
            address: junk as `0x${string}`,
            abi: [
              {
                type: "function",
                name: "refuse",
                stateMutability: "nonpayable",
                inputs: [{ name: "on", type: "bool" }],
                outputs: [],
              },
            ] as const,
            functionName: "refuse",
            args: [on],
          }),
        });
      await refuse(true);
      const before = await usdcBalance(author);
      // every token's credits (--token all; by default only USDC's, probe27 C-F8)
      const claim = await run(["bounty:claim", "--from", author, "--all", "--token", "all"]);
      // the USDC credit is claimed; the refused one is named (bounty id, token) with the --id retry; exit 1
      expect(claim.stdout, claim.stderr).to.include(`Claimed bounty ${usdcId}: 5.000000 USDC`);
      expect(await usdcBalance(author)).to.equal(before + 5_000_000n);
      expect(await creditOf(junkId, author)).to.equal(5_000_000n);
      expectRefusal(claim, new RegExp(`bounty ${junkId} \\(token ${junk}\\): claim reverted: no\\b`, "i"));
      const retry = /^ {2}(.*bounty:claim.* --id .*)$/m.exec(claim.stderr)?.[1];
      expect(retry, claim.stderr).to.match(
        new RegExp(`npx hardhat bounty:claim --network localhost --from ${author} --id ${junkId}$`),
      );
      // the retry, pasted once the token transfers again, claims the rest
      await refuse(false);
      // probe32 C-F1 (the token transfers again): --to the bounty's own token contract (tokens paid there are lost for good) is refused
      // before anything is sent, a claim and a relayed claim alike; the credit stays
      for (const who of [
        ["--from", author],
        ["--relay", "--account", author, "--from", awarder],
      ])
        await refuses(
          ["bounty:claim", ...who, "--id", String(junkId), "--to", junk],
          new RegExp(
            `^Error: --to: ${junk} is the token contract of bounty ${junkId} \\(${junk}\\): tokens paid to their own contract are lost for good\\. Nothing was sent\\.$`,
            "im",
          ),
        );
      expect(await creditOf(junkId, author)).to.equal(5_000_000n);
      const argv = retry!
        .replace(/^.*npx hardhat /, "")
        .split(" ")
        .filter((w, i, all) => w !== "--network" && all[i - 1] !== "--network");
      expect(expectOk(await run(argv))).to.include(`Claimed bounty ${junkId}: 5.000000 JUNK`);
      expect(await creditOf(junkId, author)).to.equal(0n);
    });
  });

  describe("bounty:reclaim", function () {
    let id: bigint;
    before(async function () {
      const now = await chainTime(chain);
      id = await lockBounty({
        from: author,
        commitment: commitmentFile(),
        pool: "7",
        closesAt: now + 60n,
        awardDeadline: now + 120n,
        payoutRule: "winner_take_all",
        thresholdBps: 0,
      });
    });

    it("refuses before the award deadline and for a stranger", async function () {
      await refuses(
        ["bounty:reclaim", "--from", author, "--id", String(id)],
        /can be reclaimed only after that \(the awarder may still award it\)/,
      );
      await refuses(
        ["bounty:reclaim", "--from", stranger, "--id", String(id)],
        /is not the author of bounty \d+ .*only the author can reclaim/,
      );
    });

    it("reclaims at the award deadline's last second: the pending block, where the reclaim lands, is past it (probe29 C-F6)", async function () {
      const now = await chainTime(chain);
      const last = await lockBounty({
        from: author,
        commitment: commitmentFile(),
        pool: "1",
        closesAt: now + 60n,
        awardDeadline: now + 120n,
        payoutRule: "winner_take_all",
        thresholdBps: 0,
      });
      const lastDeadline = (await bounty(last)).awardDeadline;
      // the latest block's time is the award deadline: no block to come can carry an award
      await rpc(chain.rpcUrl, "evm_setNextBlockTimestamp", [Number(lastDeadline)]);
      await rpc(chain.rpcUrl, "evm_mine");
      expect(await chainTime(chain)).to.equal(lastDeadline);
      const out = expectOk(await run(["bounty:reclaim", "--from", author, "--id", String(last)]));
      expect(out).to.include(`Reclaimed bounty ${last}: 1.000000 USDC to ${author}.`);
      expect((await bounty(last)).status).to.equal(4); // Reclaimed
    });

    it("returns the pool after the deadline, and refuses a second reclaim", async function () {
      await chain.increaseTime(121);
      const before = await usdcBalance(author);
      const toBefore = await usdcBalance(other);
      await refuses(
        [
          "bounty:reclaim",
          "--from",
          author,
          "--id",
          String(id),
          "--to",
          "0x0000000000000000000000000000000000000000",
        ],
        /--to: the zero address can never claim/,
      );
      const out = expectOk(
        await run(["bounty:reclaim", "--from", author, "--id", String(id), "--to", other]),
      );
      expect(out).to.include(`7.000000 USDC returns to ${other} (--to)`);
      expect(out).to.include(`Reclaimed bounty ${id}: 7.000000 USDC to ${other}. The test set stays hidden.`);
      expect(await usdcBalance(other)).to.equal(toBefore + 7_000_000n);
      expect(await usdcBalance(author)).to.equal(before);
      const status = await run(["bounty:status", "--id", String(id)]);
      expectRefusal(status, /does NOT verify: the pool is not locked: the author reclaimed it/);
      expect(status.stdout).to.include(
        `✗ the pool is not locked: the author reclaimed it (status Reclaimed; 7.000000 USDC (7000000 base units) went back to ${other}`,
      );
      expect(status.stdout).not.to.include("the pool is locked");
      await refuses(
        ["bounty:reclaim", "--from", author, "--id", String(id)],
        /is already Reclaimed: there is nothing to reclaim/,
      );
      const root = (await bounty(id)).testSetRoot;
      expect(
        await chain.publicClient.readContract({
          address: chain.contracts.benchmarkBounty,
          abi: benchmarkBountyAbi,
          functionName: "rootBurned",
          args: [author as `0x${string}`, root],
        }),
      ).to.equal(false);
    });
  });

  describe("relayed claim (bounty:claim --relay, lib/relay.ts)", function () {
    let id: bigint;
    let winner: string; // holds no ETH
    let second: string;
    let third: string;
    let relayer: string;
    const ethBalance = async (a: string) =>
      BigInt(await rpc<string>(chain.rpcUrl, "eth_getBalance", [a, "latest"]));
    /** Runs the task with CLAIMER_PRIVATE_KEY set to `key` (or unset). */
    async function withClaimerKey(key: string | undefined, args: string[]): Promise<Run> {
      if (key === undefined) delete process.env.CLAIMER_PRIVATE_KEY;
      else process.env.CLAIMER_PRIVATE_KEY = key;
      try {
        return await run(args);
      } finally {
        delete process.env.CLAIMER_PRIVATE_KEY;
      }
    }
    /** One `Error:` line on stderr, nothing mined. */
    async function refusedInOneLine(key: string | undefined, args: string[], pattern: RegExp) {
      const before = await blockNumber(chain);
      const r = await withClaimerKey(key, args);
      expectRefusal(r, pattern);
      expect(r.stderr.trim().split("\n"), r.stderr).to.have.length(1);
      expect(await blockNumber(chain), "a refusal sends nothing").to.equal(before);
      // probe26 C-F3: "Relayed claim ... paid to X" was printed before the send and stayed when refused
      expect(r.stdout, "no payment on stdout when refused").not.to.match(/Relayed claim|Claimed bounty/);
    }

    before(async function () {
      [winner, second, third, relayer] = [10, 11, 12, 13].map((i) => chain.accounts[i]!.address);
      id = await lockSmall(60n, 7200n);
      await chain.increaseTime(61);
      const withdrawals = writeFile(dir, "relay-withdrawals.json", {
        "vec-a": winner,
        "vec-c": second,
        "vec-d": third,
      });
      const rd = writeFile(dir, "relay-rd.json", await rankDerivationOnly(smallText, { receipts: false }));
      expectOk(await run(awardArgs({ from: awarder, id, rankDerivation: rd, withdrawalsFile: withdrawals })));
      await rpc(chain.rpcUrl, "hardhat_setBalance", [winner, "0x0"]);
    });

    it("refuses a signature by another key, in one line, sending nothing", async function () {
      await refusedInOneLine(
        chain.accounts[12]!.privateKey,
        ["bounty:claim", "--relay", "--id", String(id), "--account", winner, "--from", relayer],
        /^Error: claimWithSig reverted with \w+\(.*\)\. The Claim signature is not by /m,
      );
    });

    it("refuses a winner the node cannot sign for, without CLAIMER_PRIVATE_KEY", async function () {
      await refusedInOneLine(
        undefined,
        [
          "bounty:claim",
          "--relay",
          "--id",
          String(id),
          "--account",
          "0x000000000000000000000000000000000000dEaD",
          "--from",
          relayer,
        ],
        /^Error: --account 0x000000000000000000000000000000000000dEaD is not one of the node's accounts.*CLAIMER_PRIVATE_KEY/m,
      );
    });

    it("refuses an expired deadline, in one line, sending nothing", async function () {
      await refusedInOneLine(
        undefined,
        [
          "bounty:claim",
          "--relay",
          "--id",
          String(id),
          "--account",
          winner,
          "--from",
          relayer,
          "--deadline",
          "1",
        ],
        /^Error: claimWithSig reverted with \w+\(.*\)\. The Claim signature expired/m,
      );
    });

    it("refuses a --deadline past the year 9999 (or out of uint256) naming it, in one line (probeD3 F4)", async function () {
      for (const deadline of ["9999999999999999", (2n ** 256n).toString()])
        await refusedInOneLine(
          undefined,
          ["bounty:claim", "--relay", "--id", String(id), "--account", winner, "--from", relayer].concat([
            "--deadline",
            deadline,
          ]),
          /^Error: --deadline must be at most 253402300799 \(unix seconds of 9999-12-31T23:59:59Z\), got /m,
        );
    });

    // probe16 B-F9: a winner without ETH claiming itself got "An unexpected error occurred" and a stack
    it("a winner who holds no ETH claiming itself: one line naming it, the chain and --relay, sending nothing", async function () {
      expect(await ethBalance(winner)).to.equal(0n);
      await refusedInOneLine(
        undefined,
        ["bounty:claim", "--id", String(id), "--from", winner],
        new RegExp(
          `^Error: ${winner} holds no ETH on localhost \\(chain id 8453\\) to pay the gas of claim: .*Nothing was sent\\. Run: .*npx hardhat bounty:claim --network localhost --relay --id ${id} --account ${winner}$`,
          "m",
        ),
      );
    });

    // probe27 C-F2: the printed relay command dropped --to (and --network): pasted, it paid the winner itself
    it("a winner without ETH claiming --to X is told a relay command that keeps --to and --network; pasted, it pays X", async function () {
      const fresh = await lockSmall(60n, 7200n);
      await chain.increaseTime(61);
      const withdrawals = writeFile(dir, "relay-to-withdrawals.json", {
        "vec-a": winner,
        "vec-c": second,
        "vec-d": third,
      });
      const rd = writeFile(dir, "relay-to-rd.json", await rankDerivationOnly(smallText, { receipts: false }));
      expectOk(
        await run(awardArgs({ from: awarder, id: fresh, rankDerivation: rd, withdrawalsFile: withdrawals })),
      );
      const r = await run(["bounty:claim", "--id", String(fresh), "--from", winner, "--to", other]);
      expectRefusal(r, /holds no ETH on localhost \(chain id 8453\) to pay the gas of claim: /);
      const printed = / Run: (.*)$/m.exec(r.stderr)?.[1];
      expect(printed, r.stderr).to.equal(
        `LOCAL_RPC_URL=${chain.rpcUrl} BENCH_BOUNTY_LOCAL_DEPLOYMENT=${process.env.BENCH_BOUNTY_LOCAL_DEPLOYMENT} npx hardhat bounty:claim --network localhost --relay --id ${fresh} --account ${winner} --to ${other}`,
      );
      const argv = printed!
        .replace(/^.*npx hardhat /, "")
        .split(" ")
        .filter((w, i, all) => w !== "--network" && all[i - 1] !== "--network");
      const before = await usdcBalance(other);
      const out = expectOk(await run(argv));
      expect(out).to.include(`Claimed bounty ${fresh}: 6.172841 USDC from ${winner} to ${other}`);
      expect(await usdcBalance(other)).to.equal(before + 6_172_841n);
      expect(await creditOf(fresh, winner)).to.equal(0n);
    });

    it("a token that blacklists the bounty contract or the author is named as such, never 'claim with --to' (probe30 C-F3)", async function () {
      const setBlacklisted = async (who: string, on: boolean) => {
        const hash = await chain.wallet(0).writeContract({
          address: chain.contracts.usdc,
          abi: testUsdcAbi,
          functionName: on ? "blacklist" : "unBlacklist",
          args: [who as `0x${string}`],
        });
        await chain.publicClient.waitForTransactionReceipt({ hash });
      };
      const contractNamed = new RegExp(
        `The token blacklists ${chain.contracts.benchmarkBounty} \\(the bounty contract, which sends the claim\\): no --to helps`,
      );
      await setBlacklisted(chain.contracts.benchmarkBounty, true);
      try {
        for (const args of [
          ["bounty:claim", "--from", second, "--id", String(id)],
          [
            "bounty:claim",
            "--relay",
            "--id",
            String(id),
            "--account",
            second,
            "--to",
            other,
            "--from",
            relayer,
          ],
        ]) {
          const before = await blockNumber(chain);
          const r = await run(args);
          expectRefusal(r, contractNamed);
          expect(r.stderr).not.to.match(/clean address/);
          expect(await blockNumber(chain), "a refusal sends nothing").to.equal(before);
        }
      } finally {
        await setBlacklisted(chain.contracts.benchmarkBounty, false);
      }
      // a lock has no --to: the blacklisted author is named as the author
      await setBlacklisted(author, true);
      try {
        const now = await chainTime(chain);
        await refuses(
          plainLockArgs(now, { commitment: commitmentFile() }),
          new RegExp(`The token blacklists ${author} \\(the author, --from\\): it cannot fund a bounty`),
        );
        const r = await run(plainLockArgs(now, { commitment: commitmentFile() }));
        expect(r.stderr).not.to.match(/clean address|claim/);
      } finally {
        await setBlacklisted(author, false);
      }
    });

    it("pays a winner who holds no ETH: the winner signs, the relayer sends and pays the gas", async function () {
      expect(await ethBalance(winner)).to.equal(0n);
      const usdcBefore = await usdcBalance(winner);
      const relayerUsdc = await usdcBalance(relayer);
      const relayerEth = await ethBalance(relayer);
      const out = expectOk(
        await run(["bounty:claim", "--relay", "--id", String(id), "--account", winner, "--from", relayer]),
      );
      expect(out).to.include(`gas paid by ${relayer} (--from)`);
      expect(out).to.include(`Claimed bounty ${id}: 6.172841 USDC from ${winner} to ${winner}`);
      expect(await usdcBalance(winner)).to.equal(usdcBefore + 6_172_841n);
      expect(await ethBalance(winner), "the winner paid no gas").to.equal(0n);
      expect(await ethBalance(relayer)).to.be.lessThan(relayerEth);
      expect(await usdcBalance(relayer), "the relayer gets none of the credit").to.equal(relayerUsdc);
      expect(await creditOf(id, winner)).to.equal(0n);
    });

    it("signs with CLAIMER_PRIVATE_KEY (the account defaults to the key's) and pays --to", async function () {
      const before = await usdcBalance(other);
      const out = expectOk(
        await withClaimerKey(chain.accounts[12]!.privateKey, [
          "bounty:claim",
          "--relay",
          "--id",
          String(id),
          "--to",
          other,
          "--from",
          relayer,
        ]),
      );
      expect(out).to.include(`Claimed bounty ${id}: 2.469135 USDC from ${third} to ${other}`);
      expect(await usdcBalance(other)).to.equal(before + 2_469_135n);
    });

    it("relayClaim (viem, no Hardhat) pays; the same signature cannot be used twice", async function () {
      const { relayClaim, submitClaim } = await import("../lib/relay");
      const { decodeRevert } = await import("../lib/errors");
      const { Interface } = await import("ethers");
      const request = {
        bounty: chain.contracts.benchmarkBounty,
        chainId: 8453,
        bountyId: id,
        account: second as `0x${string}`,
        to: second as `0x${string}`,
        deadline: (await chainTime(chain)) + 600n,
      };
      const before = await usdcBalance(second);
      const { claim, receipt } = await relayClaim(
        chain.publicClient as never,
        chain.wallet(11) as never,
        chain.wallet(13) as never,
        request,
      );
      expect(receipt.status).to.equal("success");
      expect(receipt.from.toLowerCase()).to.equal(relayer.toLowerCase());
      expect(await usdcBalance(second)).to.equal(before + 3_703_703n);
      const blockBefore = await blockNumber(chain);
      let error: unknown;
      try {
        await submitClaim(chain.publicClient as never, chain.wallet(13) as never, claim);
      } catch (e) {
        error = e;
      }
      expect(error, "a replayed signature is refused").to.not.equal(undefined);
      const decoded = decodeRevert(error, [new Interface(benchmarkBountyAbi as never)], "claimWithSig");
      expect(decoded.name).to.equal("TaskError");
      expect(decoded.message).to.match(/^claimWithSig reverted with \w+\(/);
      expect(decoded.message).not.to.include("\n");
      expect(await blockNumber(chain)).to.equal(blockBefore);
    });
  });

  describe("anchor and anchor:check", function () {
    type Receipts = { receipts: { receipt: unknown; receipt_hash: string }[] };
    let receiptFile: string;
    let receiptHash: string;
    let anchorBlock: bigint;
    before(async function () {
      // Write the receipt losslessly (canonical JSON of the SPEC 2 parse).
      const { parseJson, canonicalJsonString } = await import("@bench-bounty/evidence");
      const receipts = parseJson(fs.readFileSync(vectorPath("receipts.json"))) as unknown as Receipts;
      receiptFile = writeFile(dir, "receipt.json", canonicalJsonString(receipts.receipts[0]!.receipt));
      receiptHash = receipts.receipts[0]!.receipt_hash;
    });

    it("anchors a file as keccak256 of its canonical JSON", async function () {
      const out = expectOk(await run(["anchor", "--from", w1, "--file", receiptFile, "--kind", "receipt"]));
      expect(out).to.include(`Anchored ${receiptHash} as receipt by ${w1}`);
      const rec = await chain.publicClient.readContract({
        address: chain.contracts.anchorRegistry,
        abi: anchorRegistryAbi,
        functionName: "anchorOf",
        args: [receiptHash as `0x${string}`],
      });
      expect(rec[0]).to.equal(w1);
      expect(rec[3]).to.equal(ANCHOR_KINDS.receipt);
      anchorBlock = rec[1];
    });

    it("anchor:check reads the record and checks kind and block", async function () {
      const out = expectOk(
        await run([
          "anchor:check",
          "--file",
          receiptFile,
          "--kind",
          "receipt",
          "--at-or-before",
          String(anchorBlock),
        ]),
      );
      expect(out).to.include(`anchored by  ${w1}`);
      expect(out).to.include(`block        ${anchorBlock}`);
      expect(out).to.include("Anchor check passed.");
      expectRefusal(
        await run(["anchor:check", "--digest", receiptHash, "--kind", "pack"]),
        /was anchored first by 0x[0-9a-fA-F]{40} in block \d+ with kind receipt, not pack: the registry keeps the first anchoring, so it can never be anchored as a pack; the pack's pack_anchor fact \(SPEC 9\) can never verify\.$/m,
      );
      expectRefusal(
        await run(["anchor:check", "--digest", receiptHash, "--at-or-before", String(anchorBlock - 1n)]),
        new RegExp(`was anchored at block ${anchorBlock}, after block ${anchorBlock - 1n}`),
      );
      expectRefusal(
        await run(["anchor:check", "--digest", "0x" + "12".repeat(32)]),
        /is NOT anchored in AnchorRegistry/,
      );
    });

    // probe27 C-F5: the whole file's keccak was compared, never the pack's pack_hash (SPEC 8)
    it("a pack file is checked by its pack_hash, a served receipt answer by its receipt_hash (probe27 C-F5)", async function () {
      const packFile = writeFile(dir, "anchored-pack.json", smallText);
      const packHash = (JSON.parse(smallText) as { pack_hash: string }).pack_hash;
      expectOk(await run(["anchor", "--from", w2, "--digest", packHash, "--kind", "pack"]));
      const out = expectOk(await run(["anchor:check", "--file", packFile, "--kind", "pack"]));
      expect(out).to.include(`${packHash} (pack_hash of ${packFile}, recomputed (SPEC 8))`);
      expect(out).to.include("Anchor check passed.");
      expect(expectOk(await run(["anchor:check", "--file", packFile]))).to.include("Anchor check passed.");
      // a pack whose pack_hash field was edited: refused naming both digests
      const edited = writeFile(dir, "edited-pack.json", smallText.replace(packHash, "0x" + "ab".repeat(32)));
      expectRefusal(
        await run(["anchor:check", "--file", edited, "--kind", "pack"]),
        new RegExp(`\\$\\.pack_hash is "0x${"ab".repeat(32)}" but recomputed it is ${packHash}`),
      );
      // the server's receipt answer {receipt, receipt_hash}: its receipt_hash, anchored above
      const { parseJson, canonicalJsonString } = await import("@bench-bounty/evidence");
      const receipt = parseJson(fs.readFileSync(receiptFile));
      const answer = writeFile(
        dir,
        "receipt-answer.json",
        canonicalJsonString({ receipt, receipt_hash: receiptHash } as never),
      );
      expect(expectOk(await run(["anchor:check", "--file", answer, "--kind", "receipt"]))).to.include(
        "Anchor check passed.",
      );
      await refuses(
        ["anchor", "--from", w2, "--file", packFile, "--kind", "receipt"],
        /--file .* is an evidence pack: anchor its pack_hash with --kind pack/,
      );
    });

    // probe40 C-F2: a commitment answer and a test-set file were hashed as plain JSON, not read as bounty:lock reads them
    it("a commitment file gives its root and a test-set file its SPEC 3 root, as bounty:lock reads them (probe40 C-F2)", async function () {
      const { parseJson, canonicalJsonString, canonicalHash } = await import("@bench-bounty/evidence");
      const commitments = parseJson(fs.readFileSync(vectorPath("commitment.json"))) as {
        test_sets: { name: string; rows: unknown; root: string; leaf_count: number }[];
      };
      const two = commitments.test_sets.find((t) => t.name === "two-rows")!;
      const rowsFile = writeFile(dir, "c-f2-rows.json", canonicalJsonString(two.rows as never));
      const wrapped = writeFile(
        dir,
        "c-f2-test-set.json",
        canonicalJsonString({ test_set: two.rows } as never),
      );
      const served = writeFile(dir, "c-f2-served.json", {
        slug: "two-rows",
        commit_root: two.root,
        leaf_count: two.leaf_count,
        commitment_anchor_status: "anchored",
        awarder: w1,
      });
      const plain = writeFile(dir, "c-f2-plain.json", { root: two.root, leafCount: two.leaf_count });
      const plainJson = writeFile(dir, "c-f2-other.json", { note: "no commitment" });
      // not anchored yet: the check names the root, not the file's keccak
      expectRefusal(
        await run(["anchor:check", "--file", served]),
        new RegExp(
          `^Error: ${two.root} \\(commitment root of \\S+c-f2-served\\.json\\) is NOT anchored`,
          "m",
        ),
      );
      // a test set with another kind, and a document that is no commitment with --kind commitment: refused
      await refuses(
        ["anchor", "--from", w1, "--file", rowsFile, "--kind", "receipt"],
        /--file \S+ is a test set: anchor its root with --kind commitment, or give --digest\. Nothing was sent\./,
      );
      await refuses(
        ["anchor", "--from", w1, "--file", plainJson, "--kind", "commitment"],
        /--file \S+c-f2-other\.json is no commitment: --kind commitment takes a \{root, leafCount\} file, .* Nothing was sent\./,
      );
      // probe40 V-N1: an array that is no test set is any other document (its canonical keccak), a test set
      // only to --kind commitment, which names the row it refuses
      const strings = writeFile(dir, "v-n1-array.json", ["a", "b"]);
      expectRefusal(
        await run(["anchor:check", "--file", strings]),
        new RegExp(
          `^Error: ${canonicalHash(["a", "b"])} \\(keccak256\\(canonical JSON of \\S+v-n1-array\\.json\\)\\) is NOT anchored`,
          "m",
        ),
      );
      await refuses(
        ["anchor", "--from", w1, "--file", strings, "--kind", "commitment"],
        /--file \S+v-n1-array\.json: \$\[0\]: a test-set row must be an object/,
      );
      const out = expectOk(await run(["anchor", "--from", w1, "--file", rowsFile, "--kind", "commitment"]));
      expect(out).to.include(`Anchored ${two.root} as commitment by ${w1}`);
      for (const file of [served, plain, wrapped, rowsFile]) {
        const checked = expectOk(await run(["anchor:check", "--file", file, "--kind", "commitment"]));
        expect(checked).to.include(`${two.root} (`);
        expect(checked).to.include("Anchor check passed.");
      }
    });

    // probe40 V-F3: a served receipt answer with --kind commitment was anchored (its receipt_hash as a commitment)
    it("a file's digest is anchored only as its own kind: a receipt's as receipt, a pack's as pack, a root as commitment (probe40 V-F3)", async function () {
      const { parseJson, canonicalJsonString, receiptHash: hashOf } = await import("@bench-bounty/evidence");
      // a receipt answer for a receipt not anchored yet: its run_id changed, its receipt_hash recomputed
      const receipt = {
        ...(parseJson(fs.readFileSync(receiptFile)) as Record<string, unknown>),
        run_id: "run-v-f3",
      };
      const fresh = hashOf(receipt);
      const answer = writeFile(
        dir,
        "v-f3-answer.json",
        canonicalJsonString({ receipt, receipt_hash: fresh } as never),
      );
      const bare = writeFile(dir, "v-f3-receipt.json", canonicalJsonString(receipt as never));
      const pack = writeFile(dir, "v-f3-pack.json", smallText);
      const before = await chain.publicClient.getBlockNumber();
      for (const kind of ["commitment", "pack", "compute-receipt"]) {
        await refuses(
          ["anchor", "--from", w1, "--file", answer, "--kind", kind],
          /^Error: --file \S+v-f3-answer\.json is a receipt answer \(\{receipt, receipt_hash\}\): anchor its receipt_hash with --kind receipt, or give --digest\. Nothing was sent\.$/m,
        );
        await refuses(
          ["anchor", "--from", w1, "--file", bare, "--kind", kind],
          /^Error: --file \S+v-f3-receipt\.json is a receipt \(\$\.schema bench-bounty\.receipt\.v1\): anchor its receipt hash with --kind receipt, or give --digest\. Nothing was sent\.$/m,
        );
        expectRefusal(
          await run(["anchor:check", "--file", answer, "--kind", kind]),
          /is a receipt answer \(\{receipt, receipt_hash\}\): anchor its receipt_hash with --kind receipt/,
        );
      }
      for (const kind of ["commitment", "receipt", "compute-receipt"])
        await refuses(
          ["anchor", "--from", w1, "--file", pack, "--kind", kind],
          /^Error: --file \S+v-f3-pack\.json is an evidence pack: anchor its pack_hash with --kind pack, or give --digest\. Nothing was sent\.$/m,
        );
      expect(await chain.publicClient.getBlockNumber(), "nothing sent").to.equal(before);
      // its own kind: anchored, by the receipt_hash
      expect(expectOk(await run(["anchor", "--from", w1, "--file", answer, "--kind", "receipt"]))).to.include(
        `Anchored ${fresh} as receipt by ${w1}`,
      );
    });

    // probe33 C-F9: a forgotten --from anchored a pack from account #0, its pack_anchor unverifiable for good
    it("a pack file is anchored only by its bounty's awarder, on the pack's own chain (probe33 C-F9)", async function () {
      const { parseJson, canonicalJsonString } = await import("@bench-bounty/evidence");
      /** The pack of bounty 1 without its (stale) pack_hash: `--kind pack` recomputes it. */
      const packFile = async (edit?: (bench: Record<string, unknown>) => void) => {
        const pack = parseJson(fs.readFileSync(await packOf(1n, [w1, w2, w3], edit))) as Record<
          string,
          unknown
        >;
        delete pack.pack_hash;
        rootCounter++;
        return writeFile(dir, `anchor-pack-${rootCounter}.json`, canonicalJsonString(pack as never));
      };
      const { awarder: a1 } = await bounty(1n);
      const pack = await packFile();
      await refuses(
        ["anchor", "--from", w2, "--file", pack, "--kind", "pack"],
        new RegExp(
          `${w2} is not the awarder of bounty 1 \\(${a1}\\): the verifier's pack_anchor counts only the awarder's anchor, .*anchor it with --from ${a1}\\. Nothing was sent\\.`,
        ),
      );
      await refuses(
        ["anchor", "--from", a1, "--file", await packFile((b) => (b.chain_id = 84532)), "--kind", "pack"],
        /\$\.benchmark\.chain_id is 84532, not the chain id 8453 of --network localhost: its pack_anchor could never verify\. Nothing was sent\./,
      );
      await refuses(
        ["anchor", "--from", a1, "--file", await packFile((b) => (b.bounty_id = 1)), "--kind", "pack"],
        /\$\.benchmark\.bounty_id must be a decimal string, got 1: its pack_anchor could never verify/,
      );
      expect(expectOk(await run(["anchor", "--from", a1, "--file", pack, "--kind", "pack"]))).to.include(
        ` as pack by ${a1} at block `,
      );
      // probe34 (e34's note): a stranger anchored the pack's digest as a pack first: a squat (pack_anchor
      // counts only the awarder's anchor), not "nothing to do"
      const squattedFile = await packFile((b) => (b.slug = "squatted-pack"));
      const { packHash } = await import("@bench-bounty/evidence");
      const squattedHash = packHash(parseJson(fs.readFileSync(squattedFile)) as never);
      expectOk(await run(["anchor", "--from", w3, "--digest", squattedHash, "--kind", "pack"]));
      await refuses(
        ["anchor", "--from", a1, "--file", squattedFile, "--kind", "pack"],
        new RegExp(
          `squatted: ${squattedHash} was anchored first as pack by ${w3} in block \\d+, not by ${a1}: .*pack_anchor fact can never verify\\. Nothing was sent\\.`,
        ),
      );
    });

    it("refuses a second anchoring, a bad kind and a bad digest", async function () {
      // probe34 C-F3: another anchorer's digest with another kind is a squat, not "nothing to do"
      await refuses(
        ["anchor", "--from", w2, "--digest", receiptHash, "--kind", "commitment"],
        new RegExp(
          `^Error: squatted: ${receiptHash} was anchored first by ${w1} in block \\d+ with kind receipt, not commitment: the registry keeps the first anchoring, so it can never be anchored as a commitment; a bounty on this root fails its commitment_anchor fact \\(SPEC 9\\) for good, so its pack never meets onchain; publish the test set anew with another seed or salts \\(a new root\\) and lock on that\\. Nothing was sent\\.$`,
          "m",
        ),
      );
      // the anchorer's own digest with another kind: the same, without "squatted"
      await refuses(
        ["anchor", "--from", w1, "--digest", receiptHash, "--kind", "pack"],
        new RegExp(
          `^Error: ${receiptHash} was anchored first by ${w1} in block \\d+ with kind receipt, not pack: .*can never verify\\. Nothing was sent\\.$`,
          "m",
        ),
      );
      // the same kind: done already, whoever anchored it (any anchorer's receipt anchor counts)
      for (const from of [w1, w2])
        await refuses(
          ["anchor", "--from", from, "--digest", receiptHash, "--kind", "receipt"],
          /is already anchored \(as receipt\) by 0x[0-9a-fA-F]{40} at block \d+: the first anchoring is kept forever, nothing to do\./,
        );
      await refuses(
        ["anchor", "--from", w2, "--digest", "0x" + "34".repeat(32), "--kind", "receipts"],
        /--kind must be one of commitment, receipt, pack, compute-receipt/,
      );
      await refuses(
        ["anchor", "--from", w2, "--digest", "0x1234", "--kind", "pack"],
        /--digest must be 0x \+ 64 hex characters/,
      );
      await refuses(
        ["anchor", "--from", w2, "--digest", "0x" + "00".repeat(32), "--kind", "pack"],
        /the zero digest cannot be anchored/,
      );
      const commitment = expectOk(
        await run(["anchor", "--from", w2, "--digest", "0x" + "34".repeat(32), "--kind", "compute-receipt"]),
      );
      expect(commitment).to.include("as compute-receipt");
    });
  });

  describe("the command line (npx hardhat ... --network localhost)", function () {
    it("prints results, and refusals as one Error line with exit code 1 and no stack trace", async function () {
      const ok = expectOk(await cli(["bounty:status", "--id", "1"]));
      expect(ok).to.include("Pending -> [Funded] -> Awarded | Reclaimed");
      const before = await blockNumber(chain);
      const now = await chainTime(chain);
      expectRefusal(
        await cli(plainLockArgs(now, { from: stranger, commitment: commitmentFile(), pool: "5" })),
        /Insufficient USDC balance/,
      );
      expectRefusal(await cli(["anchor:check", "--digest", "0x" + "56".repeat(32)]), /is NOT anchored/);
      expectRefusal(
        await cli(["bounty:claim", "--from", stranger, "--id", "1"]),
        /has no credit in bounty 1/,
      );
      expect(await blockNumber(chain)).to.equal(before);
    });

    it("sends a transaction from the command line (anchor)", async function () {
      const out = expectOk(
        await cli(["anchor", "--from", stranger, "--digest", "0x" + "78".repeat(32), "--kind", "pack"]),
      );
      expect(out).to.match(/Anchored 0x(78){32} as pack by 0x[0-9a-fA-F]{40} at block \d+/);
    });
  });

  // last: the bounties they lock would shift the ids the tests above expect
  describe("bounty:lock and the commitment anchor", function () {
    // probe34 C-F3: locked first, the root was public before it was anchored, and a stranger anchoring it
    // with another kind kept it for good (no pack of the bounty could meet commitment_anchor)
    it("refuses a root not anchored as a commitment, naming the anchor command; locks once it is (probe34 C-F3)", async function () {
      const { commitTestSet } = await import("@bench-bounty/evidence");
      const doc = JSON.parse(fs.readFileSync(`${REPO_ROOT}/deploy/examples/test-set.json`, "utf8")) as {
        test_set: { salt: string }[];
      };
      doc.test_set[0]!.salt = "c3f3".repeat(16);
      const file = writeFile(dir, "c-f3-test-set.json", doc);
      const root = commitTestSet(doc.test_set as never, "$.test_set").root.toLowerCase();
      const now = await chainTime(chain);
      const flags = { testSet: file, awarder, allowUnanchored: false };
      for (const dry of [[], ["--dry-run"]]) {
        const before = await blockNumber(chain);
        const r = await run([...plainLockArgs(now, flags), ...dry]);
        expectRefusal(
          r,
          new RegExp(
            `^Error: Root ${root} \\(from ${file} \\(committed here\\)\\) is not anchored as a commitment in AnchorRegistry ${chain.contracts.anchorRegistry}: the lock makes it public, and whoever anchors it first with another kind keeps it for good \\(SPEC 1\\.2\\), so no pack of the bounty could ever meet its commitment_anchor fact \\(SPEC 9\\)\\. Nothing was sent\\.`,
            "m",
          ),
        );
        expect(await blockNumber(chain), "a refusal sends nothing").to.equal(before);
      }
      const r = await run(plainLockArgs(now, flags));
      // the anchor command it names, run as printed (its words after `--network localhost`)
      const printed = /^ {2}(?:\S+=\S+ )*npx hardhat anchor --network localhost (.*)$/m.exec(r.stderr);
      expect(printed, r.stderr).to.not.equal(null);
      expect(printed![1]).to.equal(`--from ${author} --digest ${root} --kind commitment`);
      expect(r.stderr).to.include("(--allow-unanchored locks without it.)");
      expectOk(await run(["anchor", ...printed![1]!.split(" ")]));
      const out = expectOk(await run(plainLockArgs(now, flags)));
      expect(out).to.match(new RegExp(`anchor {8}anchored as a commitment by ${author} in block \\d+`));
      const b = await bounty(lockedId(out));
      expect(b.testSetRoot.toLowerCase()).to.equal(root);
    });

    it("refuses a root anchored first with another kind, --allow-unanchored or not (probe34 C-F3)", async function () {
      const file = commitmentFile();
      const { root } = JSON.parse(fs.readFileSync(file, "utf8")) as { root: string };
      expectOk(await run(["anchor", "--from", stranger, "--digest", root, "--kind", "receipt"]));
      const now = await chainTime(chain);
      for (const allowUnanchored of [false, true]) {
        await refuses(
          plainLockArgs(now, { commitment: file, allowUnanchored }),
          new RegExp(
            `^Error: squatted: ${root} was anchored first by ${stranger} in block \\d+ with kind receipt, not commitment: the registry keeps the first anchoring, so it can never be anchored as a commitment; a bounty on this root fails its commitment_anchor fact \\(SPEC 9\\) for good, so its pack never meets onchain; publish the test set anew with another seed or salts \\(a new root\\) and lock on that\\. Nothing was sent\\.$`,
            "m",
          ),
        );
      }
      // anchored as a commitment by anyone (the fact reads the kind): the lock goes through
      const other = commitmentFile();
      const { root: otherRoot } = JSON.parse(fs.readFileSync(other, "utf8")) as { root: string };
      expectOk(await run(["anchor", "--from", stranger, "--digest", otherRoot, "--kind", "commitment"]));
      const out = expectOk(await run(plainLockArgs(now, { commitment: other, allowUnanchored: false })));
      expect(out).to.include(`anchored as a commitment by ${stranger} in block `);
    });
  });
});
