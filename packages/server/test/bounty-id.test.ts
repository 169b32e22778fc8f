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

  it("every wrong JSON type or number below 1 gets the field's one sentence, never zod's 'Invalid input' or 'Too small' (probe30 A-F1)", async () => {
    const { author, slug } = await publishCities(live.url, 2, "odd-types");
    const rule =
      "$.bounty_id: must be the bounty id: a whole number >= 1, as a decimal string (up to 2^256-1) or a JSON integer up to 2^53-1";
    for (const v of ["[2]", "true", "null", "{}", "-2", "0"]) {
      const r = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/bounty`, {
        key: author.key,
        raw: `{"bounty_id":${v}}`,
      });
      expect(r.status, `${v}: ${r.text}`).toBe(422);
      expect(r.json.error.message, v).toBe(rule);
    }
    // the publish body's two unions likewise
    for (const [field, value, sentence] of [
      [
        "public_fraction",
        [0.5],
        "must be a number or a decimal string from 0 to 1 (the share of public rows)",
      ],
      ["tolerance", true, "must be a number or a decimal string >= 0 (the numeric grader's tolerance)"],
    ] as const) {
      const r = await call(live.url, "POST", `/api/v1/datasets/ds-none/benchmark`, {
        key: author.key,
        body: { title: "t", [field]: value },
      });
      expect(r.status, r.text).toBe(422);
      expect(r.json.error.details.errors).toContainEqual(
        expect.objectContaining({ path: `$.${field}`, message: sentence }),
      );
    }
  });

  it("a malformed author or a zero-padded pool is 422 naming its path, before any chain read (probe29 A-F6)", async () => {
    const { author, slug } = await publishCities(live.url, 2, "odd-expect");
    const bodies: [Record<string, unknown>, string][] = [
      [{ author: "0xzz" }, "$.author"],
      [{ author: "3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" }, "$.author"],
      // one letter's case off: the EIP-55 checksum fails (the withdrawal-address rule)
      [{ author: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293Bc" }, "$.author"],
      [{ author: "" }, "$.author"],
      [{ pool_base_units: "05000000" }, "$.pool_base_units"],
      [{ pool_base_units: "0" }, "$.pool_base_units"],
      [{ pool_base_units: "5e6" }, "$.pool_base_units"],
    ];
    for (const [extra, path] of bodies) {
      const r = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/bounty`, {
        key: author.key,
        body: { bounty_id: "1", ...extra },
      });
      expect(r.status, `${JSON.stringify(extra)}: ${r.text}`).toBe(422);
      expect(r.json.error).toMatchObject({ code: "invalid_request", details: { path } });
    }
    // well-formed declarations (checksummed, lower-case) reach the domain: off-chain 503 no_chain
    for (const a of [
      "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
      "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
    ]) {
      const ok = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/bounty`, {
        key: author.key,
        body: { bounty_id: "1", author: a, pool_base_units: "5000000" },
      });
      expect(ok.status, ok.text).toBe(503);
    }
  });
});
