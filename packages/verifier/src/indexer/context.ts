/**
 * The indexer cross-check's shared context: the pack, what the off-chain walk
 * derived, what the chain said (when read), and one bounded GET of the indexer's
 * REST API (`indexer/src/api/index.ts`).
 * @packageDocumentation
 */
import { VerifierInputError, VerifierNetworkError, describeError } from "../errors.js";
import type { Fact } from "../facts.js";
import type { OfflineDerived } from "../offline/index.js";
import type { ChainObservation } from "../onchain/index.js";
import type { ClaimCheck } from "./claims.js";
import type { PackView } from "../pack.js";
import type { ProgressCallback } from "../progress.js";
import { AnswerTooLargeError, fetchWithin, readBodyWithin } from "../source.js";
import { printable, shownValue } from "../text.js";
import {
  indexerNoRouteMessage,
  indexerRefusalMessage,
  indexerRefusalNames,
  isIndexerNotFound,
  isIndexerRefusal,
  joinRoute,
  urlOrigin,
} from "../url.js";

/**
 * The indexer refused a request (a 4xx other than 404 and 429, {@link isIndexerRefusal}): a
 * {@link VerifierInputError} `indexer_refused` at `--indexer` (exit 2), with the status and the name of the
 * parameter the indexer's `{ error: { parameter } }` named (only a short identifier is kept, else undefined),
 * so a step can tell an indexer that does not know a parameter from a bad URL.
 */
export class IndexerRefusedError extends VerifierInputError {
  /** The HTTP status of the refusal (400 for the indexer's `invalid_parameter`). */
  readonly status: number;
  /** The parameter the refusal named (`bounty`, `token`), when it named one as a short identifier. */
  readonly parameter: string | undefined;

  constructor(base: string, route: string, status: number, body: unknown) {
    super("indexer_refused", "--indexer", indexerRefusalMessage(base, route, status, body));
    this.status = status;
    this.parameter = indexerRefusalNames(body).parameter;
  }
}

/**
 * The reason for a refusal of a value the verifier took from the pack (a path parameter: the bounty id of
 * `/bounties/:id`, a winner's address of `/awards?winner=` and `/accounts/:address/credits`): when `e` is the
 * indexer's 400 naming `parameter`, it is the pack's value at `packPath` the indexer refuses, not the
 * `--indexer` URL (probe29 C-F3: `GET /bounties/0` was reported as "check the indexer URL"). Null otherwise.
 */
export function packValueRefused(
  e: unknown,
  route: string,
  parameter: string,
  packPath: string,
): string | null {
  if (!(e instanceof IndexerRefusedError) || e.status !== 400 || e.parameter !== parameter) return null;
  return `GET ${route}: the indexer refuses ${packPath} as its parameter ${parameter} (http 400 invalid_parameter): not compared`;
}

/** The configuration error of a base URL that is not the indexer's API (a 404 other than `not_found`). */
function noRoute(base: string, route: string): VerifierInputError {
  return new VerifierInputError("indexer_refused", "--indexer", indexerNoRouteMessage(base, route));
}

/**
 * The configuration error of a 200 answer that is not the indexer's shape (another server at the URL:
 * a JSON-RPC node answers any GET, probe13 C6): exit 2, naming the origin, the route and what it lacks.
 */
export function notTheIndexer(base: string, route: string, why: string): VerifierInputError {
  return new VerifierInputError(
    "indexer_refused",
    "--indexer",
    `the answer of ${urlOrigin(base)} to GET ${route} is not the indexer's (${why}): a configuration error, not retried: check the indexer URL`,
  );
}

/** A JSON answer of the indexer. */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** One answer of the indexer: its status (200 or 404), its JSON body and its size (bytes read). */
export interface IndexerAnswer {
  status: number;
  body: Json;
  bytes: number;
}

/** What a {@link VerifierNetworkError} of the indexer at `base` names: its origin only (probe10 R2). */
export function indexerTarget(base: string): string {
  return `indexer ${urlOrigin(base)}`;
}

