/**
 * POST /benchmarks/:slug/bounty refuses odd bounty ids with 422 naming `bounty_id` (probe4
 * `attach-terms.mts`): a JSON number that lost digits (9007199254740993 parses as ...992), an
 * exponent (1e21), negative, fractional, hexadecimal, zero and -0, and ids beyond uint256.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, publishCities, startLive, type Live } from "./helpers.js";

let live: Live;
beforeAll(async () => {
  live = await startLive();
});
afterAll(async () => {
  await live.stop();
});

describe("attach: odd bounty_id values", () => {
  it("are 422 naming bounty_id, never a 500 nor a guessed id", async () => {
    const { author, slug } = await publishCities(live.url, 2, "odd-ids");
    const bodies = [
      "1e21",
      "9007199254740993",
      String(2 ** 53),
      "-1",
      "-0",
      "0",
      "1.5",
      '"0"',
      '"-1"',
      '"0x10"',
      '"1e3"',
      '"007"',
      '"1.0"',
      '"115792089237316195423570985008687907853269984665640564039457584007913129639936"',
    ];
    for (const v of bodies) {
      const r = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/bounty`, {
        key: author.key,
        raw: `{"bounty_id":${v}}`,
      });
      expect(r.status, `${v}: ${r.text}`).toBe(422);
      expect(r.text, v).toMatch(/bounty_id/);
    }
    // a well-formed id reaches the domain: off-chain that is 503 no_chain, not a 422
    const ok = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/bounty`, {
      key: author.key,
      body: { bounty_id: "1" },
    });
    expect(ok.status, ok.text).toBe(503);
  });
});
