/**
 * The indexer's head as Ponder's `GET /status` says it (`{ <chain name>: { id: <chain id>, block: {
 * number, timestamp } } }`, indexer/README.md): the one reading of that answer, for the verifier's
 * `indexer_agreement` (`indexer/head.ts`) and the deploy tasks' lag warning (`deploy/lib/indexer.ts`).
 * No dependency, no Node API (exported as `@bench-bounty/verifier/indexer-status`).
 * @packageDocumentation
 */

/** The route of Ponder's status answer. */
export const STATUS_ROUTE = "/status";

/** The entry of one chain in a `/status` answer. */
export interface StatusEntry {
  /** The entry's key (Ponder's chain name), for a JSON path `$.<name>.block.number`. */
  name: string;
  /** Its `block.number`: a whole number >= 0 (a bigint within the safe range counts), or null when it is not one. */
  block: number | null;
}

/**
 * The entry of chain `chainId` (its `id`, a number or a numeric string) in the parsed `/status`
 * answer `body`, or null when the answer is not an object or has no such entry.
 */
export function statusEntry(body: unknown, chainId: number): StatusEntry | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  for (const [name, entry] of Object.entries(body as Record<string, unknown>)) {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) continue;
    const e = entry as { id?: unknown; block?: unknown };
    if (Number(e.id) !== chainId) continue;
    const raw =
      typeof e.block === "object" && e.block !== null && !Array.isArray(e.block)
        ? (e.block as { number?: unknown }).number
        : null;
    const n = typeof raw === "bigint" ? Number(raw) : raw;
    return { name, block: typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? n : null };
  }
  return null;
}

/**
 * The block the indexer has indexed on chain `chainId`, as its parsed `/status` answer `body` says
 * ({@link statusEntry}); null when the answer has no entry of that chain or no whole block number in it.
 */
export function statusHead(body: unknown, chainId: number): number | null {
  return statusEntry(body, chainId)?.block ?? null;
}
