/**
 * What of a secret-bearing URL may be printed or served: the one place. A hosted RPC or indexer
 * provider carries the operator's API key in the URL's userinfo, path or query, so only the origin of
 * the operator's `--rpc-url` and `--indexer-url` ever leaves the process (the `serve` banner, the
 * verification report, error messages: {@link publicOrigin}), and the web pages are told the indexer
 * URL only when it IS an origin ({@link bareOrigin}) or was given as public ({@link publicUrl}); a
 * database URL's password and secret parameters are masked ({@link redactUrl}).
 */
import { urlOrigin } from "@bench-bounty/verifier/url";

/**
 * What names a secret: pass(word), secret, token, key, auth, sig(nature), jwt, pw, cred(ential) or
 * session, anywhere in a query parameter's name or value (any case; probe9 Q1: `auth=`, `sig=`,
 * `jwt=`, `pw=` were served). Masking a harmless parameter costs nothing; serving a secret one is a leak.
 */
const SECRET_PARAM = /pass|secret|token|key|auth|sig|jwt|pw|cred|session/i;

/** `v` percent-decoded, or as it is when it is not valid percent-encoding. */
function decodeURIComponentSafe(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch (e) {
    if (!(e instanceof URIError)) throw e;
    return v;
  }
}

/** True when a query parameter `name=value` carries a secret (its name names one, or its value does). */
function secretParam(name: string, value: string): boolean {
  return SECRET_PARAM.test(name) || SECRET_PARAM.test(value);
}

/**
 * A connection string with its secrets replaced by `***` (for messages and logs): the userinfo
 * password, and every query parameter whose name or value names a secret ({@link SECRET_PARAM}:
 * libpq reads `?password=`, `?sslpassword=`, `?options=-c password=...`; an RPC or proxy URL may
 * carry `?api_key=`). A string `new URL` refuses (libpq's multi-host
 * `postgresql://u:p@h1:5432,h2:5433/db`, a port over 65535) is masked the same way by hand: the
 * password taken to run from the first `:` after `//` to the LAST `@` (an unencoded `@` in the
 * password: everything up to the host is masked, never a tail of it), a parameter's value up to the
 * next `&`, `;` or `#` (spaces included: `options=-c password=x`).
 */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    for (const [k, v] of [...u.searchParams.entries()]) // `?options=-c password=...` too: the value names one
      if (secretParam(k, v)) u.searchParams.set(k, "***");
    return u.toString();
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    let out = url;
    const slashes = url.indexOf("//");
    const at = url.lastIndexOf("@");
    if (slashes >= 0 && at > slashes) {
      const userinfo = url.slice(slashes + 2, at);
      const colon = userinfo.indexOf(":");
      if (colon >= 0) out = `${url.slice(0, slashes + 2)}${userinfo.slice(0, colon)}:***${url.slice(at)}`;
    }
    return out.replace(/([?&;]\s*)([^=&;?#\s]+)=([^&;#]*)/g, (m, sep: string, k: string, v: string) =>
      secretParam(k, decodeURIComponentSafe(v)) ? `${sep}${k}=***` : m,
    );
  }
}

/**
 * What of a URL the operator gave as public (`serve --public-indexer-url`, served in `config.json`
 * for the web pages): its origin and path, and its query without any secret parameter
 * (as {@link redactUrl} names them); no userinfo, no fragment, no trailing `/`. A browser could not
 * use the credentials anyway (fetch refuses a URL that carries them).
 * @returns the public form, or `"(not a URL)"` for a string that is not an absolute http(s)-like URL
 */
export function publicUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return "(not a URL)";
  }
  if (u.origin === "null") return "(not a URL)";
  for (const [k, v] of [...u.searchParams.entries()]) if (secretParam(k, v)) u.searchParams.delete(k);
  return `${u.origin}${u.pathname.replace(/\/+$/, "")}${u.search}`;
}

/**
 * What {@link publicUrl} leaves out of `url`, in words for a banner (`userinfo`, `parameters key, token`,
 * `the fragment`): the parts' names only, never their values. Empty when nothing is left out (or
 * `url` is not a URL).
 */
export function publicUrlRemoved(url: string): string[] {
  let u: URL;
  try {
    u = new URL(url);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return [];
  }
  const out: string[] = [];
  if (u.username !== "" || u.password !== "") out.push("userinfo");
  const names = [
    ...new Set([...u.searchParams.entries()].filter(([k, v]) => secretParam(k, v)).map(([k]) => k)),
  ];
  if (names.length > 0) out.push(`${names.length === 1 ? "parameter" : "parameters"} ${names.join(", ")}`);
  if (u.hash !== "" || url.endsWith("#")) out.push("the fragment");
  return out;
}

/**
 * What a public base URL (`--public-url`, the address `how_to_compete` and receipt URLs are built
 * on) may not carry, in words naming the part and never its value: an http(s) origin with an optional
 * path is all it may be. Userinfo, a query or a fragment would be served whole to anyone, and the API
 * path appended after them makes a URL that does not work (probe11 O10).
 * It must also be exactly the canonical text of its parsed form (no surrounding spaces, lower-case
 * scheme and host, no dot segments: a trailing `/` may be left off) with a path of the shell-safe
 * characters `A-Za-z0-9._~/%-`, because it is pasted as given into the shell commands agents are
 * told to run (probe12 P5: `$(...)`, `"><` were served verbatim).
 * @returns `"not an http(s) URL"`, `"userinfo"`, `"a query"`, `"a fragment"`, or the words naming a
 *   non-canonical form or unsafe path characters (the first found), or `undefined` when the URL is a
 *   usable base
 */
