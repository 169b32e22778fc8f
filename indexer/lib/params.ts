/**
 * Query and path parameter parsing for the REST routes. Every failure is a
 * {@link ParamError} naming the parameter, answered as HTTP 400 with
 * `{ "error": { "code": "invalid_parameter", "parameter", "message" } }`.
 */
import { BountyStatus } from "@bench-bounty/contracts";

/** A bad request parameter; `parameter` is its name as the client wrote it. */
export class ParamError extends Error {
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message);
    this.name = "ParamError";
  }
}

/** The JSON body of a 400 answer. */
export function paramErrorBody(e: ParamError): {
  error: { code: "invalid_parameter"; parameter: string; message: string };
} {
  return { error: { code: "invalid_parameter", parameter: e.parameter, message: e.message } };
}

/** Bounty statuses accepted by `?status=` (case-insensitive). */
export const STATUS_NAMES = [
  BountyStatus.Pending,
  BountyStatus.Funded,
  BountyStatus.Awarded,
  BountyStatus.Reclaimed,
].map((s) => BountyStatus[s] as Exclude<keyof typeof BountyStatus, "None">);
export type StatusName = Exclude<keyof typeof BountyStatus, "None">;

/** Default and maximum page sizes. */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;

const UINT256_MAX = (1n << 256n) - 1n;

/**
 * Reads the query string: refuses parameters not in `allowed` (array forms such
 * as `limit[]` included), parameters given more than once, and empty values (`?winner=` or a bare
 * `?winner`: a client that builds `?winner=${addr}` from an empty variable gets an error, not
 * everyone's awards; probeD2 F7). Values are not trimmed: `limit= 1` is refused
 * by the value's parser, as every non-canonical form is. A parameter without a name (`?=`, `?&`, a
 * stray `&`: Hono drops it from `queries`) is refused too (parameter `""`), read from the request's
 * `url`; a bare `?` is no query.
 * @param queries the request's parsed query (`c.req.queries()`)
 * @param url the request's whole URL (`c.req.url`)
 * @throws ParamError
 */
export function readQuery(
  queries: Record<string, string[]>,
  allowed: readonly string[],
  url: string,
): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  const q = url.indexOf("?");
  if (q >= 0 && q < url.length - 1)
    for (const part of url
      .slice(q + 1)
      .split("#")[0]!
      .split("&"))
      if (part === "" || part.startsWith("="))
        throw new ParamError("", "a query parameter has an empty name (`?=`, `?&` or a stray `&`)");
  for (const [name, values] of Object.entries(queries)) {
    if (!allowed.includes(name)) {
      throw new ParamError(
        name,
        allowed.length === 0
          ? `unknown parameter "${name}" (this route takes no query parameters)`
          : `unknown parameter "${name}" (allowed: ${allowed.join(", ")})`,
      );
    }
    if (values.length > 1) throw new ParamError(name, `parameter "${name}" is given ${values.length} times`);
    const v = values[0];
    if (v === undefined || v === "")
      throw new ParamError(name, `"${name}" is empty: give a value, or leave the parameter out`);
    out[name] = v;
  }
  return out;
}

/** A 20-byte address, returned lowercase. */
export function parseAddress(name: string, value: string): `0x${string}` {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) {
    throw new ParamError(name, `"${name}" must be a 0x-prefixed 20-byte hex address, got "${clip(value)}"`);
  }
  return value.toLowerCase() as `0x${string}`;
}

/** A bytes32 value (digest), returned lowercase. */
export function parseBytes32(name: string, value: string): `0x${string}` {
  if (!/^0x[0-9a-fA-F]{64}$/.test(value)) {
    throw new ParamError(name, `"${name}" must be a 0x-prefixed 32-byte hex value, got "${clip(value)}"`);
  }
  return value.toLowerCase() as `0x${string}`;
}

/**
 * A bounty id: a decimal integer from 1 to 2^256 - 1 without leading zeros.
 * @throws ParamError naming `name`: not a positive decimal integer, or one beyond uint256
 */
export function parseBountyId(name: string, value: string): bigint {
  if (/^[1-9][0-9]*$/.test(value)) {
    // a well-formed positive integer: refuse it only for its size (never BigInt() an unbounded string)
    if (value.length <= 78 && BigInt(value) <= UINT256_MAX) return BigInt(value);
    throw new ParamError(
      name,
      `"${name}" must be a positive decimal integer no larger than 2^256-1 (uint256), got ${value.length > 40 ? `an integer of ${value.length} digits` : `"${value}"`}`,
    );
  }
  throw new ParamError(name, `"${name}" must be a positive decimal integer, got "${clip(value)}"`);
}

