/**
 * The local Base profile (SPEC 1.3) as a Hardhat fixture.
 *
 * Local mode (default): the Hardhat network runs with chain id 8453; the runtime code of `TestUSDC`
 * (FiatToken surface: "USD Coin"/"USDC", 6 decimals, EIP-2612 permit, blacklist) is placed at the Base
 * USDC address `0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913` with `hardhat_setCode`, so every test uses
 * the real address. BenchmarkBounty and AnchorRegistry are deployed and the named accounts hold USDC.
 *
 * Fork mode (`BASE_RPC_URL` set; `BASE_FORK_BLOCK` pins a block): hardhat.config.ts forks real Base, so
 * the address already holds Circle's FiatToken. The fixture then funds accounts by writing their balance
 * slot (found by probing, the high blacklist bit left clear) and blacklists by impersonating the token's
 * `blacklister()`. Test-token-only features (`mint` and the open blacklist) are reached only through
 * `fundUsdc` / `blacklistUsdc` / `unBlacklistUsdc`, which work in both modes. This path cannot run on a
 * machine without network access.
 */
import { ethers, network } from "hardhat";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/signers";
import {
  CLAIM_DOMAIN_NAME,
  CLAIM_DOMAIN_VERSION,
  CLAIM_TYPES as CONTRACT_CLAIM_TYPES,
  PERMIT_TYPES,
} from "@bench-bounty/contracts";
import type { AnchorRegistry, BenchmarkBounty, TestUSDC } from "../typechain-types";

/** Base mainnet USDC (SPEC 1.3). */
export const BASE_USDC_ADDRESS = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
/** One USDC in base units (6 decimals). */
export const ONE_USDC = 1_000_000n;
/** What each named account starts with: 1,000,000 USDC. */
export const INITIAL_USDC = 1_000_000n * ONE_USDC;

/** Payout rules of SPEC 1.1 / 7. */
export const WINNER_TAKE_ALL = [10_000];
export const TOP_N_SPLIT = [5_000, 3_000, 2_000];

/** Status enum mirror (IBenchmarkBounty.Status). */
export const Status = { None: 0n, Pending: 1n, Funded: 2n, Awarded: 3n, Reclaimed: 4n } as const;

/** Whether the Hardhat network forks Base (BASE_RPC_URL set). */
export function isForkMode(): boolean {
  return Boolean(process.env.BASE_RPC_URL);
}

export interface BaseProfile {
  forked: boolean;
  usdc: TestUSDC;
  bounty: BenchmarkBounty;
  registry: AnchorRegistry;
  /** Named accounts; all hold INITIAL_USDC. */
  deployer: HardhatEthersSigner;
  author: HardhatEthersSigner;
  awarder: HardhatEthersSigner;
  alice: HardhatEthersSigner;
  bob: HardhatEthersSigner;
  carol: HardhatEthersSigner;
  stranger: HardhatEthersSigner;
  /** Further signers for property tests. */
  others: HardhatEthersSigner[];
  /** Gives `to` `amount` more USDC (mint locally, balance slot write on a fork). */
  fundUsdc(to: string, amount: bigint): Promise<void>;
  blacklistUsdc(account: string): Promise<void>;
  unBlacklistUsdc(account: string): Promise<void>;
  /** Pauses / unpauses USDC as its pauser (locally the deployer is made pauser; on a fork, impersonated). */
  pauseUsdc(): Promise<void>;
  unpauseUsdc(): Promise<void>;
}

/** Places TestUSDC's runtime code at the Base USDC address (local mode). */
export async function installTestUsdc(): Promise<void> {
  const factory = await ethers.getContractFactory("TestUSDC");
  const template = await factory.deploy();
  await template.waitForDeployment();
  const code = await ethers.provider.getCode(await template.getAddress());
  await network.provider.send("hardhat_setCode", [BASE_USDC_ADDRESS, code]);
}

/** Finds the mapping slot of FiatToken's `balanceAndBlacklistStates` on a fork by probing. */
async function findBalanceSlot(usdc: TestUSDC, probe: string): Promise<bigint> {
  const coder = ethers.AbiCoder.defaultAbiCoder();
  const marker = 123_456_789n;
  for (let slot = 0n; slot < 32n; slot++) {
    const key = ethers.keccak256(coder.encode(["address", "uint256"], [probe, slot]));
    const saved = await ethers.provider.getStorage(BASE_USDC_ADDRESS, key);
    await network.provider.send("hardhat_setStorageAt", [BASE_USDC_ADDRESS, key, ethers.toBeHex(marker, 32)]);
    if ((await usdc.balanceOf(probe)) === marker) {
      await network.provider.send("hardhat_setStorageAt", [BASE_USDC_ADDRESS, key, saved]);
      return slot;
    }
    await network.provider.send("hardhat_setStorageAt", [BASE_USDC_ADDRESS, key, saved]);
  }
  throw new Error(`could not find the USDC balance slot at ${BASE_USDC_ADDRESS}`);
}

async function impersonate(address: string): Promise<HardhatEthersSigner> {
  await network.provider.send("hardhat_impersonateAccount", [address]);
  await network.provider.send("hardhat_setBalance", [address, ethers.toBeHex(10n ** 20n)]);
  return ethers.getSigner(address);
}

