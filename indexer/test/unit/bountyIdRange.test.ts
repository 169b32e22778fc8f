import { describe, expect, it } from "vitest";
import { ParamError, paramErrorBody, parseBountyId } from "../../lib/params";

/** The ParamError a parse throws (fails the test when it does not throw one). */
function errorOf(f: () => unknown): ParamError {
  try {
    f();
  } catch (e) {
    if (e instanceof ParamError) return e;
    throw e;
  }
  throw new Error("did not throw");
}

describe("bounty id range messages", () => {
  it("a positive integer beyond uint256 is refused for its size, naming the parameter", () => {
    const eighty = "1" + "0".repeat(79); // 80 digits, well-formed, > 2^256-1
    const e = errorOf(() => parseBountyId("id", eighty));
    expect(e.parameter).toBe("id");
    expect(e.message).toBe(
      '"id" must be a positive decimal integer no larger than 2^256-1 (uint256), got an integer of 80 digits',
    );
    expect(paramErrorBody(e).error).toMatchObject({ code: "invalid_parameter", parameter: "id" });
  });

  it("2^256 (78 digits, one past the largest uint256) gets the same range message", () => {
    const e = errorOf(() => parseBountyId("id", (1n << 256n).toString()));
    expect(e.message).toMatch(/^"id" must be a positive decimal integer no larger than 2\^256-1/);
  });

  // probe39 B-N2 asked that 2^256 .. 10^78-1 (78 digits, past uint256) be refused by value, not by digit
  // count: they are (the probe's "2^256", 115792089237316195433057384840007913129639936, has 45 digits
  // and is a uint256, so /awards?bounty= of it answered an empty page rightly)
  it("every 78-digit integer past 2^256-1 is refused, up to 10^78-1; the probe's 45-digit id is read", () => {
    for (const v of [(1n << 256n).toString(), ((1n << 256n) + 1n).toString(), "9".repeat(78)]) {
      const e = errorOf(() => parseBountyId("bounty", v));
      expect(e.message).toBe(
        `"bounty" must be a positive decimal integer no larger than 2^256-1 (uint256), got an integer of 78 digits`,
      );
      expect(paramErrorBody(e).error).toMatchObject({ code: "invalid_parameter", parameter: "bounty" });
    }
    const probes = "115792089237316195433057384840007913129639936";
    expect(parseBountyId("bounty", probes)).toBe(BigInt(probes));
  });

  it("a very long digit string is refused without echoing it", () => {
    const e = errorOf(() => parseBountyId("id", "9".repeat(100_000)));
    expect(e.message).toMatch(/got an integer of 100000 digits$/);
    expect(e.message.length).toBeLessThan(200);
  });

  it("values that are not positive decimal integers keep the format message", () => {
    for (const bad of ["0", "01", "-1", "1.5", "0x10", "abc"]) {
      const e = errorOf(() => parseBountyId("id", bad));
      expect(e.message).toBe(`"id" must be a positive decimal integer, got "${bad}"`);
    }
  });

  it("the largest uint256 is still accepted", () => {
    const max = (1n << 256n) - 1n;
    expect(parseBountyId("id", max.toString())).toBe(max);
  });
});
