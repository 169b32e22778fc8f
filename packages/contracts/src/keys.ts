/**
 * The form of a signer's private key, checked wherever one is read (the CLI's
 * `BENCH_BOUNTY_PRIVATE_KEY` / `BENCH_BOUNTY_AUTHOR_KEY`, `serve`, the Hardhat tasks'
 * `DEPLOYER_PRIVATE_KEY` / `CLAIMER_PRIVATE_KEY`) before viem sees it: viem's
 * `privateKeyToAccount` throws for a value outside the curve's range with a message that
 * prints the key in decimal (probe15 B-F7).
 */

/** The order n of the secp256k1 group: a private key is an integer in 1..n-1. */
export const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** What a private key must be, for messages (never followed by the value given). */
export const PRIVATE_KEY_FORM = "0x followed by 64 hex characters, a value in 1..n-1 of secp256k1";

/**
 * Why `key` is not a private key viem can sign with, or null when it is one.
 * @param key the value read (from an environment variable); `0x` may be left out when `prefix` is `"optional"`
 * @returns `"it must be 0x followed by 64 hex characters, ..."` or `"its value is outside 1..n-1 of secp256k1"`:
 *   never the value itself
 */
export function privateKeyProblem(key: string, prefix: "required" | "optional" = "required"): string | null {
  const hex = /^0x[0-9a-fA-F]{64}$/.test(key)
    ? key
    : prefix === "optional" && /^[0-9a-fA-F]{64}$/.test(key)
      ? `0x${key}`
      : null;
  if (hex === null) return `it must be ${PRIVATE_KEY_FORM}`;
  const value = BigInt(hex);
  if (value === 0n || value >= SECP256K1_ORDER) return "its value is outside 1..n-1 of secp256k1";
  return null;
}
