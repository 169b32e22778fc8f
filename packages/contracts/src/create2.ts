import { encodeAbiParameters, getContractAddress, keccak256, type Address, type Hex } from "viem";
import { anchorRegistryBytecode, benchmarkBountyBytecode } from "./generated/bytecode.js";

/** The CreateX factory (v0.1.0), deployed at this address on Base and Base Sepolia; Hardhat Ignition's `create2` strategy deploys through it. */
export const CREATEX_ADDRESS: Address = "0xba5Ed099633D3B313e4D5F7bdc1305d3c28ba5Ed";

/**
 * The CREATE2 salt of the deployment (same value as `deploy/ignition/salt.ts`).
 * Bytes 0-19 are zero and byte 20 is 0x00, so CreateX neither binds the salt to
 * the sender nor to the chain id: the guarded salt is `keccak256(abi.encode(salt))`
 * and the addresses are the same on every chain. The last 11 bytes spell "benchbounty".
 */
export const DEPLOYMENT_SALT: Hex = "0x00000000000000000000000000000000000000000062656e6368626f756e7479";

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
