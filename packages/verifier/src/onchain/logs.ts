/**
 * The strict reading of an event log (probe35 B-F6): viem's `decodeEventLog` tolerates data that is not
 * whole 32-byte words and topics beyond the event's, which a chain never emits; the independent check
 * (`demo/independent/check_pack.py`) refuses both, and so does the verifier: such a log is not the event.
 * @packageDocumentation
 */
import { BaseError, decodeEventLog, type Abi, type Hex } from "viem";

/**
 * `log` decoded with `abi` as `{eventName, args}` when it is exactly one of its events: topic 0 names the
 * event, there is one topic per indexed input and no more, and the data is whole 32-byte words that decode
 * as the other inputs; null when it is not (never throws for a log of the wrong shape).
 */
export function exactEventLog(
  abi: Abi,
  log: { data: Hex; topics: readonly Hex[] },
): { eventName: string; args: Record<string, unknown> } | null {
  if ((log.data.length - 2) % 64 !== 0) return null;
  let ev: { eventName: string; args: Record<string, unknown> };
  try {
    ev = decodeEventLog({ abi, data: log.data, topics: log.topics as [Hex, ...Hex[]] }) as never;
  } catch (e) {
    // a log viem cannot decode with the ABI is not one of its events
    if (!(e instanceof BaseError)) throw e;
    return null;
  }
  const event = abi.find((x) => x.type === "event" && x.name === ev.eventName);
  const indexed = event?.type === "event" ? event.inputs.filter((i) => i.indexed === true).length : -1;
  return log.topics.length === indexed + 1 ? ev : null;
}
