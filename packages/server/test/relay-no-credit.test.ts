/**
 * probe11 O13: a relay racing the winner's own claim reverted `NothingToClaim` at simulation, 502
 * `chain_error`; it is 409 `no_credit`, as when the credit check itself sees none. probe12 P7: a
 * reasonless revert while the winner's claim is pending (credit 0 at `pending`) is `no_credit` too.
 */
import { benchmarkBountyAbi } from "@bench-bounty/contracts";
import { PlatformError } from "@bench-bounty/platform";
import { ContractFunctionRevertedError, encodeErrorResult } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { relayRead } from "../src/claims/relay.js";
import { EdgeError } from "../src/errors.js";

const signer = privateKeyToAccount(`0x${"43".repeat(32)}`);

describe("a relay that loses the race to the winner's own claim (probe11 O13)", () => {
  const revert = (errorName: "NothingToClaim" | "UnknownBounty" | "InvalidClaimSignature") =>
    new ContractFunctionRevertedError({
      abi: benchmarkBountyAbi,
      functionName: "claimWithSig",
      data: encodeErrorResult({
        abi: benchmarkBountyAbi,
        errorName,
        args:
          errorName === "NothingToClaim"
            ? [1n, signer.address]
            : errorName === "InvalidClaimSignature"
              ? [signer.address]
              : [1n],
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

  it("an InvalidClaimSignature once the credit is 0 (the same claim relayed by another serve, mined since the checks) is 409 no_credit (probe30 C-F4)", async () => {
    const e = await relayRead(
      "claimWithSig",
      signer.address,
      1n,
      () => Promise.reject(revert("InvalidClaimSignature")),
      () => Promise.resolve(0n),
    ).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(EdgeError);
    expect(e).toMatchObject({ code: "no_credit", details: { path: "$.account", bounty_id: "1" } });
    expect((e as Error).message).toMatch(/another relay/);
  });

  it("an InvalidClaimSignature with the credit still there, or a failing re-read, stays chain_error naming it", async () => {
    for (const pending of [() => Promise.resolve(5n), () => Promise.reject(new Error("rpc down"))]) {
      const e = await relayRead(
        "claimWithSig",
        signer.address,
        1n,
        () => Promise.reject(revert("InvalidClaimSignature")),
        pending,
      ).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(PlatformError);
      expect(e).toMatchObject({ code: "chain_error", details: { revert: "InvalidClaimSignature" } });
    }
  });
});
