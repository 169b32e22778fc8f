/**
 * SPEC 7.3 payout split on-chain (`payoutAmounts` and `award`) against
 * - the one shared table of cases, `vectors/payouts.json` (`amounts` and `bad_splits`), and
 * - the TypeScript reference `payoutAmounts` / `validateSplits` of `@bench-bounty/evidence`, on
 *   >= 1,000 random (pool, splits, k) cases (fast-check), one pure view call per case.
 */
import { expect } from "chai";
import { ethers } from "hardhat";
import fc from "fast-check";
import { loadFixture, time } from "@nomicfoundation/hardhat-network-helpers";
import { isJsonFloat, parseJson, payoutAmounts, validateSplits } from "@bench-bounty/evidence";
import { baseProfile, bountyParams } from "./fixtures";
import { payoutAmountCases, vectorText } from "./vectors";

const SPLITS_ERRORS = ["SplitsLengthOutOfRange", "ZeroSplit", "SplitsIncreasing", "SplitsSumNotWhole"];

/** Valid splits: 1..8 positive places, non-increasing, summing to 10000 (equal places included). */
const validSplits: fc.Arbitrary<number[]> = fc.oneof(
  fc
    .integer({ min: 1, max: 8 })
    .chain((n) => fc.uniqueArray(fc.integer({ min: 1, max: 9_999 }), { minLength: n - 1, maxLength: n - 1 }))
    .map((cuts) => {
      const points = [0, ...cuts.sort((a, b) => a - b), 10_000];
      return points
        .slice(1)
        .map((p, i) => p - points[i])
        .sort((a, b) => b - a);
    }),
  fc.integer({ min: 1, max: 8 }).map((n) => {
    // As equal as possible: the first places take the leftover bps.
    const base = Math.floor(10_000 / n);
    return Array.from({ length: n }, (_, i) => base + (i < 10_000 - base * n ? 1 : 0));
  }),
  fc.constantFrom<number[]>([10_000], [5_000, 3_000, 2_000], [5_000, 5_000], [9_999, 1]),
);

const pools: fc.Arbitrary<bigint> = fc.oneof(
  fc.bigInt({ min: 0n, max: 10n ** 14n }), // USDC-sized pools, base units
  fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), // the whole uint256 range (mulDiv is exact)
  fc.constantFrom(0n, 1n, 7n, 2n ** 128n + 1n, 2n ** 256n - 1n),
);

