import { describe, expect, it } from "vitest";
import {
  checkClaim,
  checkTransition,
  foldAward,
  type BountyStatusName,
  type LadderEvent,
} from "../../lib/ladder";

const STATUSES: (BountyStatusName | null)[] = [null, "Pending", "Funded", "Awarded", "Reclaimed"];

describe("status ladder (SPEC 1.1)", () => {
  // The allowed steps, written out from the SPEC text: Pending -> Funded -> Awarded | Reclaimed; Pending -> Reclaimed.
  const allowed = new Set([
    "BountyCreated:none",
    "BountyFunded:Pending",
    "Awarded:Funded",
    "Reclaimed:Pending",
    "Reclaimed:Funded",
  ]);
  const events: LadderEvent[] = ["BountyCreated", "BountyFunded", "Awarded", "Reclaimed"];
  for (const event of events) {
    for (const from of STATUSES) {
      const key = `${event}:${from ?? "none"}`;
      it(`${event} from ${from ?? "no bounty"} is ${allowed.has(key) ? "allowed" : "refused"}`, () => {
        const r = checkTransition(event, from);
        if (allowed.has(key)) expect(r).toBeNull();
        else expect(r).toContain(event);
      });
    }
  }
});

describe("foldAward", () => {
  const author = "0x00000000000000000000000000000000000000aa" as const;
  const w1 = "0x00000000000000000000000000000000000000B1" as const;
  const w2 = "0x00000000000000000000000000000000000000b2" as const;
  const base = { author, pool: 1000n, splitsCount: 3, testSetRoot: "0xab", loggedRoot: "0xAB" };

  it("merges a repeated winner's places into one credit (one owner, two agents)", () => {
    const r = foldAward({ ...base, winners: [w1, w2, w1], amounts: [500n, 300n, 200n], authorRemainder: 0n });
    expect(r).toEqual({
      paidToWinners: 1000n,
      credits: [
        { account: w1.toLowerCase(), fromPlaces: 700n, fromRemainder: 0n, places: [1, 3] },
        { account: w2, fromPlaces: 300n, fromRemainder: 0n, places: [2] },
      ],
    });
  });

  it("credits the whole pool to the author when there are no winners", () => {
    expect(foldAward({ ...base, winners: [], amounts: [], authorRemainder: 1000n })).toEqual({
      paidToWinners: 0n,
      credits: [{ account: author, fromPlaces: 0n, fromRemainder: 1000n, places: [] }],
    });
  });

  it("adds the remainder to the author's own places when the author also won", () => {
    const r = foldAward({ ...base, winners: [author], amounts: [600n], authorRemainder: 400n });
    expect(r).toEqual({
      paidToWinners: 600n,
      credits: [{ account: author, fromPlaces: 600n, fromRemainder: 400n, places: [1] }],
    });
  });

  it("refuses amounts that do not add up to the pool", () => {
    expect(foldAward({ ...base, winners: [w1], amounts: [999n], authorRemainder: 0n })).toHaveProperty(
      "error",
    );
  });
  it("refuses more winners than places, mismatched arrays and another root", () => {
    expect(
      foldAward({ ...base, splitsCount: 1, winners: [w1, w2], amounts: [500n, 500n], authorRemainder: 0n }),
    ).toHaveProperty("error");
    expect(foldAward({ ...base, winners: [w1], amounts: [500n, 500n], authorRemainder: 0n })).toHaveProperty(
      "error",
    );
    expect(
      foldAward({ ...base, loggedRoot: "0xcd", winners: [w1], amounts: [1000n], authorRemainder: 0n }),
    ).toHaveProperty("error");
  });
});

describe("checkClaim (a claim takes the whole credit)", () => {
  it("accepts exactly the outstanding credit of an awarded bounty", () => {
    expect(checkClaim({ status: "Awarded", outstanding: 70n, amount: 70n })).toBeNull();
  });
  it("refuses claims on bounties that are not awarded", () => {
    for (const status of STATUSES.filter((s) => s !== "Awarded")) {
      expect(checkClaim({ status, outstanding: 70n, amount: 70n })).toMatch(/^Claimed on/);
    }
  });
  it("refuses a claim without credit, a partial claim, an over-claim and a zero claim", () => {
    expect(checkClaim({ status: "Awarded", outstanding: null, amount: 1n })).toMatch(/no credit/);
    expect(checkClaim({ status: "Awarded", outstanding: 70n, amount: 69n })).toMatch(/outstanding/);
    expect(checkClaim({ status: "Awarded", outstanding: 70n, amount: 71n })).toMatch(/outstanding/);
    expect(checkClaim({ status: "Awarded", outstanding: 0n, amount: 0n })).toMatch(/zero/);
  });
});
