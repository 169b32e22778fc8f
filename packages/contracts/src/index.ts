/**
 * @bench-bounty/contracts: bindings of the bench-bounty contracts (SPEC 1).
 *
 * - `benchmarkBountyAbi`, `anchorRegistryAbi`, `testUsdcAbi`: `as const` ABIs for viem and Ponder;
 * - `*Bytecode` (creation) and `*DeployedBytecode` (runtime) for deploying or placing contracts;
 * - `CLAIM_TYPES`, `claimDomain`, `CLAIM_DOMAIN_NAME`/`CLAIM_DOMAIN_VERSION`: EIP-712 data of `claimWithSig`;
 * - `PERMIT_TYPES`: the EIP-2612 `Permit` of USDC that `createAndFundWithPermit` spends;
 * - `ANCHOR_KINDS` / `anchorKindName`, `BountyStatus`, `BountyRecord` (the `getBounty` tuple), `CHAINS`, `BASE_USDC_ADDRESS`;
 * - `addressBook` (`deployments.json`, Base and Base Sepolia), filled in by `npx hardhat bounty:deploy`;
 * - `CREATEX_ADDRESS`, `CREATEX_ABI`, `DEPLOYMENT_SALT` (`create2.json`), `deterministicAddress`, `expectedAddresses`;
 * - `privateKeyProblem`, `SECP256K1_ORDER`: the check of a signer's private key before viem sees it.
 * - `recipientProblem`, `PROTOCOL_CONTRACTS`: the addresses that can never receive a claim (withdrawal addresses, `--to`).
 * - `claimTransferParties`, `blacklistedParties`: whom a token's refusal of a claim's transfer is about (the token's
 *   own blacklist, read for the recipient and the bounty contract: the tasks' and the relay's one rule).
 * - `codeProblem`, `deploymentProblem`, `tokenProblem`: whether an address runs the protocol's code, is the
 *   address book's, and a token the chain's USDC (the verifier's pack checks, the indexer's start-up check).
 *
 * TypeChain (ethers-v6) types for Hardhat code: `import type { BenchmarkBounty } from "@bench-bounty/contracts/typechain"`.
 */
export * from "./generated/abis.js";
export * from "./generated/bytecode.js";
export * from "./anchors.js";
export * from "./status.js";
export * from "./bounty.js";
export * from "./chains.js";
export * from "./addressBook.js";
export * from "./create2.js";
export * from "./claim.js";
export * from "./permit.js";
export * from "./keys.js";
export * from "./recipients.js";
export * from "./code.js";
export * from "./tokenRefusal.js";
export * from "./viewAnswers.js";
