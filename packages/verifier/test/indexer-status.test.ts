import { describe, expect, it } from "vitest";
import { statusEntry, statusHead } from "../src/indexer-status.js";

// Ponder's GET /status: { <chain name>: { id, block: { number, timestamp } } } (indexer/README.md)
describe("the indexer's /status answer (shared by the verifier and the deploy tasks)", () => {
  const answer = {
    base: { id: 8453, block: { number: 120, timestamp: 1_700_000_000 } },
    other: { id: 31337, block: { number: 7, timestamp: 1 } },
  };

  it("reads the block of the entry whose id is the chain id, by name", () => {
    expect(statusEntry(answer, 31337)).toEqual({ name: "other", block: 7 });
    expect(statusHead(answer, 8453)).toBe(120);
  });

  it("takes a numeric-string id and a bigint block within the safe range", () => {
    expect(statusEntry({ hardhat: { id: "31337", block: { number: 5n } } }, 31337)).toEqual({
      name: "hardhat",
      block: 5,
    });
  });

  it("names the entry whose block number is not a whole number >= 0 (block null)", () => {
    for (const number of [-1, 1.5, "12", null, 2 ** 53, 2n ** 64n])
      expect(statusEntry({ base: { id: 8453, block: { number } } }, 8453)).toEqual({
        name: "base",
        block: null,
      });
    expect(statusEntry({ base: { id: 8453 } }, 8453)).toEqual({ name: "base", block: null });
    expect(statusHead({ base: { id: 8453, block: [] } }, 8453)).toBeNull();
  });

  it("null for no entry of the chain, or an answer that is not an object", () => {
    for (const body of [null, [], "status", 3, {}, { base: null }, { base: [1] }, { base: { id: 1 } }])
      expect(statusEntry(body, 8453)).toBeNull();
  });
});
