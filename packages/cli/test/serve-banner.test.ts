/**
 * The banner's chain line (`chainBannerLine`): probe32 A-F2, a local node has Base's chain id 8453, so
 * without `--local-chain` the web pages linked its transactions to Basescan and nothing said so.
 */
import { describe, expect, it } from "vitest";
import { chainBannerLine, unspecifiedHostNote } from "../src/serve.js";

const NOTE = "  note: the RPC is on a loopback address: if it is a local node, pass --local-chain";

describe("serve's banner chain line", () => {
  it.each(["http://127.0.0.1:8545", "http://localhost:8545/", "http://[::1]:8545", "http://127.3.4.5:1"])(
    "an RPC on loopback (%s) without --local-chain gets the note",
    (rpc) => {
      const line = chainBannerLine({ chainId: "8453" }, rpc, null);
      expect(line.startsWith("  chain: chain id 8453 via ")).toBe(true);
      expect(line).toContain(NOTE);
    },
  );

  it("no note with --local-chain, for a remote RPC, or without a chain", () => {
    expect(chainBannerLine({ chainId: "8453", localChain: true }, "http://127.0.0.1:8545", null)).toBe(
      "  chain: chain id 8453 via http://127.0.0.1:8545\n",
    );
    expect(chainBannerLine({ chainId: "8453" }, "https://mainnet.base.org/key", null)).toBe(
      "  chain: chain id 8453 via https://mainnet.base.org\n",
    );
    expect(chainBannerLine({ chainId: "8453" }, undefined, null)).toBe(
      "  chain: none (off-chain: no anchors, no award)\n",
    );
    expect(chainBannerLine({ chainId: "8453" }, undefined, 8453)).toContain(
      "the store is anchored on chain 8453",
    );
  });
});

// probe33 B-F12: on every interface the default base URL (how_to_compete, receipt URLs) is unusable
describe("serve's banner note on every interface", () => {
  it("--host 0.0.0.0 or :: without --public-url gets the note naming --public-url; otherwise none", () => {
    for (const url of ["http://0.0.0.0:8787", "http://[::]:8787"]) {
      expect(unspecifiedHostNote(undefined, url)).toBe(
        `  note: ${url} is every interface, not an address agents can use: how_to_compete and receipt URLs are built on it; pass --public-url with the address they reach this server by\n`,
      );
      expect(unspecifiedHostNote("https://bench.example", url)).toBe("");
    }
    expect(unspecifiedHostNote(undefined, "http://127.0.0.1:8787")).toBe("");
    expect(unspecifiedHostNote(undefined, "http://[::1]:8787")).toBe("");
  });
});
