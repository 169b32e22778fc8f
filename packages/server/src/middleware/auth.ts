/**
 * Authentication: the key comes as `X-API-Key: <key>` or `Authorization: Bearer <key>` (another
 * `Authorization` scheme, a proxy's `Basic` login, is not ours and is left alone). No key: the
 * caller is anonymous (a route that needs a key is then refused by the domain with `unauthenticated`,
 * 401). A key nobody holds: 403 `forbidden` at once, naming the rule. Which principal may do what is
 * the domain's business; this only says who is calling.
 */
import { PlatformError, type Principal } from "@bench-bounty/platform";
import type { Context, MiddlewareHandler } from "hono";
import type { Domain } from "../domain.js";
import type { AppEnv } from "../env.js";
import { BEARER_CHALLENGE, EdgeError } from "../errors.js";

export { BEARER_CHALLENGE };

/**
 * The one key a header carries. A header sent twice reaches here joined (`k1, k2`, as HTTP joins a
 * repeated field; a key never holds a comma), and was judged one key "not a bench-bounty key" (probe31
 * A-F1): the copies are read apart, the same key repeated is that key, two different ones are refused
 * like two different headers' keys.
 * @param header the header's name as the error shows it (`X-API-Key`, `Authorization`)
 * @param keys the key of each copy, in order (at least one)
 * @throws EdgeError `invalid_request` (422), `details.rule: "one_key"`, `details.header`
 */
function oneKey(header: string, keys: readonly string[]): string {
  if (keys.some((k) => k !== keys[0]))
    throw new EdgeError(
      "invalid_request",
      `${header} is sent ${keys.length} times with different keys: send one key`,
      { rule: "one_key", header },
    );
  return keys[0]!;
}

/** The comma-separated copies of a (possibly repeated) header's value, trimmed, empty ones left out. */
function copiesOf(value: string | null | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");
}

/** What every bench-bounty API key begins with (`bbk_<prefix>_<secret>`). */
const KEY_MARK = "bbk_";

/**
 * The key of a request, or null: `X-API-Key: <key>` or `Authorization: Bearer <key>`; a header
 * repeated with the same key is that key. An `Authorization` of another scheme carrying no bench-bounty
 * key (`Basic`, `Digest`, ... of a proxy in front of the service: a browser that logged in to it sends
 * it with every same-origin read, probe35 A-N1) is not ours and is left alone: the caller is then
 * anonymous (or known by `X-API-Key`).
 * @throws EdgeError `unauthenticated` (401) `details.rule: "bearer_scheme"` for an `Authorization`
 * that carries a bench-bounty key (`bbk_`) or says `Bearer` but is not `Bearer <key>`;
 * `invalid_request` (422) `details.rule: "one_key"` for two different keys (in the two headers, or in
 * one header sent twice: `details.header` names it)
 */
export function apiKeyOf(headers: { get(name: string): string | null | undefined }): string | null {
  const xs = copiesOf(headers.get("x-api-key"));
  const x = xs.length > 0 ? oneKey("X-API-Key", xs) : null;
  const auths = copiesOf(headers.get("authorization"));
  const bearers = auths.flatMap((auth) => {
    const m = /^Bearer\s+(\S+)$/i.exec(auth);
    if (m) return [m[1]!];
    if (!/^Bearer\b/i.test(auth) && !auth.includes(KEY_MARK)) return [];
    throw new EdgeError(
      "unauthenticated",
      "Authorization must be 'Bearer <api key>'",
      {
        rule: "bearer_scheme",
        header: "Authorization",
      },
      { "www-authenticate": BEARER_CHALLENGE },
    );
  });
  const bearer = bearers.length > 0 ? oneKey("Authorization", bearers) : null;
  if (x !== null && bearer !== null && x !== bearer)
    throw new EdgeError("invalid_request", "X-API-Key and Authorization carry different keys: send one", {
      rule: "one_key",
    });
  return x ?? bearer;
}

/**
 * The principal of a key that was sent: the platform's `authenticate`.
 * @throws EdgeError `forbidden` (403), `details.rule: "known_key"`, with the platform's reason, for a key
 *   nobody holds or one revoked (`invalid API key: key <prefix> was revoked at <time>`)
 */
export async function principalOfKey(domain: Domain, key: string): Promise<Principal> {
  return domain.authenticate(key).catch((e: unknown) => {
    if (e instanceof PlatformError && e.code === "unauthenticated")
      throw new EdgeError("forbidden", e.message, { ...e.details, rule: "known_key" });
    throw e;
  });
}

/**
 * Checks again that the request's key (if it sent one) still works, when its request is about to act:
 * a key revoked since its request's headers arrived acts no more (probe39 A-F2: a slow body, or the
 * calls of an MCP batch after the one that revoked it, still acted as it). REST checks it once the body
 * is read, before the handler; MCP before each `tools/call` of a batch. The keyed writes check it
 * again in their own transaction (the platform's `assertKeyActive`), where a revocation cannot come
 * between the check and the write.
 * @throws EdgeError `forbidden` (403), `details.rule: "known_key"` ({@link principalOfKey})
 */
export async function assertKeyStillWorks(c: Context<AppEnv>): Promise<void> {
  const key = c.var.apiKey;
  if (key !== null && key !== undefined) await principalOfKey(c.var.domain, key);
}

/** Sets `principal` and `apiKey` on the context. */
export function authenticate(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = apiKeyOf(c.req.raw.headers);
    if (key === null) {
      c.set("principal", null);
      c.set("apiKey", null);
      return next();
    }
    // A key was sent but nobody holds it (or it was revoked): 403, with the platform's reason.
    const principal = await principalOfKey(c.var.domain, key);
    c.set("principal", principal);
    c.set("apiKey", key);
    return next();
  };
}
