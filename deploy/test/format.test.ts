/**
 * Times of the tasks (deploy/lib/format.ts): a time flag is refused naming the flag when a date cannot
 * show it (probeD3 F4: `bounty:claim --relay --deadline 9999999999999999` crashed with "RangeError:
 * Invalid time value" and a stack trace), and a time read from the chain prints whatever its size (a
 * stranger's bounty may close at any uint64).
 */
import { fundedNext } from "../lib/window";
import { expect } from "chai";
import { TaskError, isoTime } from "../lib/errors";
import { awardClaimNotes } from "../lib/claim-notes";
import { baseUnits, formatAmount, isoSeconds, parseBountyId, parseTime } from "../lib/format";
import { validateBountyTerms } from "../lib/terms";

describe("times of the tasks", function () {
  it("parseTime refuses a time past the year 9999, naming the flag: the bound of `bench-bounty lock` too (probe25 B-F7)", function () {
    for (const text of [
      "9999999999999999",
      (2n ** 256n).toString(),
      "8640000000000",
      "253402300800",
      "9999-12-31T23:59:59-00:01",
    ]) {
      expect(() => parseTime(text, "--closes-at"))
        .to.throw(TaskError)
        .with.property("message")
        .that.matches(/^--closes-at must be at most 253402300799 \(unix seconds of 9999-12-31T23:59:59Z\)/);
    }
    expect(parseTime("253402300799", "--closes-at")).to.equal(253_402_300_799n);
    expect(parseTime("9999-12-31T23:59:59Z", "--award-deadline")).to.equal(253_402_300_799n);
    expect(parseTime("9999999999", "--deadline")).to.equal(9_999_999_999n);
    expect(parseTime("2026-01-31T12:00:00Z", "--closes-at")).to.equal(1_769_860_800n);
  });

  it("parseBountyId refuses an id past uint256 and shows a control character escaped (probe18 F5)", function () {
    expect(parseBountyId((2n ** 256n - 1n).toString())).to.equal(2n ** 256n - 1n);
    expect(() => parseBountyId((2n ** 256n).toString()))
      .to.throw(TaskError)
      .with.property("message")
      .that.matches(/^--id must be a bounty id \(1 to 2\^256-1: a uint256\), got one of 78 digits\.$/);
    expect(() => parseBountyId("1\u0001"))
      .to.throw(TaskError)
      .with.property("message", '--id must be a bounty id (1, 2, ...), got "1\\u0001".');
  });

  it("isoSeconds and isoTime print a time of any size read from the chain", function () {
    expect(isoSeconds(1_769_860_800n)).to.equal("2026-01-31T12:00:00Z");
    const far = 2n ** 64n - 1n;
    expect(isoSeconds(far)).to.equal(`unix ${far} (after +275760-09-13T00:00:00Z)`);
    expect(isoTime(far)).to.equal(`unix ${far} (after +275760-09-13T00:00:00Z)`);
    expect(isoTime(1_769_860_800n)).to.equal("2026-01-31T12:00:00Z (1769860800)");
  });
});

describe("what bounty:status says is left to claim (probe30 C-F1)", function () {
  const fmt = (v: bigint) => `${formatAmount(v, "USDC", 6)} (${baseUnits(v)})`;
  const [w1, w2, author] = ["0x" + "a".repeat(40), "0x" + "b".repeat(40), "0x" + "c".repeat(40)];

  it("a place credited 0 base units has nothing to claim, never 'claimed'; 1 base unit is singular", function () {
    const notes = awardClaimNotes(
      [w1, w2],
      [1n, 0n],
      author,
      0n,
      new Map([
        [w1, 1n],
        [w2, 0n],
      ]),
      fmt,
    );
    expect(notes.places).to.deep.equal([
      "0.000001 USDC (1 base unit) to claim",
      "credited 0 base units: nothing to claim",
    ]);
    expect(notes.remainder).to.equal(null);
    expect(baseUnits(0n)).to.equal("0 base units");
    expect(baseUnits(5_000_000n)).to.equal("5000000 base units");
  });

  it("an account credited in two places, or a winner who is the author, is named for its one credit; a claimed one says claimed", function () {
    const twice = awardClaimNotes([w1, w1], [3n, 2n], author, 0n, new Map([[w1, 5n]]), fmt);
    expect(twice.places).to.deep.equal([
      "0.000005 USDC (5 base units) to claim by this address for its 2 credited entries together",
      "0.000005 USDC (5 base units) to claim by this address for its 2 credited entries together",
    ]);
    const authorWins = awardClaimNotes(
      [author.toUpperCase().replace("0X", "0x")],
      [4n],
      author,
      6n,
      new Map([[author, 10n]]),
      fmt,
    );
    expect(authorWins.places[0]).to.match(
      /10 base units\) to claim by this address for its 2 credited entries/,
    );
    expect(authorWins.remainder).to.match(
      /10 base units\) to claim by this address for its 2 credited entries/,
    );
    const claimed = awardClaimNotes(
      [w1],
      [7n],
      author,
      3n,
      new Map([
        [w1, 0n],
        [author, 3n],
      ]),
      fmt,
    );
    expect(claimed).to.deep.equal({
      places: ["claimed"],
      remainder: "0.000003 USDC (3 base units) to claim",
    });
  });
});

describe("bounty:status's next line at the window's edges (probe31 C-F5)", function () {
  const closesAt = 1_000_000n;
  const deadline = 1_000_600n;
  it("is judged by the block an award would land in: the latest block's time plus one at the least", function () {
    // the latest block at closesAt - 1: the next block, where an award lands, is in the window
    expect(fundedNext(closesAt, deadline, closesAt)).to.equal(
      `Funded: closed; the awarder may award until ${isoSeconds(deadline)}.`,
    );
    expect(fundedNext(closesAt, deadline, closesAt - 1n)).to.equal(
      "Funded: competition open; the award window opens in 1s.",
    );
    expect(fundedNext(closesAt, deadline, deadline)).to.match(/the awarder may award until/);
    // the latest block at the award deadline: no block to come can carry an award
    expect(fundedNext(closesAt, deadline, deadline + 1n)).to.equal(
      "Funded, but the award deadline has passed: the author can take the pool back (bounty:reclaim).",
    );
  });
});

describe("bounty:lock's terms and the service's award window (probe38 C-F1)", function () {
  it("locks a window under 3600 s with a warning on stderr that the service refuses to attach it; none at 3600 s", function () {
    const warned: unknown[][] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warned.push(args);
    try {
      const terms = (window: bigint) => ({
        pool: 1n,
        thresholdBps: 0,
        closesAt: 2_000_000_000n,
        awardDeadline: 2_000_000_000n + window,
        splitsBps: [10000],
      });
      expect(validateBountyTerms(terms(1n), 1_000_000_000n).awardDeadline).to.equal(2_000_000_001n);
      expect(warned).to.have.length(1);
      expect(String(warned[0]![0])).to.match(
        /^Warning: the award window \(1 s from --closes-at to --award-deadline\) is shorter than 3600 s: the bench-bounty service refuses to attach this bounty \(award_window_too_short\)/,
      );
      validateBountyTerms(terms(3600n), 1_000_000_000n);
      expect(warned).to.have.length(1);
    } finally {
      console.warn = warn;
    }
  });
});
