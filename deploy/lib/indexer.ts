/**
 * Reading the indexer's REST API from the tasks (`bounty:credits` / `bounty:claim --all` with
 * `--indexer URL`): every answer is read within a byte limit (the verifier's bounded reader,
 * `@bench-bounty/verifier/body`) and a time bound (`--indexer-timeout`, one request, headers and body
 * together), parsed with the strict SPEC 2 parser, and checked against the shape the tasks use, so an
 * indexer that answers too much, too slowly or the wrong thing is one line naming its origin and the
 * JSON path, never a stack trace or a task that grows or waits for ever (probe26 B-F8).
 */
import { z } from "zod";
import { TaskError } from "./errors";
import { describeError } from "./files";
import { evidence, verifierBody, verifierIndexerStatus } from "./packages";
import { chainText, MAX_CHAIN_TEXT_CHARS } from "./text";

/** Default `--indexer-timeout`: one request to the indexer, headers and body together, milliseconds. */
export const DEFAULT_INDEXER_TIMEOUT_MS = 20_000;

/** The largest `--indexer-timeout` (what a Node timer takes: 2^31-1 ms, about 24.8 days). */
export const MAX_INDEXER_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * The most bytes read of one page of `GET /accounts/:address/credits?limit=100` (1 MiB: a page of 100
 * credits is about 50 KB). A longer answer is refused at the limit, the rest never read.
 */
export const MAX_INDEXER_PAGE_BYTES = 1024 * 1024;

/** The most bytes read of an error answer (only its first {@link MAX_CHAIN_TEXT_CHARS} characters are shown). */
export const MAX_INDEXER_ERROR_BYTES = 4096;

/** The most pages of credits read (100 credits each). */
export const MAX_CREDIT_PAGES = 1000;

/**
 * `--indexer-timeout` as milliseconds: the default when not given.
 * @throws TaskError naming the flag unless it is a whole number of milliseconds from 1 to {@link MAX_INDEXER_TIMEOUT_MS}
 */
export function parseIndexerTimeout(text: string | undefined, flag = "--indexer-timeout"): number {
  if (text === undefined) return DEFAULT_INDEXER_TIMEOUT_MS;
  const t = text.trim();
  if (!/^[1-9][0-9]*$/.test(t) || t.length > 10 || Number(t) > MAX_INDEXER_TIMEOUT_MS)
    throw new TaskError(
      `${flag} must be a whole number of milliseconds from 1 to ${MAX_INDEXER_TIMEOUT_MS}, got ${chainText(JSON.stringify(text), 60)}.`,
    );
  return Number(t);
}

/** A uint256 in decimal without leading zeros (a bounty id when `min` is 1). */
function isUintText(s: string, min: bigint): boolean {
  return (
    /^(0|[1-9][0-9]*)$/.test(s) && s.length <= 78 && BigInt(s) >= min && BigInt(s) <= evidence().UINT256_MAX
  );
}

/** The part of one page of `GET /accounts/:address/credits` the tasks use (other fields are not read). */
function creditsPageSchema() {
  const { describeValue } = evidence();
  const uint = (min: bigint, what: string) =>
    z.string().refine((s) => isUintText(s, min), {
      error: (iss) => `expected ${what}, got ${describeValue(iss.input)}`,
    });
  const bountyId = uint(1n, "a bounty id: a uint256 decimal string (1 to 2^256-1)");
  return z.looseObject({
    credits: z.array(
      z.looseObject({
        bountyId,
        outstanding: uint(0n, "a uint256 decimal string (base units)"),
      }),
    ),
    nextCursor: bountyId.nullable(),
  });
}

/** One page of credits as the tasks read it. */
export type CreditsPage = z.infer<ReturnType<typeof creditsPageSchema>>;

/**
 * The indexer's base URL from `--indexer`.
 * @throws TaskError when it is not a URL (the value is not printed), or carries credentials (named by its origin)
 */
export function indexerBase(indexer: string): URL {
  let base: URL;
  try {
    base = new URL(indexer);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    throw new TaskError(
      `--indexer must be a URL like http://127.0.0.1:42069 (the value given is not printed).`,
    );
  }
  // fetch refuses a URL with userinfo and its message is the whole URL (probeD3 F12): refused here,
  // naming the origin only
  if (base.username !== "" || base.password !== "")
    throw new TaskError(
      `--indexer ${base.origin} carries credentials, which this task does not send (the value given is not printed): give the indexer's URL without user:password@.`,
    );
  return base;
}

