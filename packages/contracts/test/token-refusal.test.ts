import { describe, expect, it } from "vitest";
import { blacklistedParties, claimTransferParties } from "../src/index.js";

const TO = "0x00000000000000000000000000000000000000a1";
const BOUNTY = "0x00000000000000000000000000000000000000b0";

describe("whom a token's refusal of a claim is about (probe30 C-F3, probe31 C-F4)", () => {
  it("a claim's parties are the recipient and the bounty contract", () => {
    expect(claimTransferParties(TO, BOUNTY)).toEqual([
      { address: TO, role: "recipient" },
      { address: BOUNTY, role: "bounty_contract" },
    ]);
  });

  it("names the parties the token's blacklist says, in order; a failing read names nobody", async () => {
    const parties = claimTransferParties(TO, BOUNTY);
    const only = (listed: string) => (a: string) => Promise.resolve(a === listed);
    expect(await blacklistedParties(parties, only(BOUNTY))).toEqual([parties[1]]);
    expect(await blacklistedParties(parties, only(TO))).toEqual([parties[0]]);
    expect(await blacklistedParties(parties, () => Promise.resolve(true))).toEqual(parties);
    expect(await blacklistedParties(parties, () => Promise.reject(new Error("no such view")))).toEqual([]);
  });
});
