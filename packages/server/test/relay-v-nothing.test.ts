/**
 * probe11 O12: a relayed claim whose signature ends in the y-parity 0/1 (instead of v 27/28) passed
 * viem's check and was refused by the contract's OpenZeppelin `ECDSA` at simulation, 502 `chain_error`;
 * it is 422 `invalid_claim_signature` (`reason: "v_not_27_28"`) before any chain call (here on a
 * service without a chain, where the 27/28 original goes on to 503 `no_chain`).
 * probe11 O13: a relay racing the winner's own claim reverted `NothingToClaim` at simulation, 502
 * `chain_error`; it is 409 `no_credit`, as when the credit check itself sees none.
 */
import { benchmarkBountyAbi, CLAIM_PRIMARY_TYPE, CLAIM_TYPES, claimDomain } from "@bench-bounty/contracts";
import { PlatformError } from "@bench-bounty/platform";
import { ContractFunctionRevertedError, encodeErrorResult, recoverTypedDataAddress, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { relayRead } from "../src/claims/relay.js";
import { EdgeError } from "../src/errors.js";
import { call, publishCities, register, useLive } from "./helpers.js";

const live = useLive();
const signer = privateKeyToAccount(`0x${"43".repeat(32)}`);
const to = "0x00000000000000000000000000000000000a11ce" as const;
const typed = {
  domain: claimDomain(8453, "0x00000000000000000000000000000000000000bb"),
  types: CLAIM_TYPES,
  primaryType: CLAIM_PRIMARY_TYPE,
  message: { bountyId: 1n, account: signer.address, to, nonce: 0n, deadline: 1_900_000_000n },
} as const;

let slug = "";
let key = "";
beforeAll(async () => {
  slug = (await publishCities(live.url, 2, "v-parity")).slug;
  key = (await register(live.url, "v-parity-relayer")).key;
});

describe("a relayed claim's v must be 27 or 28 (probe11 O12)", () => {
  it("the y-parity form of a valid signature is 422 invalid_claim_signature before any chain call", async () => {
    const good = await signer.signTypedData(typed);
    const v = parseInt(good.slice(130), 16);
    const parity = `${good.slice(0, 130)}0${v - 27}` as Hex;
    expect(await recoverTypedDataAddress({ ...typed, signature: parity })).toBe(signer.address); // viem takes it
    const body = (signature: Hex) => ({ account: signer.address, to, deadline: "1900000000", signature });
    const path = `/api/v1/benchmarks/${slug}/claims/relay`;
    const refused = await call(live.url, "POST", path, { key, body: body(parity) });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.json.error).toMatchObject({
      code: "invalid_claim_signature",
      details: { path: "$.signature", reason: "v_not_27_28" },
    });
    expect(refused.json.error.message).toMatch(/v \(27 or 28\)/);
    const original = await call(live.url, "POST", path, { key, body: body(good) });
    expect(original.json.error.code).toBe("no_chain");
  });
});

describe("a relay that loses the race to the winner's own claim (probe11 O13)", () => {
  const revert = (errorName: "NothingToClaim" | "UnknownBounty") =>
    new ContractFunctionRevertedError({
      abi: benchmarkBountyAbi,
      functionName: "claimWithSig",
      data: encodeErrorResult({
        abi: benchmarkBountyAbi,
        errorName,
        args: errorName === "NothingToClaim" ? [1n, signer.address] : [1n],
      } as never),
    });

  it("a NothingToClaim revert at simulation is 409 no_credit", async () => {
    const e = await relayRead("claimWithSig", signer.address, 1n, () =>
      Promise.reject(revert("NothingToClaim")),
    ).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(EdgeError);
    expect(e).toMatchObject({ code: "no_credit", details: { path: "$.account", bounty_id: "1" } });
  });

  it("any other revert stays chain_error naming it", async () => {
    const e = await relayRead("claimWithSig", signer.address, 1n, () =>
      Promise.reject(revert("UnknownBounty")),
    ).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PlatformError);
    expect(e).toMatchObject({ code: "chain_error", details: { revert: "UnknownBounty" } });
  });

  const reasonless = () =>
    new ContractFunctionRevertedError({ abi: benchmarkBountyAbi, functionName: "claimWithSig" });

  it("a reasonless revert while the winner's own claim is pending (credit 0 at `pending`) is 409 no_credit (probe12 P7)", async () => {
    let asked = 0;
    const e = await relayRead(
      "claimWithSig",
      signer.address,
      1n,
      () => Promise.reject(reasonless()),
      () => {
        asked++;
        return Promise.resolve(0n);
      },
    ).catch((x: unknown) => x);
    expect(asked).toBe(1);
    expect(e).toBeInstanceOf(EdgeError);
    expect(e).toMatchObject({ code: "no_credit", details: { path: "$.account", bounty_id: "1" } });
    expect((e as Error).message).toMatch(/pending/);
  });

  it("a reasonless revert with credit still pending, or a failing re-read, stays chain_error unknown", async () => {
    for (const pending of [() => Promise.resolve(5n), () => Promise.reject(new Error("rpc down"))]) {
      const e = await relayRead(
        "claimWithSig",
        signer.address,
        1n,
        () => Promise.reject(reasonless()),
        pending,
      ).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(PlatformError);
      expect(e).toMatchObject({ code: "chain_error", details: { revert: "unknown" } });
    }
  });
});
