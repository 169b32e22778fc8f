/**
 * How a route is joined to an indexer's (or any API's) base URL, and what of such a URL is printed:
 * the one rule for the verifier, the server's verification worker and the web pages (no dependency:
 * browser-safe, exported as `@bench-bounty/verifier/url`).
 * @packageDocumentation
 */

/** A request built by {@link joinRoute}: the URL to fetch and the headers it needs. */
export interface JoinedRequest {
  /** The base's origin and path, then the route's path, then the base's query and the route's. */
  readonly url: string;
  /** `authorization: Basic ...` when the base carried userinfo (fetch refuses a URL with credentials). */
  readonly headers: Record<string, string>;
}

/** `s` as UTF-8 in base64 (browser and Node alike). */
function base64Utf8(s: string): string {
  let bin = "";
  for (const b of new TextEncoder().encode(s)) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** `v` percent-decoded, or as it is when it is not valid percent-encoding. */
function decodeSafe(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch (e) {
    if (!(e instanceof URIError)) throw e;
    return v;
  }
}

/**
 * Joins `route` (`/bounties/3`, optionally with its own `?query`) to `base` with the URL API: the
 * route's path goes after the base's path (its trailing `/` dropped), the base's query is kept (a
 * provider's `?token=`) and the route's parameters are appended to it, the fragment is dropped, and
 * userinfo (`http://user:pw@host/`) is moved into an `Authorization: Basic` header (fetch refuses a
 * URL that carries credentials). probe10 R3: `${base}${route}` put the route after the query.
 * @throws TypeError when `base` is not an absolute URL
 */
export function joinRoute(base: string, route: string): JoinedRequest {
  const u = new URL(base);
  const headers: Record<string, string> = {};
  if (u.username !== "" || u.password !== "")
    headers.authorization = `Basic ${base64Utf8(`${decodeSafe(u.username)}:${decodeSafe(u.password)}`)}`;
  u.username = "";
  u.password = "";
  u.hash = "";
  const q = route.indexOf("?");
  const path = q < 0 ? route : route.slice(0, q);
  u.pathname = `${u.pathname.replace(/\/+$/, "")}${path.startsWith("/") ? path : `/${path}`}`;
  if (q >= 0) for (const [k, v] of new URLSearchParams(route.slice(q + 1))) u.searchParams.append(k, v);
  return { url: u.href, headers };
}

/**
 * `url` without its userinfo, and the userinfo as an `Authorization: Basic` header (fetch refuses a URL
 * that carries credentials; the same rule as {@link joinRoute} and the indexer's transport). The path,
 * query and fragment are kept as given. A `url` without userinfo, or one that is not a URL, is returned
 * as it is with no header.
 */
export function credentialsToHeader(url: string): JoinedRequest {
  let u: URL;
  try {
    u = new URL(url);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return { url, headers: {} };
  }
  if (u.username === "" && u.password === "") return { url, headers: {} };
  const headers = {
    authorization: `Basic ${base64Utf8(`${decodeSafe(u.username)}:${decodeSafe(u.password)}`)}`,
  };
  u.username = "";
  u.password = "";
  return { url: u.href, headers };
}

/**
 * What of an RPC or indexer URL the verifier prints (errors, targets): its scheme, host and port; never
 * its userinfo, path, query or fragment, where a hosted provider puts its key (the same rule as the
 * platform's `publicOrigin`).
 * @returns the origin, or `"(not a URL)"`
 */
export function urlOrigin(url: string): string {
  try {
    const origin = new URL(url).origin;
    return origin === "null" ? "(not a URL)" : origin;
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return "(not a URL)";
  }
}

/**
 * Whether the indexer's HTTP status is a refusal that retrying cannot change: any 4xx but 404 (no such
 * bounty: an answer) and 429 (busy: retried). This project's indexer answers 400 `invalid_parameter` to
 * any query on its routes, so an indexer URL with a query (`?token=`) never verifies (probe11 O9).
 */
export function isIndexerRefusal(status: number): boolean {
  return status >= 400 && status < 500 && status !== 404 && status !== 429;
}

/**
 * Whether a 404 of the indexer is an answer (no such bounty or anchor): the indexer's JSON
 * `{ error: { code: "not_found", details: { bounty_id } | { digest } } }`, echoing what was asked. Any
 * other 404 (`no_route`, a proxy's page, another API's `not_found`, such as this project's platform
 * server's) means the base URL is not the indexer's API (probe13 C6).
 */
export function isIndexerNotFound(body: unknown): boolean {
  const error = typeof body === "object" && body !== null ? (body as { error?: unknown }).error : undefined;
  if (typeof error !== "object" || error === null) return false;
  const { code, details } = error as { code?: unknown; details?: unknown };
  if (code !== "not_found" || typeof details !== "object" || details === null) return false;
  const d = details as { bounty_id?: unknown; digest?: unknown };
  return typeof d.bounty_id === "string" || typeof d.digest === "string";
}

/**
 * A 404 that is not the indexer's `not_found` in words for an operator: the origin and the route,
 * never the URL's path or query.
 */
export function indexerNoRouteMessage(base: string, route: string): string {
  return (
    `the indexer ${urlOrigin(base)} has no route GET ${route} (http 404, not the indexer's not_found): ` +
    `a configuration error, not retried: the URL is not the indexer's API (check its path: give the ` +
    `URL the indexer is served at, e.g. http://127.0.0.1:42069)`
  );
}

/** An identifier-like name from an answer (an error code, a parameter name), else undefined: nothing else is printed. */
function shownName(v: unknown): string | undefined {
  return typeof v === "string" && /^[A-Za-z0-9_.-]{1,64}$/.test(v) ? v : undefined;
}

/**
 * The error code and parameter name an indexer's refusal `{ error: { code, parameter } }` names, each only
 * when it is an identifier-like name (else undefined: nothing else of the answer is ever printed or used).
 */
export function indexerRefusalNames(body: unknown): { code?: string; parameter?: string } {
  const error = typeof body === "object" && body !== null ? (body as { error?: unknown }).error : undefined;
  const e = typeof error === "object" && error !== null ? (error as Record<string, unknown>) : {};
  return { code: shownName(e.code), parameter: shownName(e.parameter) };
}

/**
 * The indexer's refusal in words for an operator: the origin, the route, the status and, from the
 * answer `{ error: { code, parameter } }`, the code and the parameter's NAME (never a value, never
 * the URL's path or query).
 */
export function indexerRefusalMessage(base: string, route: string, status: number, body: unknown): string {
  const { code, parameter } = indexerRefusalNames(body);
  const what = `${code ? ` ${code}` : ""}${parameter ? ` (parameter ${parameter})` : ""}`;
  return (
    `the indexer ${urlOrigin(base)} refuses GET ${route}: http ${status}${what}; a configuration error, ` +
    `not retried: check the indexer URL (this project's indexer answers no query: give the URL without ` +
    `its query, a key in its userinfo or path)`
  );
}
