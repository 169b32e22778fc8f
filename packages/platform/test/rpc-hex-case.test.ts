/**
 * probe37 B-F1: hex case carries no meaning, but viem matches a log's topic 0 against the lower-case event
 * selector by string (its `getContractEvents` / `parseEventLogs` do not normalise): behind an RPC writing
 * topic 0 in upper case the platform's search for its own `Awarded` log (`findAwardedLog`) and for an
 * anchoring (`findAnchor`) found nothing. The platform's transport reads every answer's result with its hex
 * in lower case.
 */
import { anchorRegistryAbi, benchmarkBountyAbi } from "@bench-bounty/contracts";
import {
  encodeAbiParameters,
  encodeEventTopics,
  encodeFunctionResult,
  toFunctionSelector,
  type Hex,
} from "viem";
import { describe, expect, it } from "vitest";
import { ChainGateway } from "../src/chain.js";
import { useStubRpc } from "./helpers.js";

const BOUNTY = "0x1000000000000000000000000000000000000001";
const REGISTRY = "0x2000000000000000000000000000000000000002";
const WINNER = "0xabcdef000000000000000000000000000000abcd";
const TX = `0x${"ab".repeat(32)}` as Hex;
const DIGEST = `0x${"cd".repeat(32)}` as Hex;
const KIND = `0x${"ef".repeat(32)}` as Hex;

const upper = (h: string): string => `0x${h.slice(2).toUpperCase()}`;

/** A log of block 0x10 in TX, its hex (topics, address, data, hashes) in upper case. */
function upperLog(address: string, topics: readonly unknown[], data: Hex): Record<string, unknown> {
  return {
    address: upper(address),
    topics: topics.map((t) => upper(t as Hex)),
    data: upper(data),
    blockNumber: "0x10",
    blockHash: upper(`0x${"99".repeat(32)}`),
    transactionHash: upper(TX),
    transactionIndex: "0x0",
    logIndex: "0x0",
    removed: false,
  };
}

const awarded = upperLog(
  BOUNTY,
  encodeEventTopics({
    abi: benchmarkBountyAbi,
    eventName: "Awarded",
    args: { bountyId: 1n, testSetRoot: DIGEST },
  } as never),
  encodeAbiParameters(
    [{ type: "address[]" }, { type: "uint256[]" }, { type: "uint256" }, { type: "bytes32" }],
    [[WINNER], [5n], 0n, KIND],
  ),
);
const anchored = upperLog(
  REGISTRY,
  encodeEventTopics({
    abi: anchorRegistryAbi,
    eventName: "Anchored",
    args: { digest: DIGEST, kind: KIND, anchorer: WINNER },
  } as never),
  "0x",
);

const anchorOf = toFunctionSelector("anchorOf(bytes32)");
// answers on a path ending in /plain are sent as text (viem then parses the text itself)
const rpc = useStubRpc((method, _path, params) => {
  const [call] = params as [{ address?: string; data?: string }];
  if (method === "eth_blockNumber") return "0x20";
  if (method === "eth_getLogs") return [call.address?.toLowerCase() === REGISTRY ? anchored : awarded];
  if (method === "eth_call" && call.data?.startsWith(anchorOf))
    return upper(
      encodeFunctionResult({
        abi: anchorRegistryAbi,
        functionName: "anchorOf",
        result: [WINNER, 16n, 1n, KIND],
      } as never),
    );
  return null;
});

const gateway = (path = ""): ChainGateway =>
  ChainGateway.connect({
    rpcUrl: `${rpc()}${path}`,
    chainId: 31337,
    contracts: { benchmarkBounty: BOUNTY, anchorRegistry: REGISTRY },
    readAs: WINNER,
    log: () => undefined,
  });

describe("an RPC writing hex in upper case (probe37 B-F1)", () => {
  it.each(["", "/hex/plain"])(
    "findAwardedLog finds the Awarded log whose topic 0 is in upper case, read in lower case (answers on path %j)",
    async (path) => {
      expect(await gateway(path).findAwardedLog(1n, 0n)).toEqual({
        winners: [WINNER],
        amounts: [5n],
        authorRemainder: 0n,
        rankingDigest: KIND,
        txHash: TX,
        blockNumber: 16,
      });
    },
  );

  it("findAnchor finds the Anchored log whose topic 0 is in upper case", async () => {
    const found = await gateway().findAnchor(DIGEST);
    expect(found?.evidence).toEqual({ registry_address: REGISTRY, tx_hash: TX, anchor_block: 16 });
    expect(found?.kind).toBe(KIND);
  });
});
