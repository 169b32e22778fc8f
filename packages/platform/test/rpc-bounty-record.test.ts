/**
 * probe38 W-N1: viem decodes each 32-byte word of a `getBounty` answer without checking that it fits its
 * ABI type, so a lying RPC's `status` of 1.16e77 or `leafCount` of 2^64 (read as a rounded float) came
 * through the platform's `getBounty` with no error, to be judged as a bounty; probe39 V-F2: an address word
 * with its upper 12 bytes set was read from its low 20. The platform's transport refuses such an answer word
 * by word (`protocolViewAnswerProblem`) as the RPC's failure (`chain_error`, naming the member); an honest
 * answer is read as it was.
 */
import { benchmarkBountyAbi } from "@bench-bounty/contracts";
import { encodeFunctionResult, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { ChainGateway } from "../src/chain.js";
import { PlatformError } from "../src/errors.js";
import { useStubRpc } from "./helpers.js";

const REGISTRY = "0x2000000000000000000000000000000000000002";
const BOUNTY = "0x1000000000000000000000000000000000000001";
const AUTHOR = "0xabcdef000000000000000000000000000000abcd";

/** An honest `getBounty` answer: funded, 12 leaves, splits [6000, 4000]. */
const HONEST = encodeFunctionResult({
  abi: benchmarkBountyAbi,
  functionName: "getBounty",
  result: {
    author: AUTHOR,
    awarder: AUTHOR,
    token: REGISTRY,
    pool: 1_000_000n,
    testSetRoot: `0x${"ab".repeat(32)}`,
    leafCount: 12,
    closesAt: 2_000_000_000n,
    awardDeadline: 2_000_086_400n,
    thresholdBps: 5000,
    status: 2,
    splitsBps: [6000, 4000],
  },
} as never);

/**
 * The honest answer with its ABI word `index` replaced by `word` (64 hex digits). Words: 0 the tuple's
 * offset, 1-11 its head (author .. status, splits' offset), 12 the splits' length, 13-14 the splits.
 */
const withWord = (index: number, word: string): Hex =>
  `0x${HONEST.slice(2, 2 + 64 * index)}${word}${HONEST.slice(2 + 64 * (index + 1))}` as Hex;
const hex64 = (n: bigint): string => n.toString(16).padStart(64, "0");

const RESULTS: Record<string, Hex> = {
  honest: HONEST,
  status: withWord(10, "ff".repeat(32)),
  leaves: withWord(6, hex64(1n << 64n)),
  closes: withWord(7, hex64(1n << 64n)),
  bps: withWord(9, hex64(70_000n)),
  split: withWord(14, hex64(1n << 16n)),
  awarder: withWord(2, `${"f".repeat(24)}${"a".repeat(40)}`),
  offset: withWord(0, hex64(64n)),
};

const rpc = useStubRpc((method, path) => (method === "eth_call" ? RESULTS[path] : null));

const gateway = (name: string): ChainGateway =>
  ChainGateway.connect({
    rpcUrl: `${rpc()}/${name}`,
    chainId: 31337,
    contracts: { benchmarkBounty: BOUNTY, anchorRegistry: REGISTRY },
    readAs: AUTHOR,
    log: () => undefined,
  });

describe("a getBounty record whose members do not fit their ABI types (probe38 W-N1)", () => {
  it("reads an honest record as it is", async () => {
    const b = await gateway("honest").getBounty(7n);
    expect(b).toMatchObject({
      bountyId: 7n,
      status: 2,
      leafCount: 12,
      thresholdBps: 5000,
      splitsBps: [6000, 4000],
    });
    expect(b.closesAt).toBe(2_000_000_000n);
  });

  it.each([
    ["status", "$.bounty.status: 0xf{64} is not a uint8"],
    ["leaves", "$.bounty.leafCount: 0x0{47}10{16} is not a uint32"],
    ["closes", "$.bounty.closesAt: 0x0{47}10{16} is not a uint64"],
    ["bps", "$.bounty.thresholdBps: 0x0{59}11170 is not a uint16"],
    ["split", "$.bounty.splitsBps\\[1\\]: 0x0{59}10000 is not a uint16"],
    ["awarder", "$.bounty.awarder: 0xf{24}a{40} is not an address"],
    ["offset", "the offset of $.bounty is 0x40, not 0x20"],
  ])(
    "refuses a record with %s off its ABI type as the RPC's failure, naming the member",
    async (name, said) => {
      const e = await gateway(name)
        .getBounty(7n)
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(PlatformError);
      expect((e as PlatformError).code).toBe("chain_error");
      expect((e as PlatformError).message).toMatch(
        new RegExp(
          `^getBounty failed: the answer is not a JSON-RPC answer to eth_call \\(\\$\\.result: is not the view's ABI value \\(getBounty: ${said.replace(/\$/g, "\\$")}`,
        ),
      );
    },
  );
});