/**
 * GET one indexer URL and return its JSON: the body read within `maxBytes` and the whole request
 * within `timeoutMs`; parsed with the strict parser (duplicate keys refused, integers exact).
 * @throws TaskError naming the origin and the path: unreachable, no answer in time, a status other
 *   than 200 (its body's first {@link MAX_CHAIN_TEXT_CHARS} characters, escaped), a body over the
 *   limit, or one that is not JSON
 */
export async function getIndexerJson(url: URL, timeoutMs: number, maxBytes: number): Promise<unknown> {
  const { fetchWithin, readBodyWithin, AnswerTimeoutError, AnswerTooLargeError } = verifierBody();
  const where = `the indexer at ${url.origin}`;
  const Where = `The indexer at ${url.origin}`;
  const late = () =>
    new TaskError(
      `${Where} did not answer GET ${url.pathname} within ${timeoutMs} ms (--indexer-timeout): check --indexer, or leave it out to search the logs.`,
    );
  const read = async (res: Response, max: number, what: string): Promise<Uint8Array> => {
    try {
      return await readBodyWithin(res, max, what);
    } catch (e) {
      if (AnswerTimeoutError.find(e) !== undefined) throw late();
      if (e instanceof AnswerTooLargeError)
        throw new TaskError(`${Where} answered GET ${url.pathname} with too much: ${e.message}.`);
      throw new TaskError(`${Where} broke off its answer to GET ${url.pathname}: ${(e as Error).message}.`);
    }
  };
  let res: Response;
  try {
    // the timeout runs to the body's last byte (fetchWithin: a dripped body is cut off at it; the
    // AbortSignal.timeout used before could be lost to a garbage collection, probe27 B-F6)
    res = await fetchWithin(url, undefined, { what: "indexer answer", timeoutMs });
  } catch (e) {
    if (AnswerTimeoutError.find(e) !== undefined) throw late();
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (e as Error).message;
    throw new TaskError(
      `Cannot reach ${where} (${String(why).split(url.href).join(url.origin)}): check --indexer, or leave it out to search the logs.`,
    );
  }
  if (res.status !== 200) {
    let text: string;
    try {
      text = new TextDecoder().decode(await readBodyWithin(res, MAX_INDEXER_ERROR_BYTES, "error answer"));
    } catch (e) {
      if (AnswerTimeoutError.find(e) !== undefined) throw late();
      text =
        e instanceof AnswerTooLargeError
          ? `(a body of more than ${MAX_INDEXER_ERROR_BYTES} bytes, not shown)`
          : "(its body broke off)";
    }
    throw new TaskError(
      `The indexer answered ${res.status} for ${url.pathname}: ${chainText(text, MAX_CHAIN_TEXT_CHARS)}`,
    );
  }
  const bytes = await read(res, maxBytes, "indexer answer");
  try {
    return evidence().parseJson(bytes);
  } catch (e) {
    throw new TaskError(
      `${Where} answered GET ${url.pathname} with something that is not JSON (${chainText(describeError(e), MAX_CHAIN_TEXT_CHARS)}): is --indexer the indexer's REST base URL?`,
    );
  }
}

/**
 * Bounty ids the indexer lists with outstanding credit for `account` (`GET /accounts/:address/credits`,
 * every page, at most {@link MAX_CREDIT_PAGES}); the tasks re-read each amount on-chain.
 * @param indexer `--indexer`, the REST base URL
 * @param timeoutMs the bound of each request (`--indexer-timeout`)
 * @param token when given, only that token's credits are asked for (the route's `token=` filter): a
 *   stranger's credits in other tokens are then neither paged nor read on-chain (review28 R-F5)
 * @throws TaskError as {@link getIndexerJson}; for a page of another shape, naming the JSON path
 *   (`$.credits[0].bountyId: expected a bounty id ...`); for a `nextCursor` that does not go down
 */
