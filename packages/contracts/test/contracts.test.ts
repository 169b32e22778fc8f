import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { concat, getContractAddress, keccak256, stringToHex, type Hex } from "viem";
import {
  ANCHOR_KINDS,
  BASE_USDC_ADDRESS,
  BountyStatus,
  CHAINS,
  CHAIN_FIXED_CONTRACTS,
  CREATEX_ADDRESS,
  DEPLOYMENT_SALT,
  addressBook,
  addressBookEntry,
  anchorKindName,
  benchmarkBountyAbi,
  bountyStatusName,
  deterministicAddress,
  recipientProblem,
} from "../src/index.js";

const hashName = (s: string) => keccak256(stringToHex(s));

describe("anchor kinds (SPEC 1.2)", () => {
  it("are keccak256 of their names", () => {
    expect(ANCHOR_KINDS.commitment).toBe(hashName("bench-bounty.anchor.commitment"));
    expect(ANCHOR_KINDS.receipt).toBe(hashName("bench-bounty.anchor.receipt"));
    expect(ANCHOR_KINDS.pack).toBe(hashName("bench-bounty.anchor.pack"));
    expect(ANCHOR_KINDS["compute-receipt"]).toBe(hashName("bench-bounty.anchor.compute-receipt"));
  });
  it("are named back, case-insensitively; unknown kinds are null", () => {
    expect(anchorKindName(ANCHOR_KINDS.pack.toUpperCase().replace("0X", "0x"))).toBe("pack");
    expect(anchorKindName(ANCHOR_KINDS["compute-receipt"])).toBe("compute-receipt");
    expect(anchorKindName("0x" + "00".repeat(32))).toBeNull();
  });
});

describe("BountyStatus", () => {
  it("mirrors the Solidity enum order", () => {
    expect([
      BountyStatus.None,
      BountyStatus.Pending,
      BountyStatus.Funded,
      BountyStatus.Awarded,
      BountyStatus.Reclaimed,
    ]).toEqual([0, 1, 2, 3, 4]);
    expect(bountyStatusName(2n)).toBe("Funded");
    expect(() => bountyStatusName(5)).toThrow(RangeError);
  });
  it("is the return type of statusOf in the ABI (uint8 enum)", () => {
    const statusOf = benchmarkBountyAbi.find((x) => x.type === "function" && x.name === "statusOf");
    expect(statusOf && "outputs" in statusOf ? statusOf.outputs[0]?.internalType : undefined).toBe(
      "enum IBenchmarkBounty.Status",
    );
  });
});

describe("chains and address book (SPEC 1.3)", () => {
  it("carries the USDC addresses of SPEC 1.3", () => {
    expect(BASE_USDC_ADDRESS).toBe("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913");
    expect(CHAINS.base).toMatchObject({ id: 8453, usdc: BASE_USDC_ADDRESS });
    expect(CHAINS.baseSepolia).toMatchObject({
      id: 84532,
      usdc: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    });
  });
  it("reads deployments.json per chain id (public chains only: a local deployment is never tracked)", () => {
    const json = JSON.parse(readFileSync(new URL("../deployments.json", import.meta.url), "utf8"));
    expect(addressBook).toEqual(json);
    expect(Object.keys(addressBook).sort()).toEqual(["8453", "84532"]);
    expect(addressBookEntry(8453).usdc).toBe(BASE_USDC_ADDRESS);
    expect(addressBookEntry(84532).usdc).toBe(CHAINS.baseSepolia.usdc);
    expect(() => addressBookEntry(1)).toThrow(/no address book entry for chain id 1/);
  });
});

describe("CREATE2 through CreateX", () => {
  it("salt leaves sender and chain unguarded (first 21 bytes zero)", () => {
    expect(DEPLOYMENT_SALT).toMatch(/^0x0{42}[0-9a-f]{22}$/);
    expect(CREATEX_ADDRESS).toBe("0xba5Ed099633D3B313e4D5F7bdc1305d3c28ba5Ed");
  });
  it("computes keccak256(0xff ++ factory ++ keccak256(abi.encode(salt)) ++ keccak256(initCode))[12:]", () => {
    const initCode = "0x6080604052" as const;
    // abi.encode(bytes32) is the 32 bytes themselves.
    const guarded = keccak256(DEPLOYMENT_SALT);
    const preimage = concat(["0xff", CREATEX_ADDRESS.toLowerCase() as Hex, guarded, keccak256(initCode)]);
    const expected = "0x" + keccak256(preimage).slice(26);
    expect(deterministicAddress(initCode).toLowerCase()).toBe(expected);
  });
});

