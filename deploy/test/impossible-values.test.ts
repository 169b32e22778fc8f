/**
 * Values the tasks cannot take, refused in one line naming the flag (probe24 B-F2, B-F3):
 * - a date that does not exist (`2027-02-30`, `2027-04-31`, `T24:00:00Z`): `Date.parse` rolled it over,
 *   and `bounty:lock` would have locked a prize closing on March 2 (`--closes-at`, `--award-deadline`,
 *   `bounty:claim --deadline`);
 * - a `local:mint-usdc --amount` past uint256 or past what the test token mints: ethers' "value
 *   out-of-bounds" and Hardhat's ProviderError were printed with their stacks.
 */
import { expect } from "chai";
import { TaskError } from "../lib/errors";
import { parseCount, parseTime } from "../lib/format";
import { expectOk, lockCommand, useTaskChain } from "./helpers";

describe("impossible values (probe24 B-F2, B-F3)", function () {
  it("parseTime refuses a date or time that does not exist, naming the flag; real ones still parse", function () {
    for (const text of [
      "2027-02-30T00:00:00Z",
      "2027-04-31T00:00:00Z",
      "2027-01-01T24:00:00Z",
      "2027-01-01T23:60:00Z",
      "2027-01-01T23:59:60Z",
      "2027-13-01T00:00:00Z",
      "2027-00-10T00:00:00Z",
      "2027-01-00T00:00:00Z",
      "2026-02-29T00:00:00Z", // 2026 is not a leap year
      "2100-02-29T00:00:00Z", // nor is 2100
      "2027-01-01T00:00:00+24:00",
      "2027-01-01T00:00:00-01:60",
    ]) {
      expect(() => parseTime(text, "--closes-at"), text)
        .to.throw(TaskError)
        .with.property("message")
        .that.matches(/^--closes-at names a date or time that does not exist: "/);
    }
    expect(parseTime("2028-02-29T00:00:00Z", "--closes-at")).to.equal(1_835_395_200n);
    expect(parseTime("2000-02-29T12:00:00Z", "--closes-at")).to.equal(951_825_600n);
    expect(parseTime("2027-04-30T23:59:59Z", "--closes-at")).to.equal(1_809_129_599n);
    expect(parseTime("2027-05-01T01:30:00+01:30", "--closes-at")).to.equal(1_809_129_600n);
  });

  it("parseCount names the range it accepts: --max-claims 1..999999, --limit 0..999999 (probe30 C-F11)", function () {
    for (const text of ["-1", "0", "1000000", "1.5", "", "x"])
      expect(() => parseCount(text, "--max-claims", 50, 1), text)
        .to.throw(TaskError)
        .with.property("message", `--max-claims must be an integer 1..999999, got ${JSON.stringify(text)}.`);
    for (const text of ["-1", "1000000"])
      expect(() => parseCount(text, "--limit", 20, 0), text)
        .to.throw(TaskError)
        .with.property("message", `--limit must be an integer 0..999999, got ${JSON.stringify(text)}.`);
    expect(parseCount("1", "--max-claims", 50, 1)).to.equal(1);
    expect(parseCount("999999", "--max-claims", 50, 1)).to.equal(999_999);
    expect(parseCount(undefined, "--max-claims", 50, 1)).to.equal(50);
    expect(parseCount("0", "--limit", 20, 0)).to.equal(0);
  });

  describe("task runs", function () {
    const local = useTaskChain();

    /** `lock` with `flag` set to `value` (replacing the helper's own value). */
    function withFlag(lock: string[], flag: string, value: string): string[] {
      const i = lock.indexOf(flag);
      return [...lock.slice(0, i), flag, value, ...lock.slice(i + 2)];
    }

    it("bounty:lock and bounty:claim refuse a date that does not exist, naming the flag, before anything is sent", async function () {
      const lock = await lockCommand(local.chain, local.dir);
      await local.refuses(
        [...withFlag(lock, "--closes-at", "2027-02-30T00:00:00Z"), "--dry-run"],
        /^Error: --closes-at names a date or time that does not exist: "2027-02-30T00:00:00Z"/m,
      );
      await local.refuses(
        withFlag(lock, "--award-deadline", "2027-04-31T00:00:00Z"),
        /^Error: --award-deadline names a date or time that does not exist: "2027-04-31T00:00:00Z"/m,
      );
      await local.refuses(
        ["bounty:claim", "--relay", "--id", "1", "--deadline", "2027-01-01T24:00:00Z"],
        /^Error: --deadline names a date or time that does not exist: "2027-01-01T24:00:00Z"/m,
      );
    });

    it("bounty:claim --max-claims names the range it takes, 1..999999, for -1 and 0 alike (probe30 C-F11)", async function () {
      for (const value of ["-1", "0"])
        await local.refuses(
          ["bounty:claim", "--all", "--max-claims", value],
          new RegExp(`^Error: --max-claims must be an integer 1\\.\\.999999, got "${value}"\\.$`, "m"),
        );
    });

    it("local:mint-usdc: an --amount past uint256 or refused by the token is one line naming it, no stack", async function () {
      const to = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
      // 81 digits of USDC: 87 digits of base units, past 2^256-1
      await local.refuses(
        ["local:mint-usdc", "--to", to, "--amount", "9".repeat(81)],
        /^Error: --amount is out of the uint256 range: 87 digits of base units, more than 2\^256-1/m,
      );
      // within uint256, past the test token's supply limit (2^255): its revert reason
      await local.refuses(
        ["local:mint-usdc", "--to", to, "--amount", "6" + "0".repeat(70)],
        /^Error: mint reverted: FiatToken: total supply too large\. The token refused the operation\./m,
      );
      // a mint the token takes still mints
      expect(expectOk(await local.run(["local:mint-usdc", "--to", to, "--amount", "5"]))).to.match(
        /^Minted 5\.000000 USDC to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC/m,
      );
    });
  });
});