/** A bounty status name, case-insensitive, returned in its canonical case. */
export function parseStatus(name: string, value: string): StatusName {
  const hit = STATUS_NAMES.find((s) => s.toLowerCase() === value.toLowerCase());
  if (hit === undefined)
    throw new ParamError(name, `"${name}" must be one of ${STATUS_NAMES.join(", ")}, got "${clip(value)}"`);
  return hit;
}

/** Page size: an integer from 1 to {@link MAX_LIMIT} in canonical digits (no sign, leading zero, exponent or space); {@link DEFAULT_LIMIT} when absent. */
export function parseLimit(name: string, value: string | undefined): number {
  if (value === undefined) return DEFAULT_LIMIT;
  if (!/^[1-9][0-9]{0,2}$/.test(value) || Number(value) > MAX_LIMIT) {
    throw new ParamError(name, `"${name}" must be an integer from 1 to ${MAX_LIMIT}, got "${clip(value)}"`);
  }
  return Number(value);
}

/** ISO 8601 date or date-time with a zone; groups: year, month, day, hour, minute, second, zone hour, zone minute. */
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2})))?$/;

/**
 * Whether the fields of an {@link ISO_TIME} match name a date and time that exist: a month of 1-12,
 * a day within its month (leap years counted), hours 0-23, minutes and seconds 0-59 (no leap second,
 * no `24:00`), a zone of at most 23:59. `Date.parse` rolls `2026-02-30` over to March 2 instead.
 */
function existingDateTime(m: RegExpExecArray): boolean {
  const [year, month, day, hour = 0, minute = 0, second = 0, zoneHour = 0, zoneMinute = 0] = m
    .slice(1)
    .map((g) => (g === undefined ? undefined : Number(g)));
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate(); // day 0 of the next month
  return (
    month! >= 1 &&
    month! <= 12 &&
    day! >= 1 &&
    day! <= daysInMonth &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    zoneHour <= 23 &&
    zoneMinute <= 59
  );
}

/**
 * A point in time as unix seconds: either an integer number of seconds, or an
 * ISO 8601 date (`2026-11-30`, midnight UTC) or date-time with a zone
 * (`2026-11-30T12:00:00Z`, `...+02:00`); fractions of a second are dropped.
 * @throws ParamError naming `name`: another form, a date or time that does not exist
 *   (`2026-02-30`, `24:00`, `00:00:60`), or a time before 1970
 */
export function parseTime(name: string, value: string): bigint {
  if (/^(0|[1-9][0-9]{0,11})$/.test(value)) return BigInt(value);
  const m = ISO_TIME.exec(value);
  if (m === null) {
    throw new ParamError(
      name,
      `"${name}" must be unix seconds or an ISO 8601 date / date-time with a zone, got "${clip(value)}"`,
    );
  }
  if (!existingDateTime(m))
    throw new ParamError(name, `"${name}" names a date or time that does not exist: "${clip(value)}"`);
  const ms = Date.parse(value);
  if (ms < 0) throw new ParamError(name, `"${name}" is before 1970`);
  return BigInt(Math.floor(ms / 1000));
}

/** Cursor of the award history: `"<block>:<logIndex>"` of the last award of the previous page. */
export function parseAwardCursor(name: string, value: string): { block: bigint; logIndex: number } {
  const m = /^(0|[1-9][0-9]{0,19}):(0|[1-9][0-9]{0,8})$/.exec(value);
  if (m === null)
    throw new ParamError(name, `"${name}" must be a cursor returned as nextCursor, got "${clip(value)}"`);
  return { block: BigInt(m[1]!), logIndex: Number(m[2]!) };
}

/**
 * Cursor of lists ordered by bounty id (descending): the last id of the previous page, so a bounty id
 * (1 to 2^256 - 1, as {@link parseBountyId}). `0` and an integer beyond uint256 are no id: refused as
 * the award cursor refuses a block beyond its range (probe30 B-F7: `2^256` answered the first page and
 * `0` an empty one).
 * @throws ParamError naming `name`: not a cursor returned as nextCursor
 */
export function parseIdCursor(name: string, value: string): bigint {
  if (!/^[1-9][0-9]{0,77}$/.test(value) || BigInt(value) > UINT256_MAX) {
    throw new ParamError(name, `"${name}" must be a cursor returned as nextCursor, got "${clip(value)}"`);
  }
  return BigInt(value);
}

function clip(v: string): string {
  return v.length > 80 ? `${v.slice(0, 77)}...` : v;
}
