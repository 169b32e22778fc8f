/**
 * A key acts only while it works (probe39 A-F2): {@link authenticate} checks a key when a request
 * arrives, and every keyed write checks it again inside the transaction that writes
 * ({@link assertKeyActive}), so a key revoked while its request was still arriving (a slow body) or
 * running (an MCP batch) writes nothing after its revocation. The one wording of a refused key lives
 * here ({@link invalidKeyMessage}): authentication and the write check say it alike.
 */
import { PlatformError } from "../errors.js";
import type { Tables } from "../store.js";
import type { Principal } from "./principal.js";

/** Why a key is refused (`invalid API key: <why>`): no key has its prefix, or its secret is not that key's. */
export const UNKNOWN_KEY = "unknown key";

/** Why a revoked key is refused: `key <prefix> was revoked at <ISO time>`. */
export function revokedKeyReason(prefix: string, revokedAt: string): string {
  return `key ${prefix} was revoked at ${revokedAt}`;
}

/** The message of a refused key: `invalid API key: <why>`. */
export function invalidKeyMessage(why: string): string {
  return `invalid API key: ${why}`;
}

/**
 * Refuses a write of a principal whose key no longer works: revoked, deleted (an old revoked key), or
 * not of the principal's account. Call it first inside the transaction of every write a key makes: on
 * PostgreSQL the key's row is read `FOR SHARE` (`AccountsTable.keyStateForWrite`), so a revocation waits
 * for the write and the write commits before it, never after. A principal not of an account key (the
 * operator key, the local CLI) passes.
 * @throws PlatformError `forbidden`, `details.rule: "known_key"`, the message authentication gives
 *   (`invalid API key: key <prefix> was revoked at <time>`; `invalid API key: unknown key`)
 */
export async function assertKeyActive(t: Tables, p: Principal): Promise<void> {
  if (p.via !== "key" || p.key_prefix === null) return;
  const row = await t.accounts.keyStateForWrite(p.key_prefix);
  const why =
    row === null || row.account_id !== p.account_id
      ? UNKNOWN_KEY
      : row.revoked_at !== null
        ? revokedKeyReason(p.key_prefix, row.revoked_at)
        : null;
  if (why !== null) throw new PlatformError("forbidden", invalidKeyMessage(why), { rule: "known_key" });
}