/** The shared context of the indexer cross-check. */
export interface IndexerWalk {
  readonly view: PackView;
  readonly derived: OfflineDerived;
  /** What the chain said, or null without `--rpc`. */
  readonly chain: ChainObservation | null;
  readonly onProgress: ProgressCallback | undefined;
  /** What a {@link VerifierNetworkError} of the indexer names (`indexer http://origin`: the origin only). */
  readonly target: string;
  /** GET a route; 200 and 404 are answers (with their size, bytes), anything else a {@link VerifierNetworkError}. */
  get(route: string): Promise<IndexerAnswer>;
  /** The configuration error of an answer that is not the indexer's (`why`: what it lacks). */
  notTheIndexer(route: string, why: string): VerifierInputError;
  /** The chain's credits and the indexer's head, for the claims its records state (claims.ts). */
  readonly claims: ClaimCheck;
}

/**
 * A step of the cross-check: the disagreements it found (one reason each, naming the
 * route and field), or a decided fact that ends the check (the indexer has no such bounty).
 */
export type IndexerStep = (walk: IndexerWalk, found: Disagreements) => Promise<Fact | void>;

/** Longest value (the indexer's, or the pack's) quoted in a disagreement, characters after {@link printable}. */
const MAX_QUOTED_VALUE_CHARS = 200;

/** Longest disagreement reason, characters. */
const MAX_REASON_CHARS = 1000;

/**
 * The disagreements found so far, one reason each (`GET /bounties/3: bounty.pool is ..., the pack says ...`),
 * and the parts of the check the indexer could not answer ({@link Disagreements.unobservable}: the fact is
 * then `unverified`, not a walk that stops, probe27 C-F8).
 * The values are the indexer's and the pack's text: each is shown through {@link shownValue} (bare when plain,
 * else as a JSON string, probe29 B-F5; no control character reaches a terminal, probe D2-F9), and every
 * reason through {@link printable}.
 */
export class Disagreements {
  readonly reasons: string[] = [];
  /** Why a part of the check could not be observed (one reason each, naming the route). */
  readonly unobserved: string[] = [];
  /** Why values of the pack keyed no read (one reason each, naming the JSON path): {@link Disagreements.unkeyed}. */
  readonly unkeyedValues: string[] = [];

  /** Record that `route`'s `field` is `got` where `want` was expected. */
  cmp(
    route: string,
    field: string,
    got: string | null,
    want: string | null,
    wantWhat = "the pack says",
  ): void {
    if (got === want) return;
    // a value that is not plain is JSON-quoted (probe29 B-F5: " 1796556841" read as 1796556841)
    const shown = (v: string | null): string => (v === null ? "null" : shownValue(v, MAX_QUOTED_VALUE_CHARS));
    this.push(`GET ${route}: ${field} is ${shown(got)}, ${wantWhat} ${shown(want)}`);
  }

  /** Record a disagreement in words. */
  push(reason: string): void {
    this.reasons.push(printable(reason, MAX_REASON_CHARS));
  }

  /**
   * Record a part of the check the indexer could not answer (not a disagreement): `indexer_agreement` is
   * then `unverified` with this reason, unless something disagrees (then `failed`, this reason listed too).
   */
  unobservable(reason: string): void {
    this.unobserved.push(printable(reason, MAX_REASON_CHARS));
  }

  /**
   * Record that the pack's `value` at `path` is not `what` (an address, a bytes32), so the read it would key
   * (`read`: a route, a `creditOf` call) was not made: a pack's value reaches an indexer URL or an RPC call
   * only in the form the route or the call takes (probe36 B-F3: `withdrawal_address` `"0x"` was sent to
   * `creditOf` and blamed the RPC, exit 3; `receipt_hash` `"0"` and `commit_root` `""` built `GET
   * /anchors/0` and `GET /anchors/`, and blamed the `--indexer` URL, exit 2; offline and with `--rpc` alone
   * such a pack exits 1). `indexer_agreement` then fails naming the path, whatever the indexer's head: the
   * value is the pack's, not what the indexer has yet to read.
   */
  unkeyed(path: string, value: string, what: string, read: string): void {
    this.unkeyedValues.push(
      printable(
        `${path} ${shownValue(value, MAX_QUOTED_VALUE_CHARS)} is not ${what}: ${read} not read`,
        MAX_REASON_CHARS,
      ),
    );
  }
}

/** What an address of the pack must be to key a read (`addr` of `../onchain/context.ts`). */
export const AN_ADDRESS = "an address (0x and 40 hex digits)";

/** What a digest of the pack must be to key a read (`bytes32` of `../onchain/context.ts`). */
export const A_BYTES32 = "a bytes32 (0x and 64 hex digits)";

