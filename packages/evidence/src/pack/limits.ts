/**
 * The limits within which every award evidence pack must stay so that a verifier can read
 * it (SPEC 8-9; the `@bench-bounty/verifier` README's "Limits" table). They are stated
 * here once: the verifier refuses a pack beyond them (bad input, exit 2), and the platform
 * refuses, at dataset upload and at publish, a benchmark whose eventual pack would break
 * one (so no prize is ever locked behind a pack no verifier can read).
 *
 * The author decides two things a pack carries verbatim: every test-set row's `prompt`
 * and `gold` (SPEC 3). {@link valueLimitProblems} checks any JSON value against the
 * per-value limits, {@link testSetLimitProblems} a whole test set (its rows, its leaf
 * count and its size).
 * @packageDocumentation
 */
import { MAX_JSON_DEPTH, appendPath } from "../errors.js";
import { canonicalJson } from "../json/index.js";
import { isJsonFloat } from "../json/value.js";
import type { TestSetRow } from "../commitment.js";

/** The limits of a readable evidence pack (the verifier README's "Limits" table). */
export const PACK_LIMITS = Object.freeze({
  /** Most bytes of a pack document (file, standard input or URL): 512 MiB. */
  maxPackBytes: 512 * 1024 * 1024,
  /** Longest string value or object key, in UTF-16 code units: 4 Mi. */
  maxStringLength: 4 * 1024 * 1024,
  /** Deepest nesting of arrays and objects in a pack (the SPEC 2 parser's limit). */
  maxDepth: MAX_JSON_DEPTH,
  /** Largest count, index, block number or time a pack carries, and largest JS-number integer: 2^53-1. */
  maxSafeInteger: Number.MAX_SAFE_INTEGER,
  /** Most digits of an amount or any integer (uint256, SPEC 2): 78. */
  maxIntegerDigits: 78,
  /** Longest decimal (`speed_weight`, scores, `wall_seconds`, `usdc_spent`, ...), in characters: 100. */
  maxDecimalLength: 100,
  /** Most test-set rows (leaves) a commitment can pin on chain (`uint32`): 2^32-1. */
  maxLeafCount: 2 ** 32 - 1,
  /**
   * Most bytes of the canonical test set (the `test_set` block, which the author decides):
   * half the pack limit, the other half being left to what the run decides (the winners'
   * receipts and answers, the rank derivation).
   */
  maxTestSetBytes: 256 * 1024 * 1024,
});

/** Which limit of {@link PACK_LIMITS} a value breaks. */
export type PackLimitName = keyof typeof PACK_LIMITS;

/** One value beyond a pack limit. */
export interface PackLimitProblem {
  /** JSON path of the value, from the `path` given to the checker (`label.items[3]`, `$.test_set[2].prompt`). */
  path: string;
  /** `string_too_long`, `key_too_long`, `nesting_too_deep`, `unsafe_integer`, `integer_too_large`, `too_many_leaves`, `test_set_too_large`. */
  code: string;
  /** The limit broken. */
  limit: PackLimitName;
  /** What is wrong, with the limit's value. */
  message: string;
}

/**
 * The `string_too_long` problem of a string of `length` UTF-16 code units at `path`, or null within
 * `maxStringLength`. Lets a caller refuse a string from its length alone, before building it (the
 * platform sizes rendered prompts before rendering them).
 */
export function stringLengthProblem(length: number, path: string): PackLimitProblem | null {
  if (length <= PACK_LIMITS.maxStringLength) return null;
  return {
    path,
    code: "string_too_long",
    limit: "maxStringLength",
    message: `a string of ${length} UTF-16 code units is over the limit of ${PACK_LIMITS.maxStringLength} a verifier reads`,
  };
}

/** Options of {@link valueLimitProblems}. */
export interface ValueLimitOptions {
  /** Path of `value` itself (default `$`; `""` gives relative paths: `label.items[3]`, `""` for the value itself). */
  path?: string;
  /** Containers (objects, arrays) that will enclose `value` in the pack (default 0). */
  depthAbove?: number;
  /** Stop after this many problems (default 20). */
  maxProblems?: number;
}

/**
 * Containers that enclose a test-set row's `gold` in a pack: the pack object, the
 * `test_set` array and the row object (`$.test_set[i].gold`).
 */
export const GOLD_DEPTH_IN_PACK = 3;

/** `appendPath`, except that under the empty root path a key is written bare (`label`, not `.label`). */
function childPath(path: string, segment: string | number): string {
  const p = appendPath(path, segment);
  return path === "" && p.startsWith(".") ? p.slice(1) : p;
}

function digitsOf(v: bigint): number {
  return (v < 0n ? -v : v).toString().length;
}

/**
 * Every string, key, nesting level and integer of `value` beyond {@link PACK_LIMITS}
 * (strings and keys over `maxStringLength`, nesting deeper than `maxDepth` counting
 * `depthAbove`, a JS-number integer beyond 2^53-1 (it has already lost digits), a bigint
 * of more than 78 digits). Iterative: any depth is walked without recursion.
 * @returns the problems (an object's keys before its values, values in document order), at most
 *   `maxProblems`; `[]` when within every limit
 */