export function publicBaseUrlFault(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return "not an http(s) URL";
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return "not an http(s) URL";
  if (u.username !== "" || u.password !== "" || /^[a-z]+:\/\/[^/?#]*@/i.test(url)) return "userinfo";
  const hash = url.indexOf("#"); // an empty `?` or `#` too: the API path would follow it
  const query = url.indexOf("?");
  if (u.search !== "" || (query >= 0 && (hash < 0 || query < hash))) return "a query";
  if (u.hash !== "" || hash >= 0) return "a fragment";
  // It is pasted into the shell commands of `how_to_compete` as given (probe12 P5): only its
  // canonical text, with a path of shell-safe characters, can be.
  if (url.trim() !== url) return "leading or trailing spaces";
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "");
  if (/[^A-Za-z0-9._~/%-]/.test(path)) return "characters in its path outside A-Za-z0-9._~/%-";
  if (url !== u.href && `${url}/` !== u.href)
    return "a form other than its canonical text (upper case in the scheme or host, a default port, dot segments or encoding): give it as the URL parser writes it";
  return undefined;
}

/**
 * What of an operator's RPC or indexer URL may be shown to anyone: its scheme, host and port
 * (`https://base-mainnet.example.com`); never its userinfo, path, query or fragment, where a hosted
 * provider puts its key (`/v2/<key>`, probe9 Q1).
 * @returns the origin, or `"(not a URL)"` for a string that is not one
 */
export const publicOrigin: (url: string) => string = urlOrigin;

/** `url` parsed, or undefined when it is not a URL (`new URL` throws TypeError). */
function parsedUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return undefined;
  }
}

/**
 * The origin of `url` when the URL is nothing more (path `/` or none, no query, no fragment; userinfo
 * is dropped: a browser cannot send it anyway), else `undefined`: a path or query may hold a key
 * (`/v1/<key>`, `?sig=`) that no rule can tell from a harmless one, so such a URL is never served as
 * it stands (probe9 Q1). The indexer URL the web pages are told by default (`serve --indexer-url`).
 */
export function bareOrigin(url: string): string | undefined {
  const u = parsedUrl(url);
  if (u === undefined) return undefined;
  if (u.origin === "null" || u.pathname !== "/" || u.search !== "" || u.hash !== "") return undefined;
  return u.origin;
}

/**
 * Replaces every occurrence of the secret-bearing URL `url` in `text` (as given, without its trailing
 * `/`, JSON-escaped, or as `new URL` normalises it: viem and fetch print that form) with `shown`
 * (followed by `/` where the form ended in one: the rest of the text stays as it was).
 */
export function redactSecretUrl(text: string, url: string | undefined, shown: string): string {
  if (!url) return text;
  const forms = [url, url.replace(/\/+$/, ""), JSON.stringify(url).slice(1, -1)];
  try {
    forms.push(new URL(url).href);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
  }
  let out = text;
  for (const f of new Set(forms.sort((a, b) => b.length - a.length))) {
    // a form ending in `/` keeps its `/`: `http://h:1/` in `http://h:1/bounties/7` is not the end of the URL
    const to = f.endsWith("/") && !shown.endsWith("/") ? `${shown}/` : shown;
    if (f !== "" && f !== to) out = out.split(f).join(to);
  }
  return out;
}

/** The shortest part of a URL (a path segment, a query value, the userinfo) {@link redactUrlParts} masks. */
export const MIN_SECRET_PART_CHARS = 6;

/**
 * `text` (a remote's own answer, e.g. an RPC provider's JSON-RPC error message, which may echo the request's
 * path: "rate limit for key /v2/<key>", probe31 A-F2) with the secret-bearing parts of `url` masked as `***`:
 * the URL itself ({@link redactSecretUrl}), its path with its query, its path, its query, and every path
 * segment, query value and userinfo part of at least {@link MIN_SECRET_PART_CHARS} characters, as given and
 * percent-decoded (a key alone, without its path). Short parts (`v2`, `rpc`) stay: no key is that short.
 */
export function redactUrlParts(text: string, url: string | undefined, shown = "***"): string {
  if (!url) return text;
  let out = redactSecretUrl(text, url, shown);
  const u = parsedUrl(url);
  if (u === undefined) return out;
  const parts = [
    `${u.pathname}${u.search}`,
    u.pathname === "/" ? "" : u.pathname,
    u.search,
    ...u.pathname.split("/"),
    ...[...u.searchParams.values()],
    u.username,
    u.password,
  ];
  const forms = parts.flatMap((p) => [p, decodeURIComponentSafe(p)]);
  for (const f of new Set(forms.sort((a, b) => b.length - a.length)))
    if (f.length >= MIN_SECRET_PART_CHARS) out = out.split(f).join(shown);
  return out;
}

/**
 * Replaces every occurrence of the operator's RPC (or indexer) URL in `text` with its
 * {@link publicOrigin} (a report's `observed.rpc`, a fact's reasons, an error message).
 */
export function redactRpc(text: string, rpcUrl: string | undefined): string {
  return rpcUrl ? redactSecretUrl(text, rpcUrl, publicOrigin(rpcUrl)) : text;
}
