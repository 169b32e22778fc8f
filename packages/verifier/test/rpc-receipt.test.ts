/**
 * probe29 B-F4: the verifier read an `eth_getTransactionReceipt` answer for another transaction, logs of
 * another block, and logs a reorg removed as the award's receipt (`award_log` and the anchors verified).
 * A receipt that contradicts the question or itself is an RPC that cannot be read (exit 3), naming the
 * JSON path of the contradiction.
 */
import { anchorRegistryAbi } from "@bench-bounty/contracts";
import { keccak256, toBytes, type PublicClient } from "viem";
import { describe, expect, it } from "vitest";
import { exactEventLog } from "../src/onchain/logs.js";
import { RpcAnswerShapeError, readCode, readReceipt } from "../src/onchain/rpc-answers.js";

const TX = `0x${"ab".repeat(32)}` as const;
const BLOCK_HASH = `0x${"cd".repeat(32)}`;

/** A mined receipt of TX in block 0x10 with one log, `change` applied to the receipt or its log. */
function receipt(change: (r: Record<string, any>) => void = () => {}): Record<string, any> {
  const r: Record<string, any> = {
    status: "0x1",
    blockNumber: "0x10",
    blockHash: BLOCK_HASH,
    transactionHash: TX,
    transactionIndex: "0x0",
    from: `0x${"11".repeat(20)}`,
    to: `0x${"22".repeat(20)}`,
    cumulativeGasUsed: "0x5208",
    gasUsed: "0x5208",
    effectiveGasPrice: "0x1",
    contractAddress: null,
    logsBloom: `0x${"00".repeat(256)}`,
    type: "0x2",
    logs: [
      {
        address: `0x${"22".repeat(20)}`,
        topics: [`0x${"33".repeat(32)}`],
        data: "0x",
        blockNumber: "0x10",
        blockHash: BLOCK_HASH,
        transactionHash: TX,
        transactionIndex: "0x0",
        logIndex: "0x0",
        removed: false,
      },
    ],
  };
  change(r);
  return r;
}

const answering = (answer: unknown) => ({ request: async () => answer }) as unknown as PublicClient;

describe("a transaction receipt that contradicts the question or itself (probe29 B-F4)", () => {
  it("a consistent receipt is read", async () => {
    const r = await readReceipt(answering(receipt()), TX);
    expect([r?.transactionHash, r?.blockNumber, r?.logs.length]).toEqual([TX, 16n, 1]);
  });

  it.each([
    [
      "another transaction's receipt",
      (r: any) => (r.transactionHash = `0x${"ef".repeat(32)}`),
      "$.transactionHash",
    ],
    [
      "a log of another transaction",
      (r: any) => (r.logs[0].transactionHash = `0x${"ef".repeat(32)}`),
      "$.logs[0].transactionHash",
    ],
    ["a log of another block number", (r: any) => (r.logs[0].blockNumber = "0x1"), "$.logs[0].blockNumber"],
    [
      "a log of another block hash",
      (r: any) => (r.logs[0].blockHash = `0x${"99".repeat(32)}`),
      "$.logs[0].blockHash",
    ],
    ["a log a reorg removed", (r: any) => (r.logs[0].removed = true), "$.logs[0].removed"],
  ])("%s is an RPC answer that cannot be read, naming its path", async (_what, change, path) => {
    const e = await readReceipt(answering(receipt(change)), TX).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RpcAnswerShapeError);
    expect((e as Error).message).toContain(`the answer is not a receipt of transaction ${TX} (${path}: `);
  });
});

describe("hex in upper case (probe37 B-F1)", () => {
  // Anchored(bytes32 indexed digest, bytes32 indexed kind, address indexed anchorer)
  const topics = [
    keccak256(toBytes("Anchored(bytes32,bytes32,address)")),
    `0x${"ab".repeat(32)}`,
    keccak256(toBytes("bench-bounty.anchor.pack")),
    `0x${"00".repeat(12)}${"5e".repeat(20)}`,
  ];
  const upper = (h: string): string => `0x${h.slice(2).toUpperCase()}`;

  it("a log whose topic 0 the RPC wrote in upper case is the same event (it read as no log: award_log failed)", async () => {
    const answer = receipt((r) => {
      r.transactionHash = upper(TX);
      r.logs[0].topics = topics.map(upper);
      r.logs[0].address = upper(r.logs[0].address as string);
      r.logs[0].transactionHash = upper(TX);
    });
    const r = await readReceipt(answering(answer), TX);
    expect(r?.logs[0]?.topics).toEqual(topics);
    expect(r?.transactionHash).toBe(TX);
    expect(r?.logs[0]?.address).toBe(`0x${"22".repeat(20)}`);
    const ev = exactEventLog(anchorRegistryAbi, r!.logs[0]!);
    expect(ev?.eventName).toBe("Anchored");
    expect(String(ev?.args.digest)).toBe(topics[1]);
  });

  it("code the RPC wrote in upper case is read in lower case", async () => {
    expect(await readCode(answering("0x60AB00fF"), `0x${"22".repeat(20)}`)).toBe("0x60ab00ff");
  });
});