describe("generated ABIs carry the agreed surface (docs/interfaces.md)", () => {
  const names = (abi: readonly { type: string; name?: string }[], type: string) =>
    abi.filter((x) => x.type === type).map((x) => x.name);
  it("BenchmarkBounty", async () => {
    const { benchmarkBountyAbi: abi } = await import("../src/index.js");
    expect(names(abi, "function")).to.include.members([
      "createBounty",
      "fund",
      "createAndFund",
      "createAndFundWithPermit",
      "award",
      "claim",
      "claimMany",
      "claimWithSig",
      "nonces",
      "CLAIM_TYPEHASH",
      "eip712Domain",
      "reclaim",
      "testSetRoots",
      "rootBurned",
      "leafCountOf",
      "splitsOf",
      "creditOf",
      "statusOf",
      "getBounty",
      "bountyCount",
      "payoutAmounts",
    ]);
    expect(names(abi, "event")).to.include.members([
      "BountyCreated",
      "BountyFunded",
      "Awarded",
      "Claimed",
      "Reclaimed",
    ]);
  });
  it("AnchorRegistry and TestUSDC", async () => {
    const {
      anchorRegistryAbi,
      testUsdcAbi,
      testUsdcBytecode,
      benchmarkBountyBytecode,
      anchorRegistryBytecode,
    } = await import("../src/index.js");
    expect(names(anchorRegistryAbi, "function")).to.include.members(["anchor", "anchorMany", "anchorOf"]);
    expect(names(anchorRegistryAbi, "event")).to.include("Anchored");
    expect(names(testUsdcAbi, "function")).to.include.members([
      "permit",
      "nonces",
      "DOMAIN_SEPARATOR",
      "mint",
      "blacklist",
    ]);
    expect(names(testUsdcAbi, "function")).to.include.members(["pause", "unpause", "paused", "pauser"]);
    for (const code of [testUsdcBytecode, benchmarkBountyBytecode, anchorRegistryBytecode]) {
      expect(code).toMatch(/^0x(?:[0-9a-f]{2})+$/);
    }
  });
});

describe("claimWithSig typed data (SPEC 1.1, v1.1)", () => {
  it("spells the contract's Claim type and domain, and viem signs and verifies with them", async () => {
    const { CLAIM_TYPES, CLAIM_PRIMARY_TYPE, claimDomain } = await import("../src/index.js");
    const { verifyTypedData } = await import("viem");
    const { privateKeyToAccount } = await import("viem/accounts");
    // The string BenchmarkBounty.CLAIM_TYPEHASH is the keccak of (test/BenchmarkBounty.claimWithSig.test.ts
    // checks the contract's constant against the same string).
    const typeString = `Claim(${CLAIM_TYPES.Claim.map((f) => `${f.type} ${f.name}`).join(",")})`;
    expect(typeString).toBe(
      "Claim(uint256 bountyId,address account,address to,uint256 nonce,uint256 deadline)",
    );
    const verifyingContract = "0x00000000000000000000000000000000000000b1";
    const domain = claimDomain(8453, verifyingContract);
    expect(domain).toEqual({ name: "BenchmarkBounty", version: "1", chainId: 8453, verifyingContract });
    const account = privateKeyToAccount(`0x${"11".repeat(32)}`);
    const message = { bountyId: 1n, account: account.address, to: account.address, nonce: 0n, deadline: 9n };
    const typed = { domain, types: CLAIM_TYPES, primaryType: CLAIM_PRIMARY_TYPE, message } as const;
    const signature = await account.signTypedData(typed);
    expect(await verifyTypedData({ ...typed, address: account.address, signature })).toBe(true);
    const other = { ...typed, message: { ...message, to: verifyingContract } } as const;
    expect(await verifyTypedData({ ...other, address: account.address, signature })).toBe(false);
  });
});

describe("recipients refused at fixed addresses (CHAIN_FIXED_CONTRACTS)", () => {
  it("each ERC-4337 SenderCreator listed is the first contract its EntryPoint created (CREATE, nonce 1)", () => {
    const entryPoints = {
      "v0.6": "0x5FF137D4b0FDCd49DcA30c7CF57E578a026d2789",
      "v0.7": "0x0000000071727De22E5E9d8BAf0edAc6f37da032",
      "v0.8": "0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108",
    } as const;
    for (const [version, entryPoint] of Object.entries(entryPoints)) {
      expect(CHAIN_FIXED_CONTRACTS[entryPoint.toLowerCase()]).toBe(`the ERC-4337 ${version} EntryPoint`);
      const creator = getContractAddress({ from: entryPoint, nonce: 1n }).toLowerCase();
      expect(CHAIN_FIXED_CONTRACTS[creator]).toMatch(`the ERC-4337 ${version} SenderCreator`);
    }
  });

  it("keys are lower-case addresses, each refused as a preinstall naming it; the routers marked (probe19 B-F9)", () => {
    const routers = Object.keys(CHAIN_FIXED_CONTRACTS).filter((a) => recipientProblem(a)!.router);
    expect(routers).toContain("0xca11bde05977b3631167028862be2a173976ca11"); // Multicall3
    expect(routers).toContain("0xa83c336b20401af773b6219ba5027174338d1836"); // MultiSendCallOnly v1.5.0
    expect(routers).toContain("0x091e99cb1c49331a94dd62755d168e941abd0693"); // UniswapInterfaceMulticall (probe21 A-F3)
    expect(recipientProblem("0x0000000000000000000000000000000000000001")).toMatchObject({ router: false });
    for (const [address, name] of Object.entries(CHAIN_FIXED_CONTRACTS)) {
      expect(address).toMatch(/^0x[0-9a-f]{40}$/);
      expect(recipientProblem(address)).toEqual({
        reason: "preinstall",
        message: `${address} is ${name}, at a fixed address on Base: it never claims for itself, a credit there is lost or anyone's`,
        what: `${address} is ${name}, at a fixed address on Base`,
        router: name.includes("anyone can claim a credit it holds, through it"),
      });
    }
  });
});
