/**
 * Times of the tasks (deploy/lib/format.ts): a time flag is refused naming the flag when a date cannot
 * show it (probeD3 F4: `bounty:claim --relay --deadline 9999999999999999` crashed with "RangeError:
 * Invalid time value" and a stack trace), and a time read from the chain prints whatever its size (a
 * stranger's bounty may close at any uint64).
 */
import { expect } from "chai";
import { TaskError, isoTime } from "../lib/errors";
import { isoSeconds, parseBountyId, parseTime } from "../lib/format";

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
