/**
 * The indexer's check of the logs its RPC returns (probe39 B-F6). Ponder decodes each log of a watched
 * contract whose topic0 is one of the contract's events with the event's ABI item before any handler
 * runs, and a log that does not decode is dropped with a `debug` line only (Ponder 0.16
 * `runtime/events.ts`): a broken or lying RPC cutting the logs' data made every `BountyCreated` and
 * `Awarded` vanish without a word, while `/status` and `/health` said synced. There is no hook in Ponder
 * for such a log, so the check runs on the RPC's answers, in the transport Ponder reads the chain
 * through (`lib/rpcTransport.ts`): an `eth_getLogs` answer holding such a log is refused (logged loudly,
 * an error to Ponder, which retries the request and then stops with it): never indexed in part.
 */
import {
  BaseError,
  decodeEventLog,
  toEventSelector,
  type Abi,
  type AbiEvent,
  type Hex,
} from "viem";

/** A contract whose logs Ponder decodes: its name (as in ponder.config.ts), address and ABI. */
export interface WatchedContract {
  name: string;
  /** `0x` + 40 hex, any case. */
  address: string;
  abi: Abi;
}

/** An `eth_getLogs` answer held a log of a watched contract that does not decode with its event's ABI. */
export class UndecodableLogError extends Error {
  override readonly name = "UndecodableLogError";
}

/** The watched contracts by lowercase address, each with its events by lowercase topic0. */
type WatchIndex = Map<string, { name: string; events: Map<string, AbiEvent> }>;

function watchIndex(watched: readonly WatchedContract[]): WatchIndex {
  const index: WatchIndex = new Map();
  for (const c of watched) {
    const events = new Map<string, AbiEvent>();
    for (const item of c.abi)
      if (item.type === "event" && item.anonymous !== true) events.set(toEventSelector(item).toLowerCase(), item);
    index.set(c.address.toLowerCase(), { name: c.name, events });
  }
  return index;
}

/** A quantity of the answer (`0x` hex) in decimal, anything else as {@link shown}. */
function decimal(v: unknown): string {
  return typeof v === "string" && /^0x[0-9a-f]{1,64}$/i.test(v) ? BigInt(v).toString() : shown(v);
}

/** A value of the RPC's answer for a log line: a hash as is, anything else as JSON cut at 70 characters. */
function shown(v: unknown): string {
  if (typeof v === "string" && /^0x[0-9a-f]{64}$/i.test(v)) return v;
  const json = JSON.stringify(v) ?? String(v);
  return json.length > 70 ? `${json.slice(0, 70)}...` : json;
}

/**
 * A checker of `eth_getLogs` answers for `watched`: given the answer's `result`, the first log of a
 * watched address whose topic0 names one of its (non-anonymous) events but which viem's strict
 * `decodeEventLog` (what Ponder's decoder mirrors) cannot decode, described in one line ("log 3 of the
 * answer, block 7 tx 0x.. logIndex 2: BenchmarkBounty 0x.. BountyCreated (topic0 0x..) does not decode:
 * <why>"); null when there is none. Other logs, and a `result` that is not an array, are Ponder's to read.
 */
export function undecodableLogCheck(
  watched: readonly WatchedContract[],
): (result: unknown) => string | null {
  const index = watchIndex(watched);
  return (result) => {
    if (!Array.isArray(result)) return null;
    for (const [i, log] of result.entries()) {
      if (typeof log !== "object" || log === null) continue;
      const { address, topics, data, blockNumber, transactionHash, logIndex } = log as Record<string, unknown>;
      const contract = typeof address === "string" ? index.get(address.toLowerCase()) : undefined;
      if (contract === undefined || !Array.isArray(topics) || typeof topics[0] !== "string") continue;
      const event = contract.events.get(topics[0].toLowerCase());
      if (event === undefined) continue;
      try {
        decodeEventLog({ abi: [event], topics: topics as [Hex, ...Hex[]], data: data as Hex, strict: true });
      } catch (e) {
        const why = e instanceof BaseError ? e.shortMessage : e instanceof Error ? e.message : String(e);
        return (
          `log ${i} of the answer, block ${decimal(blockNumber)} tx ${shown(transactionHash)} logIndex ` +
          `${decimal(logIndex)}: ${contract.name} ${String(address)} ${event.name} (topic0 ${topics[0]}) ` +
          `does not decode: ${why}`
        );
      }
    }
    return null;
  };
}