/**
 * The local Base profile: use with `loadFixture(baseProfile)` so each test starts from the same snapshot.
 */
export async function baseProfile(): Promise<BaseProfile> {
  const forked = isForkMode();
  const signers = await ethers.getSigners();
  const [deployer, author, awarder, alice, bob, carol, stranger, ...others] = signers;

  if (!forked) await installTestUsdc();
  const usdc = (await ethers.getContractAt("TestUSDC", BASE_USDC_ADDRESS)) as unknown as TestUSDC;

  const bounty = await (await ethers.getContractFactory("BenchmarkBounty")).deploy();
  const registry = await (await ethers.getContractFactory("AnchorRegistry")).deploy();
  await Promise.all([bounty.waitForDeployment(), registry.waitForDeployment()]);

  let fundUsdc: BaseProfile["fundUsdc"];
  let blacklistUsdc: BaseProfile["blacklistUsdc"];
  let unBlacklistUsdc: BaseProfile["unBlacklistUsdc"];
  let pauseUsdc: BaseProfile["pauseUsdc"];
  let unpauseUsdc: BaseProfile["unpauseUsdc"];
  if (!forked) {
    await (await usdc.updatePauser(deployer.address)).wait();
    pauseUsdc = async () => {
      await (await usdc.connect(deployer).pause()).wait();
    };
    unpauseUsdc = async () => {
      await (await usdc.connect(deployer).unpause()).wait();
    };
    fundUsdc = async (to, amount) => {
      await (await usdc.mint(to, amount)).wait();
    };
    blacklistUsdc = async (account) => {
      await (await usdc.blacklist(account)).wait();
    };
    unBlacklistUsdc = async (account) => {
      await (await usdc.unBlacklist(account)).wait();
    };
  } else {
    const slot = await findBalanceSlot(usdc, deployer.address);
    const coder = ethers.AbiCoder.defaultAbiCoder();
    fundUsdc = async (to, amount) => {
      const key = ethers.keccak256(coder.encode(["address", "uint256"], [to, slot]));
      const next = (await usdc.balanceOf(to)) + amount;
      await network.provider.send("hardhat_setStorageAt", [BASE_USDC_ADDRESS, key, ethers.toBeHex(next, 32)]);
    };
    const fiat = new ethers.Contract(
      BASE_USDC_ADDRESS,
      [
        "function blacklister() view returns (address)",
        "function blacklist(address)",
        "function unBlacklist(address)",
        "function pauser() view returns (address)",
        "function pause()",
        "function unpause()",
      ],
      ethers.provider,
    );
    const blacklister = async () => fiat.connect(await impersonate(await fiat.blacklister())) as typeof fiat;
    blacklistUsdc = async (account) => {
      await (await (await blacklister()).getFunction("blacklist")(account)).wait();
    };
    unBlacklistUsdc = async (account) => {
      await (await (await blacklister()).getFunction("unBlacklist")(account)).wait();
    };
    const pauser = async () => fiat.connect(await impersonate(await fiat.pauser())) as typeof fiat;
    pauseUsdc = async () => {
      await (await (await pauser()).getFunction("pause")()).wait();
    };
    unpauseUsdc = async () => {
      await (await (await pauser()).getFunction("unpause")()).wait();
    };
  }

  for (const s of [author, awarder, alice, bob, carol, stranger, ...others.slice(0, 6)]) {
    await fundUsdc(s.address, INITIAL_USDC);
  }

  return {
    forked,
    usdc,
    bounty,
    registry,
    deployer,
    author,
    awarder,
    alice,
    bob,
    carol,
    stranger,
    others,
    fundUsdc,
    blacklistUsdc,
    unBlacklistUsdc,
    pauseUsdc,
    unpauseUsdc,
  };
}

/** Parameters of a bounty, all fields (SPEC 1.1); `closesAt`/`awardDeadline` in unix seconds. */
export interface BountyParams {
  token: string;
  awarder: string;
  pool: bigint;
  testSetRoot: string;
  leafCount: number;
  closesAt: bigint;
  awardDeadline: bigint;
  thresholdBps: number;
  splitsBps: number[];
}

let rootCounter = 0;

/** A fresh, never-used test-set root (distinct per call). */
export function freshRoot(): string {
  rootCounter += 1;
  return ethers.keccak256(ethers.toUtf8Bytes(`bench-bounty test root ${rootCounter}`));
}

/**
 * Sensible bounty parameters relative to the latest block: closes in 1 day, award deadline 7 days later,
 * 100 USDC top_n_split, a fresh root. `overrides` replace any field.
 */
export async function bountyParams(
  fx: Pick<BaseProfile, "usdc" | "awarder">,
  overrides: Partial<BountyParams> = {},
): Promise<BountyParams> {
  const now = BigInt((await ethers.provider.getBlock("latest"))!.timestamp);
  return {
    token: await fx.usdc.getAddress(),
    awarder: fx.awarder.address,
    pool: 100n * ONE_USDC,
    testSetRoot: freshRoot(),
    leafCount: 12,
    closesAt: now + 86_400n,
    awardDeadline: now + 8n * 86_400n,
    thresholdBps: 5_000,
    splitsBps: TOP_N_SPLIT,
    ...overrides,
  };
}

