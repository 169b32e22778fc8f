import { readFileSync } from "node:fs";
import { encodeAbiParameters, getContractAddress, keccak256, type Address, type Hex } from "viem";
import { anchorRegistryBytecode, benchmarkBountyBytecode } from "./generated/bytecode.js";

/**
 * `create2.json` at the package root: the one copy of the two CREATE2 constants. It is plain JSON so
 * that `hardhat.config.ts` can read the salt before anything is compiled or built (Ignition's
 * `create2` strategy config); everything else imports the constants below.
 */
const create2 = JSON.parse(readFileSync(new URL("../create2.json", import.meta.url), "utf8")) as {
  createX: Address;
  salt: Hex;
};

/** The CreateX factory (v0.1.0), deployed at this address on Base and Base Sepolia; Hardhat Ignition's `create2` strategy deploys through it. */
export const CREATEX_ADDRESS: Address = create2.createX;

/** The one CreateX function the deployment calls, human-readable (viem's `parseAbi`, ethers' `Interface`). */
export const CREATEX_ABI = [
  "function deployCreate2(bytes32 salt, bytes initCode) payable returns (address newContract)",
] as const;

/**
 * The salt handed to CreateX's `deployCreate2(salt, initCode)`.
 *
 * CreateX guards salts by their first 21 bytes: bytes 0-19 equal to the sender bind the address to
 * the sender, byte 20 equal to 0x01 binds it to the chain id. Here bytes 0-20 are zero, so the
 * guarded salt is `keccak256(abi.encode(salt))` on every chain and for every sender: both contracts
 * (no constructor arguments, no owner) land at the same addresses on Base, Base Sepolia and a local
 * node. Anyone may replay the deployment; that only creates the same ownerless code. The last 11
 * bytes spell "benchbounty".
 */
export const DEPLOYMENT_SALT: Hex = create2.salt;

/** The address CreateX's `deployCreate2(DEPLOYMENT_SALT, initCode)` deploys to. */
export function deterministicAddress(initCode: Hex, salt: Hex = DEPLOYMENT_SALT): Address {
  const guardedSalt = keccak256(encodeAbiParameters([{ type: "bytes32" }], [salt]));
  return getContractAddress({
    opcode: "CREATE2",
    from: CREATEX_ADDRESS,
    salt: guardedSalt,
    bytecode: initCode,
  });
}

/**
 * The addresses the current build's contracts get on any chain (neither contract
 * has constructor arguments, so the init code is the creation bytecode).
 */
export function expectedAddresses(): { benchmarkBounty: Address; anchorRegistry: Address } {
  return {
    benchmarkBounty: deterministicAddress(benchmarkBountyBytecode),
    anchorRegistry: deterministicAddress(anchorRegistryBytecode),
  };
}