export async function creditIdsFromIndexer(
  indexer: string,
  account: string,
  timeoutMs: number,
  token?: string,
): Promise<bigint[]> {
  const base = indexerBase(indexer);
  const schema = creditsPageSchema();
  const ids: bigint[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_CREDIT_PAGES; page++) {
    const url = new URL(`accounts/${account}/credits`, base.href.endsWith("/") ? base.href : `${base.href}/`);
    url.searchParams.set("limit", "100");
    if (token !== undefined) url.searchParams.set("token", token);
    if (cursor) url.searchParams.set("cursor", cursor);
    const value = await getIndexerJson(url, timeoutMs, MAX_INDEXER_PAGE_BYTES);
    let body: CreditsPage;
    try {
      body = evidence().assertSchema(schema, value);
    } catch (e) {
      throw new TaskError(
        `The indexer at ${url.origin} answered GET ${url.pathname} with ${chainText(describeError(e), 300)}: not the indexer's credits page (check --indexer).`,
      );
    }
    for (const c of body.credits) if (c.outstanding !== "0") ids.push(BigInt(c.bountyId));
    if (body.nextCursor === null) return ids;
    // pages go down in bounty id (the cursor is the last id of the page): one that does not would loop
    if (cursor !== null && BigInt(body.nextCursor) >= BigInt(cursor))
      throw new TaskError(
        `The indexer at ${url.origin} answered GET ${url.pathname} with $.nextCursor ${body.nextCursor}, not below the cursor ${cursor} it was given: its pages do not end (check --indexer).`,
      );
    cursor = body.nextCursor;
  }
  throw new TaskError(
    `The indexer at ${base.origin} lists more than ${MAX_CREDIT_PAGES} pages of 100 credits for ${account}: leave --indexer out to search the logs.`,
  );
}

/** The most bytes read of the indexer's `GET /status` (one entry per chain, a few hundred bytes). */
export const MAX_INDEXER_STATUS_BYTES = 64 * 1024;

/**
 * Blocks the indexer may be behind the chain's latest block before the tasks say its list is incomplete
 * (it follows the head a poll or two late).
 */
export const MAX_INDEXER_LAG_BLOCKS = 5;

/**
 * The block the indexer has indexed on the chain of id `chainId`: Ponder's `GET /status` answers
 * `{ <chain name>: { id: <chain id>, block: { number, timestamp } } }` (indexer/README.md), read within
 * {@link MAX_INDEXER_STATUS_BYTES} and `timeoutMs`.
 * @param indexer `--indexer`, the REST base URL (`/status` is beside its `/accounts` routes)
 * @throws TaskError as {@link getIndexerJson}, or naming the JSON path when no entry of that chain id
 *   carries a whole block number
 */
export async function indexerHead(indexer: string, chainId: number, timeoutMs: number): Promise<number> {
  const base = indexerBase(indexer);
  const url = new URL("status", base.href.endsWith("/") ? base.href : `${base.href}/`);
  const value = await getIndexerJson(url, timeoutMs, MAX_INDEXER_STATUS_BYTES);
  const entry = verifierIndexerStatus().statusEntry(value, chainId);
  if (entry === null)
    throw new TaskError(
      `The indexer at ${url.origin} answered GET ${url.pathname} without an entry of chain id ${chainId} ($.<chain>.id).`,
    );
  if (entry.block === null)
    throw new TaskError(
      `The indexer at ${url.origin} answered GET ${url.pathname} without a block number at ${JSON.stringify(`$.${entry.name}.block.number`)}.`,
    );
  return entry.block;
}

/**
 * What `bounty:credits --indexer` / `bounty:claim --all --indexer` print on stderr when the indexer's list
 * may be incomplete (probe28c C-F11: an indexer stopped at block 68 of 51,312 listed 2 of 6 credits, with
 * nothing said): its head ({@link indexerHead}) more than {@link MAX_INDEXER_LAG_BLOCKS} blocks behind
 * `chainHead`, both numbers named; or an indexer that cannot say its head. Null when it is caught up.
 * @param chainHead the chain's latest block number, read by the task
 */
export async function indexerLagNotice(
  indexer: string,
  timeoutMs: number,
  chainId: number,
  chainHead: number,
): Promise<string | null> {
  const origin = indexerBase(indexer).origin;
  let head: number;
  try {
    head = await indexerHead(indexer, chainId, timeoutMs);
  } catch (e) {
    if (!(e instanceof TaskError)) throw e;
    return `Warning: the indexer at ${origin} cannot say which block it has indexed (${e.message.replace(/\.$/, "")}): credits it has not indexed are not listed, so this list may be incomplete; leave --indexer out to search the logs.`;
  }
  if (chainHead - head <= MAX_INDEXER_LAG_BLOCKS) return null;
  return `Warning: the indexer at ${origin} has indexed up to block ${head}, the chain is at block ${chainHead} (${chainHead - head} blocks behind): credits awarded after block ${head} are not listed, so this list may be incomplete; leave --indexer out to search the logs, or wait for the indexer.`;
}