/** Signs an EIP-2612 permit of `value` from `owner` to `spender` on the USDC at the Base address. */
export async function signPermit(
  usdc: TestUSDC,
  owner: HardhatEthersSigner,
  spender: string,
  value: bigint,
  deadline: bigint,
): Promise<{ v: number; r: string; s: string }> {
  const { chainId } = await ethers.provider.getNetwork();
  const domain = {
    name: await usdc.name(),
    version: await usdc.version(),
    chainId,
    verifyingContract: await usdc.getAddress(),
  };
  const types = { Permit: [...PERMIT_TYPES.Permit] };
  const nonce = await usdc.nonces(owner.address);
  const sig = ethers.Signature.from(
    await owner.signTypedData(domain, types, { owner: owner.address, spender, value, nonce, deadline }),
  );
  return { v: sig.v, r: sig.r, s: sig.s };
}

/**
 * The EIP-712 `Claim` type of `claimWithSig` (SPEC 1.1, v1.1): @bench-bounty/contracts' own
 * `CLAIM_TYPES`, as the mutable arrays ethers' `signTypedData` / `TypedDataEncoder` take.
 */
export const CLAIM_TYPES = { Claim: [...CONTRACT_CLAIM_TYPES.Claim] };

/** The EIP-712 domain of the BenchmarkBounty at `verifyingContract` (@bench-bounty/contracts' name and version). */
export function claimDomain(
  chainId: bigint,
  verifyingContract: string,
): { name: string; version: string; chainId: bigint; verifyingContract: string } {
  return { name: CLAIM_DOMAIN_NAME, version: CLAIM_DOMAIN_VERSION, chainId, verifyingContract };
}

/** A claim to sign: `nonce` defaults to `bounty.nonces(account)`. */
export interface ClaimMessage {
  bountyId: bigint;
  account: string;
  to: string;
  deadline: bigint;
  nonce?: bigint;
}

/** `signer`'s EIP-712 signature (65 bytes, r || s || v) of `claim` in the BenchmarkBounty domain. */
export async function signClaim(
  bounty: BenchmarkBounty,
  signer: { signTypedData: HardhatEthersSigner["signTypedData"] },
  claim: ClaimMessage,
): Promise<string> {
  const { chainId } = await ethers.provider.getNetwork();
  const nonce = claim.nonce ?? (await bounty.nonces(claim.account));
  return signer.signTypedData(claimDomain(chainId, await bounty.getAddress()), CLAIM_TYPES, {
    ...claim,
    nonce,
  });
}

/** Approves and creates+funds a bounty as `author`; returns its id. */
export async function createFunded(
  fx: Pick<BaseProfile, "usdc" | "bounty" | "awarder">,
  author: HardhatEthersSigner,
  overrides: Partial<BountyParams> = {},
): Promise<{ id: bigint; params: BountyParams }> {
  const params = await bountyParams(fx, overrides);
  await (await fx.usdc.connect(author).approve(await fx.bounty.getAddress(), params.pool)).wait();
  const id = (await fx.bounty.bountyCount()) + 1n;
  await (await fx.bounty.connect(author).createAndFund(params)).wait();
  return { id, params };
}

/** Allowed status moves (SPEC 1.1 ladder): Pending -> Funded -> Awarded | Reclaimed, Pending -> Reclaimed. */
const LADDER: Record<string, bigint[]> = {
  [String(Status.None)]: [Status.Pending],
  [String(Status.Pending)]: [Status.Funded, Status.Reclaimed],
  [String(Status.Funded)]: [Status.Awarded, Status.Reclaimed],
  [String(Status.Awarded)]: [],
  [String(Status.Reclaimed)]: [],
};

/**
 * The status history of a bounty derived from its events alone (as an indexer would), checked against the
 * ladder: throws when a step skips or leaves a terminal state. Returns the statuses in order.
 */
export async function statusHistory(bounty: BenchmarkBounty, id: bigint): Promise<bigint[]> {
  const logs = [
    ...(await bounty.queryFilter(bounty.filters.BountyCreated(id))).map((l) => ({ l, s: Status.Pending })),
    ...(await bounty.queryFilter(bounty.filters.BountyFunded(id))).map((l) => ({ l, s: Status.Funded })),
    ...(await bounty.queryFilter(bounty.filters.Awarded(id))).map((l) => ({ l, s: Status.Awarded })),
    ...(await bounty.queryFilter(bounty.filters.Reclaimed(id))).map((l) => ({ l, s: Status.Reclaimed })),
  ].sort((a, b) => a.l.blockNumber - b.l.blockNumber || a.l.index - b.l.index);
  const history: bigint[] = [];
  let current: bigint = Status.None;
  for (const { s } of logs) {
    if (!LADDER[String(current)].includes(s)) {
      throw new Error(`bounty ${id}: status ladder skipped or left a terminal state: ${current} -> ${s}`);
    }
    history.push(s);
    current = s;
  }
  return history;
}
