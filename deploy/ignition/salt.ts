/**
 * CREATE2 deployment constants (issue 6). Kept in one place for Hardhat code;
 * `@bench-bounty/contracts` repeats them for TypeScript consumers (a deploy test
 * checks that both agree).
 */

/** The CreateX factory v0.1.0, present on Base and Base Sepolia; Hardhat Ignition's `create2` strategy deploys through it. */
export const CREATEX_ADDRESS = "0xba5Ed099633D3B313e4D5F7bdc1305d3c28ba5Ed";

/**
 * The salt handed to CreateX's `deployCreate2(salt, initCode)`.
 *
 * CreateX guards salts by their first 21 bytes: bytes 0-19 equal to the sender
 * bind the address to the sender, byte 20 equal to 0x01 binds it to the chain id.
 * Here bytes 0-20 are zero, so the guarded salt is `keccak256(abi.encode(salt))`
 * on every chain and for every sender: both contracts (no constructor arguments,
 * no owner) land at the same addresses on Base, Base Sepolia and the local node.
 * Anyone may replay the deployment; that only creates the same ownerless code.
 * The last 11 bytes spell "benchbounty".
 */
export const DEPLOYMENT_SALT = "0x00000000000000000000000000000000000000000062656e6368626f756e7479";
