/**
 * What of a secret-bearing URL may be printed or served: the one place. A hosted RPC provider carries
 * the operator's API key in the URL's path or query, so only its origin ever leaves the process (the
 * `serve` banner, the verification report, error messages); a database URL's password is masked by
 * `redactUrl` (`store/engine.ts`).
 */

/**
 * What of an RPC URL may be shown to anyone: its scheme and host (`https://base-mainnet.example.com`).
 * @returns the origin, or `"(not a URL)"` for a string that is not one
 */
export function publicRpcOrigin(rpcUrl: string): string {
  try {
    const origin = new URL(rpcUrl).origin;
    // `new URL("foo:bar").origin` is "null": nothing of it is shown either
    return origin === "null" ? "(not a URL)" : origin;
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return "(not a URL)";
  }
}

/**
 * Replaces every occurrence of the operator's RPC URL in `text` with its {@link publicRpcOrigin}
 * (a report's `observed.rpc`, a fact's reasons, an error message).
 */
export function redactRpc(text: string, rpcUrl: string | undefined): string {
  if (!rpcUrl) return text;
  const origin = publicRpcOrigin(rpcUrl);
  const forms = [rpcUrl, rpcUrl.replace(/\/+$/, ""), JSON.stringify(rpcUrl).slice(1, -1)];
  try {
    forms.push(new URL(rpcUrl).href); // viem and fetch print the normalised form
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
  }
  let out = text;
  for (const f of new Set(forms.sort((a, b) => b.length - a.length)))
    if (f !== origin && f.length > origin.length) out = out.split(f).join(origin);
  return out;
}
