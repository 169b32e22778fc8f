/**
 * probe39 B-F6: Ponder drops a log of a watched contract whose data does not decode with its event's ABI
 * with a debug line only; an RPC cutting each log's data to one word emptied `/bounties` in silence.
 * The transport Ponder reads the chain through (`redactedHttpTransport` with the watched contracts, as
 * ponder.config.ts builds it) refuses such an `eth_getLogs` answer, loudly; other answers pass.
 */
import { benchmarkBountyAbi } from "@bench-bounty/contracts";
import { encodeAbiParameters, encodeEventTopics, type Hex } from "viem";
import { afterEach, describe, expect, it, vi } from "vitest";
import { UndecodableLogError } from "../../lib/logCheck";
import { redactedHttpTransport } from "../../lib/rpcTransport";

const BOUNTY = "0x00000000000000000000000000000000000b0b01";
const OTHER = "0x00000000000000000000000000000000000c0c02";
const AUTHOR = "0x1111111111111111111111111111111111111111";
const TOKEN = "0x2222222222222222222222222222222222222222";
const TX = `0x${"ab".repeat(32)}`;

/** A BountyCreated log of bounty 1 as the contract emits it (all its data). */
function bountyCreated(address: string): { address: string; topics: Hex[]; data: Hex } {
  const topics = encodeEventTopics({
    abi: benchmarkBountyAbi,
    eventName: "BountyCreated",
    args: { bountyId: 1n, author: AUTHOR, token: TOKEN },
  }) as Hex[];
  const data = encodeAbiParameters(
    [
      { type: "address" },
      { type: "bytes32" },
      { type: "uint32" },
      { type: "uint256" },
      { type: "uint64" },
      { type: "uint64" },
      { type: "uint16" },
      { type: "uint16[]" },
    ],
    [AUTHOR, `0x${"cd".repeat(32)}`, 3, 1_000_000n, 100n, 200n, 5000, [10000]],
  );
  return { address, topics, data };
}

function logAnswer(logs: { address: string; topics: Hex[]; data: Hex }[]) {
  return logs.map((l, i) => ({
    ...l,
    blockNumber: "0x7",
    blockHash: `0x${"01".repeat(32)}`,
    transactionHash: TX,
    transactionIndex: "0x0",
    logIndex: `0x${i.toString(16)}`,
    removed: false,
  }));
}

/** `eth_getLogs` through the transport, the RPC answering `result`. */
function getLogs(result: unknown) {
  const fetchFn = (_input: string, init?: RequestInit): Promise<Response> => {
    const { id } = JSON.parse(String(init?.body)) as { id: number };
    return Promise.resolve(
      new Response(JSON.stringify({ jsonrpc: "2.0", id, result }), {
        headers: { "content-type": "application/json" },
      }),
    );
  };
  const transport = redactedHttpTransport("http://127.0.0.1:9/", fetchFn, undefined, [
    { name: "BenchmarkBounty", address: BOUNTY, abi: benchmarkBountyAbi },
  ]);
  return transport({ retryCount: 0, timeout: 2_000 }).request({
    method: "eth_getLogs",
    params: [{ fromBlock: "0x1", toBlock: "0x7" }],
  }) as Promise<unknown>;
}

afterEach(() => vi.restoreAllMocks());

describe("eth_getLogs answers holding a watched event's log that does not decode", () => {
  it("a BountyCreated cut to its first data word: refused, logged once, naming the log and the event", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const cut = bountyCreated(BOUNTY);
    const answer = logAnswer([bountyCreated(BOUNTY), { ...cut, data: cut.data.slice(0, 66) as Hex }]);
    const e = await getLogs(answer).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UndecodableLogError);
    const message = (e as Error).message;
    expect(message).toContain(`log 1 of the answer, block 7 tx ${TX} logIndex 1`);
    expect(message).toContain(`BenchmarkBounty ${BOUNTY} BountyCreated (topic0 ${cut.topics[0]}) does not decode`);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(String(errors.mock.calls[0]![0])).toMatch(/^\[bench-bounty indexer\] UNDECODABLE LOG NOT INDEXED: log 1/);
    // the same answer again (Ponder's retry): refused again, not logged again
    await expect(getLogs(answer)).rejects.toBeInstanceOf(UndecodableLogError);
  });

  it("a watched event with a topic missing: refused", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const log = bountyCreated(BOUNTY);
    await expect(getLogs(logAnswer([{ ...log, topics: log.topics.slice(0, 2) }]))).rejects.toThrow(
      /BountyCreated .* does not decode/,
    );
  });

  it("whole logs, another contract's cut log and unknown topics pass as the RPC answered them", async () => {
    const cut = bountyCreated(OTHER);
    const answer = logAnswer([
      bountyCreated(BOUNTY),
      { ...cut, data: cut.data.slice(0, 66) as Hex },
      { address: BOUNTY, topics: [`0x${"ee".repeat(32)}`], data: "0x" },
    ]);
    expect(await getLogs(answer)).toEqual(answer);
    expect(await getLogs([])).toEqual([]);
  });
});