describe("BenchmarkBounty: payout split (SPEC 7.3)", () => {
  describe("shared table vectors/payouts.json", () => {
    it("payoutAmounts gives every `amounts` case", async () => {
      const { bounty } = await loadFixture(baseProfile);
      const cases = payoutAmountCases();
      expect(cases.length).to.be.greaterThan(40);
      for (const c of cases) {
        const got = await bounty.payoutAmounts(c.pool, c.splitsBps, c.k);
        expect(got, `pool ${c.pool} splits [${c.splitsBps}] k ${c.k}`).to.deep.equal(c.amounts);
      }
    });

    it("award credits every `amounts` case (k >= 1) exactly, with no author remainder", async () => {
      const fx = await loadFixture(baseProfile);
      const { bounty, usdc, author, awarder, others } = fx;
      const bountyAddress = await bounty.getAddress();
      const cases = payoutAmountCases().filter((c) => c.k >= 1);
      const ids: bigint[] = [];
      let closesAt = 0n;
      for (const c of cases) {
        await fx.fundUsdc(author.address, c.pool);
        const p = await bountyParams(fx, { pool: c.pool, splitsBps: c.splitsBps });
        await (await usdc.connect(author).approve(bountyAddress, c.pool)).wait();
        await (await bounty.connect(author).createAndFund(p)).wait();
        ids.push(await bounty.bountyCount());
        closesAt = p.closesAt;
      }
      await time.increaseTo(closesAt);
      for (const [i, c] of cases.entries()) {
        const winners = others.slice(0, c.k).map((s) => s.address);
        await expect(bounty.connect(awarder).award(ids[i], winners, ethers.ZeroHash))
          .to.emit(bounty, "Awarded")
          .withArgs(
            ids[i],
            (await bounty.getBounty(ids[i])).testSetRoot,
            winners,
            c.amounts,
            0n,
            ethers.ZeroHash,
          );
        for (let j = 0; j < c.k; j++)
          expect(await bounty.creditOf(ids[i], winners[j])).to.equal(c.amounts[j]);
      }
    });

    it("refuses every `bad_splits` case (createBounty and payoutAmounts)", async () => {
      const fx = await loadFixture(baseProfile);
      const { bounty, author } = fx;
      // Read with the SPEC 2 parser: `5000.0` stays a JSON float, which no uint16 can carry.
      const doc = parseJson(vectorText("payouts.json")) as { bad_splits: { splits_bps: unknown[] }[] };
      expect(doc.bad_splits.length).to.be.greaterThan(5);
      for (const c of doc.bad_splits) {
        expect(() => validateSplits(c.splits_bps), `reference refuses [${String(c.splits_bps)}]`).to.throw();
        if (c.splits_bps.some((s) => isJsonFloat(s))) {
          // A non-integer JSON number cannot reach the chain: the ABI has only integers. The refusal
          // happens off-chain (the reference above), which is where such a value could exist.
          continue;
        }
        const splits = c.splits_bps as number[];
        const create = bounty.connect(author).createBounty(await bountyParams(fx, { splitsBps: splits }));
        await expectSplitsRevert(create, bounty, `createBounty [${splits}]`);
        await expectSplitsRevert(
          bounty.payoutAmounts(1_000n, splits, 0),
          bounty,
          `payoutAmounts [${splits}]`,
        );
      }
    });
  });

  describe("against the @bench-bounty/evidence reference", () => {
    it("equals payoutAmounts of the reference on 1,200 random (pool, splits, k) cases", async () => {
      const { bounty } = await loadFixture(baseProfile);
      let runs = 0;
      await fc.assert(
        fc.asyncProperty(
          pools,
          validSplits.chain((s) => fc.tuple(fc.constant(s), fc.integer({ min: 0, max: s.length }))),
          async (pool, [splits, k]) => {
            runs++;
            const expected = payoutAmounts(pool, splits, k);
            const got = await bounty.payoutAmounts(pool, splits, k);
            expect(got).to.deep.equal(expected);
            if (k > 0) expect(got.reduce((a, b) => a + b, 0n)).to.equal(pool);
          },
        ),
        { numRuns: 1_200 },
      );
      expect(runs).to.be.at.least(1_000);
    });

    it("refuses exactly the splits the reference refuses (300 random arrays)", async () => {
      const { bounty } = await loadFixture(baseProfile);
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.array(fc.integer({ min: 0, max: 10_001 }), { minLength: 0, maxLength: 9 }),
            validSplits,
            validSplits.map((s) => [...s].reverse()),
          ),
          async (splits) => {
            let refThrows = false;
            try {
              validateSplits(splits);
            } catch {
              refThrows = true;
            }
            if (refThrows) {
              await expectSplitsRevert(bounty.payoutAmounts(1n, splits, 0), bounty, `[${splits}]`);
            } else {
              expect(await bounty.payoutAmounts(1n, splits, 0)).to.deep.equal([]);
            }
          },
        ),
        { numRuns: 300 },
      );
    });

    it("refuses k above the number of places", async () => {
      const { bounty } = await loadFixture(baseProfile);
      await expect(bounty.payoutAmounts(100n, [5_000, 3_000, 2_000], 4))
        .to.be.revertedWithCustomError(bounty, "TooManyWinners")
        .withArgs(4, 3);
      expect(() => payoutAmounts(100n, [5_000, 3_000, 2_000], 4)).to.throw();
    });
  });
});

/** Asserts that `tx` reverted with one of the splits errors. */
async function expectSplitsRevert(
  tx: Promise<unknown>,
  bounty: { interface: { parseError(data: string): { name: string } | null } },
  what: string,
): Promise<void> {
  try {
    await tx;
  } catch (e) {
    const data = (e as { data?: string }).data;
    if (typeof data !== "string") throw e;
    const name = bounty.interface.parseError(data)?.name;
    expect(SPLITS_ERRORS, `${what} reverted with ${name}`).to.include(name);
    return;
  }
  expect.fail(`${what} did not revert`);
}
