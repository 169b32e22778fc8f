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
