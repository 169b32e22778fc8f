/**
 * probe39 B-F6, live: a BountyCreated log whose data does not decode (cut to its first word, as a lying
 * RPC served them) reaches the indexer's `eth_getLogs`. Ponder alone dropped it with a debug line and
 * went on as synced; the indexer now says so on stderr and does not index past it. The log is put on
 * the devchain with a log emitter at the BenchmarkBounty address (`hardhat_setCode`), as
 * `anomalies.test.ts` does, the genuine code restored before the indexer starts.
 */
import { benchmarkBountyAbi } from "@bench-bounty/contracts";
import { startDevChain, type DevChain } from "@bench-bounty/devchain";
import {
  concatHex,
  encodeAbiParameters,
  encodeEventTopics,
  slice,
  type AbiEvent,
  type Address,
  type Hex,
} from "viem";
import { afterAll, expect, it } from "vitest";
import { startIndexer, type RunningIndexer } from "../testing/startIndexer.js";
import { digestOf } from "./helpers/driver";
import { emitterCode } from "./helpers/emitter";

let dc: DevChain | undefined;
let ix: RunningIndexer | undefined;
afterAll(async () => {
  await ix?.stop();
  await dc?.stop();
});

it("an undecodable BountyCreated log: logged loudly, the indexer does not index past it", async () => {
  dc = await startDevChain();
  const address = dc.contracts.benchmarkBounty;
  const genuine = await dc.publicClient.getCode({ address });
  const item = benchmarkBountyAbi.find((x) => x.type === "event" && x.name === "BountyCreated") as AbiEvent;
  const author = "0x00000000000000000000000000000000000000a1" as Address;
  const topics = encodeEventTopics({
    abi: [item],
    eventName: "BountyCreated",
    args: { bountyId: 66n, author, token: author },
  } as never) as Hex[];
  const plain = item.inputs.filter((i) => !i.indexed);
  const data = encodeAbiParameters(plain, [author, digestOf("root66"), 5, 1000n, 10n, 20n, 0, [10000]]);
  await dc.publicClient.request({ method: "hardhat_setCode", params: [address, emitterCode(4)] } as never);
  const hash = await dc
    .wallet(0)
    .sendTransaction({ to: address, data: concatHex([...topics, slice(data, 0, 32)]), gas: 200_000n });
  const { blockNumber } = await dc.publicClient.waitForTransactionReceipt({ hash });
  await dc.publicClient.request({ method: "hardhat_setCode", params: [address, genuine] } as never);

  ix = await startIndexer({ chain: dc, wait: "none" });
  const deadline = Date.now() + 90_000;
  let indexed: number | null = null;
  while (Date.now() < deadline && !ix.output().includes("UNDECODABLE LOG NOT INDEXED")) {
    indexed = await ix.indexedBlock().catch(() => null);
    if (indexed !== null && indexed >= Number(blockNumber)) break; // went past it in silence
    await new Promise((r) => setTimeout(r, 250));
  }
  const out = ix.output();
  expect(out).toContain("[bench-bounty indexer] UNDECODABLE LOG NOT INDEXED: log 0 of the answer");
  expect(out).toMatch(
    new RegExp(`block ${blockNumber} tx ${hash} logIndex 0: BenchmarkBounty 0x[0-9a-fA-F]{40} BountyCreated`),
  );
  expect(indexed === null || indexed < Number(blockNumber)).toBe(true);
}, 240_000);
