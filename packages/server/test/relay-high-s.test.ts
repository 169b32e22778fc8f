/**
 * probe10 R8: a relayed claim carrying the high-s twin `(r, n - s, v ^ 1)` of a valid signature passed
 * the server's check (viem recovers the same signer from it) and was refused by the contract at
 * simulation, 502 `chain_error`. The server refuses it itself, 422 `invalid_claim_signature` naming
 * `$.signature` with `reason: "high_s"`, before any chain call: here on a service without a chain, where
 * the low-s original goes on to 503 `no_chain`.
 */
import { CLAIM_PRIMARY_TYPE, CLAIM_TYPES, claimDomain } from "@bench-bounty/contracts";
import { recoverTypedDataAddress, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { call, publishCities, register, useLive } from "./helpers.js";

const live = useLive();
/** The secp256k1 group order. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const signer = privateKeyToAccount(`0x${"42".repeat(32)}`);
const to = "0x00000000000000000000000000000000000a11ce" as const;
const typed = {
  domain: claimDomain(8453, "0x00000000000000000000000000000000000000bb"),
  types: CLAIM_TYPES,
  primaryType: CLAIM_PRIMARY_TYPE,
  message: { bountyId: 1n, account: signer.address, to, nonce: 0n, deadline: 1_900_000_000n },
} as const;

/** The twin of a 65-byte signature: s -> n - s, v flipped. */
function highSTwin(sig: Hex): Hex {
  const r = sig.slice(2, 66);
  const s = BigInt(`0x${sig.slice(66, 130)}`);
  const v = parseInt(sig.slice(130, 132), 16);
  return `0x${r}${(N - s).toString(16).padStart(64, "0")}${(v === 27 ? 28 : 27).toString(16)}`;
}

let slug = "";
let key = "";
beforeAll(async () => {
  slug = (await publishCities(live.url, 2, "high-s")).slug;
  key = (await register(live.url, "high-s-relayer")).key;
});

describe("a relayed claim's signature must be low-s (probe10 R8)", () => {
  it("the high-s twin of a valid signature is 422 invalid_claim_signature before any chain call", async () => {
    const good = await signer.signTypedData(typed);
    const twin = highSTwin(good);
    expect(await recoverTypedDataAddress({ ...typed, signature: twin })).toBe(signer.address); // viem takes it
    const body = (signature: Hex) => ({ account: signer.address, to, deadline: "1900000000", signature });
    const path = `/api/v1/benchmarks/${slug}/claims/relay`;
    const refused = await call(live.url, "POST", path, { key, body: body(twin) });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.json.error).toMatchObject({
      code: "invalid_claim_signature",
      details: { path: "$.signature", reason: "high_s" },
    });
    // the low-s original passes this check and reaches the chain's (none here)
    const original = await call(live.url, "POST", path, { key, body: body(good) });
    expect(original.json.error.code).toBe("no_chain");
  });
});