export function valueLimitProblems(value: unknown, options: ValueLimitOptions = {}): PackLimitProblem[] {
  const out: PackLimitProblem[] = [];
  const max = options.maxProblems ?? 20;
  const L = PACK_LIMITS;
  const stack: { v: unknown; path: string; depth: number }[] = [
    { v: value, path: options.path ?? "$", depth: options.depthAbove ?? 0 },
  ];
  while (stack.length > 0 && out.length < max) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v === "string") {
      const p = stringLengthProblem(v.length, path);
      if (p !== null) out.push(p);
    } else if (typeof v === "number") {
      if (Number.isInteger(v) && !Number.isSafeInteger(v))
        out.push({
          path,
          code: "unsafe_integer",
          limit: "maxSafeInteger",
          message: `the integer ${v} is beyond 2^53-1 (${L.maxSafeInteger}) and has lost digits: write it as an exact integer or a string`,
        });
    } else if (typeof v === "bigint") {
      if (digitsOf(v) > L.maxIntegerDigits)
        out.push({
          path,
          code: "integer_too_large",
          limit: "maxIntegerDigits",
          message: `an integer of ${digitsOf(v)} digits is over the limit of ${L.maxIntegerDigits} (uint256, SPEC 2)`,
        });
    } else if (typeof v === "object" && v !== null && !isJsonFloat(v)) {
      if (depth + 1 > L.maxDepth) {
        out.push({
          path,
          code: "nesting_too_deep",
          limit: "maxDepth",
          message: `nesting here reaches level ${depth + 1} of the pack, over the limit of ${L.maxDepth}`,
        });
        continue;
      }
      const children: { v: unknown; path: string; depth: number }[] = [];
      if (Array.isArray(v))
        v.forEach((x, i) => children.push({ v: x, path: childPath(path, i), depth: depth + 1 }));
      else
        for (const [k, x] of Object.entries(v)) {
          if (k.length > L.maxStringLength)
            out.push({
              path,
              code: "key_too_long",
              limit: "maxStringLength",
              message: `a key of ${k.length} UTF-16 code units is over the limit of ${L.maxStringLength} a verifier reads`,
            });
          else children.push({ v: x, path: childPath(path, k), depth: depth + 1 });
        }
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }
  return out.slice(0, max);
}

/** A problem of one test-set row (its `ordinal`), or of the whole test set (`ordinal: null`). */
export interface TestSetLimitProblem extends PackLimitProblem {
  ordinal: number | null;
}

/**
 * Whether a test set (SPEC 3) fits in a readable pack: at most `maxLeafCount` rows, every
 * `prompt` and `gold` within {@link valueLimitProblems} as they sit in the pack
 * (`$.test_set[i].gold`), and the canonical `test_set` block (its exact bytes) within
 * `maxTestSetBytes`.
 * Paths are row-relative (`prompt`, `gold.value`).
 * @param maxProblems stop after this many problems (default 20)
 * @returns the problems; `[]` when the test set fits
 */
export function testSetLimitProblems(
  rows: readonly Pick<TestSetRow, "ordinal" | "prompt" | "gold" | "salt" | "visibility" | "grader_type">[],
  maxProblems = 20,
): TestSetLimitProblem[] {
  const L = PACK_LIMITS;
  if (rows.length > L.maxLeafCount)
    return [
      {
        ordinal: null,
        path: "$",
        code: "too_many_leaves",
        limit: "maxLeafCount",
        message: `${rows.length} rows are over the ${L.maxLeafCount} leaves a commitment can pin`,
      },
    ];
  const out: TestSetLimitProblem[] = [];
  let bytes = 2; // the array's brackets
  for (let i = 0; i < rows.length && out.length < maxProblems; i++) {
    const row = rows[i]!;
    for (const [field, value] of [
      ["prompt", row.prompt],
      ["gold", row.gold],
    ] as const) {
      const found = valueLimitProblems(value, {
        path: field,
        depthAbove: GOLD_DEPTH_IN_PACK,
        maxProblems: maxProblems - out.length,
      });
      out.push(...found.map((p) => ({ ...p, ordinal: i })));
    }
    if (out.length === 0) {
      const { ordinal, prompt, gold, salt, visibility, grader_type } = row;
      bytes += canonicalJson({ ordinal, prompt, gold, salt, visibility, grader_type }).byteLength + 1;
    }
  }
  if (out.length === 0 && bytes > L.maxTestSetBytes)
    out.push({
      ordinal: null,
      path: "$",
      code: "test_set_too_large",
      limit: "maxTestSetBytes",
      message: `the test set takes ${bytes} bytes in the pack, over the limit of ${L.maxTestSetBytes} (half the ${L.maxPackBytes}-byte pack a verifier reads): use fewer or shorter rows`,
    });
  return out;
}