/** Read a field of an indexer answer as a lowercase string (numbers and bigints are decimal strings there). */
export function s(v: Json | undefined): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "string") return v.toLowerCase();
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v);
}

/** A non-negative integer field of an answer as a decimal string (a JSON number or a decimal string), else null. */
export function uint(v: Json | undefined): string | null {
  if (typeof v === "number") return Number.isSafeInteger(v) && v >= 0 ? String(v) : null;
  if (typeof v === "string" && /^(0|[1-9][0-9]*)$/.test(v)) return v;
  return null;
}

/** A field of an answer as a disagreement shows it (`null`, a plain value bare, else JSON-quoted, {@link shownValue}). */
export function shownField(v: Json | undefined): string {
  const text = s(v);
  return text === null ? "null" : shownValue(text, MAX_QUOTED_VALUE_CHARS);
}

/** An object field of an answer (`{}` when it is not one). */
export function obj(v: Json | undefined): Record<string, Json> {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? v : {};
}

/** An array field of an answer (`[]` when it is not one). */
export function arr(v: Json | undefined): Json[] {
  return Array.isArray(v) ? v : [];
}

/**
 * One GET of the indexer's API, the answer read within `maxBytes` (streamed).
 * @throws IndexerRefusedError (a VerifierInputError `indexer_refused`) for a 4xx other than 404/429
 *   ({@link isIndexerRefusal})
 * @throws VerifierInputError `indexer_refused` for a 404 that is not the indexer's `not_found` ({@link isIndexerNotFound}: the URL's path is wrong)
 * @throws VerifierInputError `indexer_refused` for a 200 whose body is not JSON (another server at the URL)
 * @throws VerifierNetworkError unreachable, another status other than 200/404, an answer over the limit
 */
export function indexerGetter(
  base: string,
  timeoutMs: number,
  maxBytes: number,
  signal?: AbortSignal,
): (route: string) => Promise<IndexerAnswer> {
  // only the origin is printed: a key may be in the userinfo, path or query (probe10 R2)
  const target = indexerTarget(base);
  return async (route) => {
    let res: Response;
    try {
      // the route joins the base's path, before its query; userinfo becomes a Basic header (probe10 R3)
      const { url, headers } = joinRoute(base, route);
      // the timeout runs to the body's last byte (fetchWithin: a dripped body is cut off at it)
      res = await fetchWithin(
        url,
        { headers: { ...headers, accept: "application/json" } },
        { what: "indexer answer", timeoutMs, signal },
      );
    } catch (e) {
      throw new VerifierNetworkError(target, `GET ${route}: ${printable(describeError(e))}`, { cause: e });
    }
    if (isIndexerRefusal(res.status)) {
      // a refusal (400 invalid_parameter: a query on the URL) is a configuration error, not retried (probe11 O9)
      let body: unknown;
      try {
        body = JSON.parse(new TextDecoder().decode(await readBodyWithin(res, 4096, "indexer answer")));
      } catch {
        body = undefined; // not JSON, or too long: the status alone is named
      }
      throw new IndexerRefusedError(base, route, res.status, body);
    }
    if (res.status !== 200 && res.status !== 404) {
      await res.body?.cancel().catch(() => undefined);
      throw new VerifierNetworkError(target, `GET ${route}: http ${res.status}`);
    }
    let bytes: Uint8Array;
    try {
      bytes = await readBodyWithin(res, maxBytes, "indexer answer");
    } catch (e) {
      const why =
        e instanceof AnswerTooLargeError
          ? e.message
          : `cannot read the answer (${printable(describeError(e))})`;
      throw new VerifierNetworkError(target, `GET ${route}: ${why}`, { cause: e });
    }
    let body: Json;
    try {
      body = JSON.parse(new TextDecoder().decode(bytes)) as Json;
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
      if (res.status === 404) throw noRoute(base, route);
      // the indexer answers JSON: a 200 page (a proxy's, a captive portal's, an app's fallback) is
      // another server at the URL, a configuration error like a JSON answer of the wrong shape (probeD2 F5)
      throw notTheIndexer(base, route, "the answer is not JSON");
    }
    // a 404 is an answer only as the indexer's not_found: another (no_route, a proxy's) is a wrong URL
    if (res.status === 404 && !isIndexerNotFound(body)) throw noRoute(base, route);
    return { status: res.status, body, bytes: bytes.byteLength };
  };
}
