/**
 * Deployment settings of the static app, read once from `config.json` beside `index.html` (the
 * server's web sub-app writes it; a static deploy edits it by hand). Every key is optional:
 *
 * - `apiBaseUrl`: origin of the bench-bounty API (`""` or absent: this page's own origin);
 * - `indexerUrl`: the indexer's REST root, for claim state and outstanding credit (absent: the
 *   award page says the claims were not observed);
 * - `localChain`: true on a local devchain (chain id 8453 as well, so this flag, or the API's
 *   `chain.local`, is what turns explorer links off), false on Base / Base Sepolia;
 * - `rpcUrl`: a chain RPC to print in the verify command;
 * - `minTasks`: a leaderboard row over fewer tasks is marked provisional (default 30).
 *
 * @packageDocumentation
 */

/** The resolved settings. */
export interface AppConfig {
  apiBaseUrl: string;
  indexerUrl: string | null;
  localChain: boolean | null;
  rpcUrl: string | null;
  minTasks: number;
}

/** Default minimum number of tasks below which a row is provisional. */
export const DEFAULT_MIN_TASKS = 30;

function stringOrNull(v: unknown): string | null {
  return typeof v === "string" && v.trim() !== "" ? v.trim().replace(/\/+$/, "") : null;
}

/** Reads `config.json` (a missing file gives the defaults; a malformed one is an error naming the key). */
export function parseConfig(raw: unknown, pageOrigin: string): AppConfig {
  const o = (raw ?? {}) as Record<string, unknown>;
  if (typeof o !== "object" || Array.isArray(o)) throw new Error("config.json: expected an object");
  const minTasks = o.minTasks ?? DEFAULT_MIN_TASKS;
  if (typeof minTasks !== "number" || !Number.isInteger(minTasks) || minTasks < 1) {
    throw new Error(`config.json: $.minTasks must be a positive integer, got ${JSON.stringify(minTasks)}`);
  }
  if (o.localChain !== undefined && o.localChain !== null && typeof o.localChain !== "boolean") {
    throw new Error(`config.json: $.localChain must be true, false or null`);
  }
  return {
    apiBaseUrl: stringOrNull(o.apiBaseUrl) ?? pageOrigin,
    indexerUrl: stringOrNull(o.indexerUrl),
    localChain: (o.localChain as boolean | null | undefined) ?? null,
    rpcUrl: stringOrNull(o.rpcUrl),
    minTasks,
  };
}

/**
 * The configuration inlined in the page by the server (`<script id="bb-config">`), else
 * `config.json` fetched relative to the page (a static deploy).
 */
export async function loadConfig(): Promise<AppConfig> {
  const inline = document.getElementById("bb-config");
  if (inline?.textContent) {
    let raw: unknown;
    try {
      raw = JSON.parse(inline.textContent);
    } catch (e) {
      throw new Error(`the inlined configuration is not JSON: ${(e as Error).message}`, { cause: e });
    }
    return parseConfig(raw, location.origin);
  }
  const res = await fetch(new URL("config.json", document.baseURI));
  if (res.status === 404) return parseConfig({}, location.origin);
  if (!res.ok) throw new Error(`config.json: http ${res.status}`);
  return parseConfig(await res.json(), location.origin);
}
