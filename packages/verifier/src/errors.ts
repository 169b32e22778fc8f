/**
 * Errors of the verifier and the exit codes the CLI maps them to.
 *
 * A verification never throws because the award is wrong: a wrong award is a
 * set of `failed` facts in the report. The verifier throws only when it
 * cannot produce a report at all:
 *
 * - {@link VerifierInputError} (exit code 2): the input is not a readable pack
 *   or receipt (not JSON, truncated, a missing key, a wrong type, a value
 *   beyond the verifier's limits, a bad option). Its `path` names the JSON
 *   location (`$.winners[0].answers`) or the option (`--policy`).
 * - {@link VerifierNetworkError} (exit code 3): a file could not be read or a
 *   URL, an RPC endpoint or the indexer could not be reached, or the `--out`
 *   report could not be written (its `action` is then `write`).
 *
 * @packageDocumentation
 */
import { shortenPath } from "@bench-bounty/evidence";

/** Exit codes of `bench-bounty verify` and `bench-bounty verify-receipt`. */
export const EXIT_CODES = Object.freeze({
  /** Every fact the policy requires holds. */
  policyMet: 0,
  /** The report was produced and at least one fact the policy requires does not hold. */
  policyNotMet: 1,
  /** Bad input: not JSON, missing keys, wrong types, values beyond the limits, bad options. */
  badInput: 2,
  /** A file, URL, RPC endpoint or indexer could not be read or reached. */
  networkOrIo: 3,
});

/** The input cannot be read as a pack (or a receipt): exit code 2. */
export class VerifierInputError extends Error {
  /** Machine-readable reason, e.g. `invalid_json`, `missing_key`, `wrong_type`, `too_large`. */
  readonly code: string;
  /** JSON path of the offending value (`$` is the document root) or the option name. */
  readonly path: string;

  constructor(code: string, path: string, message: string) {
    // the path is always shown, `$` (the document root) included: `$: expected an object, found an array`
    const shown = shortenPath(path);
    super(shown ? `${shown}: ${message}` : message);
    this.name = "VerifierInputError";
    this.code = code;
    this.path = path;
  }
}

/** A JSON path short enough for a message: evidence's rule ({@link shortenPath}), re-exported. */
export { shortenPath };

/** A file, URL, RPC or indexer could not be read (or the `--out` report could not be written): exit code 3. */
export class VerifierNetworkError extends Error {
  /** What was being read or written (`file ./pack.json`, `rpc http://...`, `indexer http://...`, `--out report.json`). */
  readonly target: string;
  /** Whether the failure was reading (the default) or writing, for the CLI's `cannot read` / `cannot write`. */
  readonly action: "read" | "write";

  constructor(target: string, message: string, options?: { cause?: unknown; action?: "read" | "write" }) {
    super(`${target}: ${message}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "VerifierNetworkError";
    this.target = target;
    this.action = options?.action ?? "read";
  }
}

/** True for a {@link VerifierInputError} (also across duplicated module copies). */
export function isVerifierInputError(e: unknown): e is VerifierInputError {
  return (
    e instanceof VerifierInputError ||
    (typeof e === "object" && e !== null && (e as { name?: unknown }).name === "VerifierInputError")
  );
}

/** True for a {@link VerifierNetworkError}. */
export function isVerifierNetworkError(e: unknown): e is VerifierNetworkError {
  return (
    e instanceof VerifierNetworkError ||
    (typeof e === "object" && e !== null && (e as { name?: unknown }).name === "VerifierNetworkError")
  );
}

/**
 * A short description of an unknown thrown value, for reasons and messages (never a stack). `fetch`'s
 * own "fetch failed" says nothing of what failed: the cause it carries is added (probe24: a redirect
 * loop, a redirect to a `file:` URL and a refused connection all read "fetch failed"), as
 * `fetch failed: redirect count exceeded`, `fetch failed: connect ECONNREFUSED 127.0.0.1:9`; likewise a body
 * read cut short, `terminated: other side closed`.
 */
export function describeError(e: unknown): string {
  if (e instanceof Error) {
    const short = (e as { shortMessage?: unknown }).shortMessage;
    const text = typeof short === "string" && short.length > 0 ? short : (e.message.split("\n")[0] ?? e.name);
    // undici's bare words: "fetch failed" (the request) and "terminated" (a body cut short, probe25 B-F9)
    const cause = text === "fetch failed" || text === "terminated" ? causeText(e.cause) : "";
    return cause === "" ? text : `${text}: ${cause}`;
  }
  return String(e);
}

/**
 * One line of a `fetch` failure's cause: its message (first line), else its code; an AggregateError
 * (each address of a host refused) its errors' messages, distinct, joined by "; "; "" when none.
 */
function causeText(cause: unknown): string {
  if (!(cause instanceof Error)) return "";
  if (cause instanceof AggregateError && cause.errors.length > 0) {
    const each = cause.errors.map((x: unknown) => causeText(x)).filter((t) => t !== "");
    if (each.length > 0) return [...new Set(each)].join("; ");
  }
  const line = cause.message.split("\n")[0] ?? "";
  if (line !== "") return line.slice(0, 300);
  const code = (cause as { code?: unknown }).code;
  return typeof code === "string" ? code : cause.name;
}
