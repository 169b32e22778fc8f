/**
 * probe38 B-F1: an `eth_call` answer whose result is not hex data is no contract's answer. viem pads odd
 * hex with a leading 0, so an `anchorOf` answered with one hex digit too many was read as another anchor
 * (another block, another kind) with no error; `"0x123"`, `""` and a number failed in viem's words with no
 * JSON path ("Data size of 2 bytes is too small", "returned no data", "An unknown error occurred"). The
 * platform's transport refuses each with the verifier's rule (`ethCallResultProblem`): a `chain_error`
 * naming eth_call and `$.result`. A real `"0x"` stays the contract's "no data".
 */
import { anchorRegistryAbi } from "@bench-bounty/contracts";
import { encodeFunctionResult, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { ChainGateway } from "../src/chain.js";
import { PlatformError } from "../src/errors.js";
import { useStubRpc } from "./helpers.js";

const REGISTRY = "0x2000000000000000000000000000000000000002";
const BOUNTY = "0x1000000000000000000000000000000000000001";
const ANCHORER = "0xabcdef000000000000000000000000000000abcd";
const DIGEST = `0x${"cd".repeat(32)}` as Hex;
const KIND = `0x${"ef".repeat(32)}` as Hex;

/** An honest `anchorOf` answer: anchored at block 16 with KIND. */
const ANCHOR_OF = encodeFunctionResult({
  abi: anchorRegistryAbi,
  functionName: "anchorOf",
  result: [ANCHORER, 16n, 1n, KIND],
} as never);

/** The eth_call result answered on `/<name>` (the JSON value, as the RPC writes it). */
const RESULTS: Record<string, unknown> = {
  honest: ANCHOR_OF,
  upper: `0x${ANCHOR_OF.slice(2).toUpperCase()}`,
  oddlong: `${ANCHOR_OF}0`,
  odd: "0x123",
  empty: "",
  num: 5,
  obj: { a: 1 },
  nothex: "0llo",
  nulled: null,
  short: ANCHOR_OF.slice(0, -2),
};

// on /<name>/plain as text (viem then parses the text itself)
const rpc = useStubRpc((method, path) => (method === "eth_call" ? RESULTS[path.split("/")[0]!] : null));

const gateway = (path: string): ChainGateway =>
  ChainGateway.connect({
    rpcUrl: `${rpc()}${path}`,
    chainId: 31337,
    contracts: { benchmarkBounty: BOUNTY, anchorRegistry: REGISTRY },
    readAs: ANCHORER,
    log: () => undefined,
  });

describe("an eth_call result that is not hex data (probe38 B-F1)", () => {
  it.each(["/honest", "/upper", "/honest/plain"])("reads an honest anchorOf answer on %s", async (path) => {
    expect(await gateway(path).anchorBlocks([DIGEST])).toEqual([{ block: 16, kind: KIND }]);
  });

  it.each([
    ["odd hex long enough to decode", "/oddlong", `"${ANCHOR_OF}0"`],
    ["the same, answered as text/plain", "/oddlong/plain", `"${ANCHOR_OF}0"`],
    ["odd hex", "/odd", '"0x123"'],
    ["an empty string", "/empty", '""'],
    ["a number", "/num", "5"],
    ["an object", "/obj", '{"a":1}'],
    ["a string of no hex", "/nothex", '"0llo"'],
    ["null", "/nulled", "null"],
  ])("refuses %s as the RPC's failure, naming eth_call and $.result", async (_what, path, json) => {
    const e = await gateway(path)
      .anchorBlocks([DIGEST])
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PlatformError);
    const err = e as PlatformError;
    expect(err.code).toBe("chain_error");
    expect(err.message).toMatch(
      /^anchorOf failed: the answer is not a JSON-RPC answer to eth_call \(\$\.result: is /,
    );
    expect(err.message).toContain(`($.result: is ${json.slice(0, 100)}`);
    expect(err.message).toMatch(/an eth_call answers hex data .*\(the chain RPC\)$/);
  });

  it("names hex data too short for the ABI value as the verifier does, not in viem's words (probe38 V-N2)", async () => {
    const e = await gateway("/short")
      .anchorBlocks([DIGEST])
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PlatformError);
    expect((e as PlatformError).code).toBe("chain_error");
    expect((e as PlatformError).message).toBe(
      "anchorOf failed: the answer's data is too short for the function's ABI value (not the protocol's contract, or an RPC that cuts its answers) (the chain RPC)",
    );
  });
});
