/**
 * Authentication: the key comes as `X-API-Key: <key>` or `Authorization: Bearer <key>`. No key: the
 * caller is anonymous (a route that needs a key is then refused by the domain with `unauthenticated`,
 * 401). A key nobody holds: 403 `forbidden` at once, naming the rule. Which principal may do what is
 * the domain's business; this only says who is calling.
 */
import { PlatformError } from "@bench-bounty/platform";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.js";
import { EdgeError } from "../errors.js";

/**
 * The `WWW-Authenticate` challenge of a 401 for want of a key or for a malformed `Authorization`
 * (RFC 6750: the key is a Bearer token).
 */
export const BEARER_CHALLENGE = 'Bearer realm="bench-bounty"';

/** The key of a request, or null; refuses two different keys and a malformed Authorization header. */
export function apiKeyOf(headers: { get(name: string): string | null | undefined }): string | null {
  const x = headers.get("x-api-key")?.trim() || null;
  const auth = headers.get("authorization")?.trim() || null;
  let bearer: string | null = null;
  if (auth !== null) {
    const m = /^Bearer\s+(\S+)$/i.exec(auth);
    if (!m)
      throw new EdgeError(
        "unauthenticated",
        "Authorization must be 'Bearer <api key>'",
        {
          rule: "bearer_scheme",
          header: "Authorization",
        },
        { "www-authenticate": BEARER_CHALLENGE },
      );
    bearer = m[1]!;
  }
  if (x !== null && bearer !== null && x !== bearer)
    throw new EdgeError("invalid_request", "X-API-Key and Authorization carry different keys: send one", {
      rule: "one_key",
    });
  return x ?? bearer;
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
    const principal = await c.var.domain.authenticate(key).catch((e: unknown) => {
      if (e instanceof PlatformError && e.code === "unauthenticated")
        throw new EdgeError("forbidden", e.message, { ...e.details, rule: "known_key" });
      throw e;
    });
    c.set("principal", principal);
    c.set("apiKey", key);
    return next();
  };
}
