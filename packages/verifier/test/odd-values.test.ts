/**
 * Well-formed JSON packs with odd values (issue 13 item 8): property tests over
 * every field of the two vector packs. Each mutation (a wrong type, a huge or
 * negative number, an odd float spelling, an empty or unicode string, an extra key,
 * a nested null, a missing key) must either be refused as bad input (exit code 2,
 * an error naming the JSON path) or produce a report whose offline policy is not met;
 * never an internal error (exit code 4), and never "verified" when the mutation
 * changed what is hashed.
 *
 * Env: ODD_VALUES_RUNS (default 400 per pack), ODD_VALUES_SEED (default fixed per pack).
 */
import {
  canonicalJson,
  isEvidenceError,
  isJsonFloat,
  parseJson,
  type JsonValue,
} from "@bench-bounty/evidence";
import fc from "fast-check";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { EXIT_CODES, isVerifierInputError, verifyPack, type VerificationReport } from "../src/index.js";
import { reportError } from "../src/cli.js";
import { packTree } from "./helpers.js";

/** A number written exactly as given (kept by the lossless parser). */
interface Raw {
  readonly raw: string;
}
type Value = JsonValue | Raw | Value[] | { [k: string]: Value };

const isRaw = (v: unknown): v is Raw =>
  typeof v === "object" && v !== null && "raw" in v && Object.keys(v).length === 1;

/** JSON text of a tree holding raw numbers, bigints and parsed floats (keys in insertion order). */
function write(v: Value): string {
  if (isRaw(v)) return v.raw;
  if (isJsonFloat(v)) return v.lexeme;
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "0";
  if (typeof v === "string" || typeof v === "boolean" || v === null) return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(write).join(",")}]`;
  return `{${Object.entries(v)
    .map(([k, x]) => `${JSON.stringify(k)}:${write(x)}`)
    .join(",")}}`;
}

type Step = string | number;

/** Every path of the tree: each key of each object, the first two items of each array. */
function paths(v: JsonValue, here: Step[] = [], out: Step[][] = []): Step[][] {
  if (Array.isArray(v))
    v.slice(0, 2).forEach((x, i) => {
      out.push([...here, i]);
      paths(x, [...here, i], out);
    });
  else if (typeof v === "object" && v !== null && !isJsonFloat(v))
    for (const [k, x] of Object.entries(v)) {
      out.push([...here, k]);
      paths(x as JsonValue, [...here, k], out);
    }
  return out;
}

/** A deep copy; parsed floats become raw numbers with the same spelling. */
function clone(v: JsonValue): Value {
  if (isJsonFloat(v)) return { raw: v.lexeme };
  if (Array.isArray(v)) return v.map(clone);
  if (typeof v === "object" && v !== null) {
    const out: { [k: string]: Value } = {};
    for (const [k, x] of Object.entries(v)) out[k] = clone(x as JsonValue);
    return out;
  }
  return v;
}

/** The odd values a field may be given. */
const oddValue: fc.Arbitrary<Value> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(BigInt),
  fc.constantFrom<Value>(-1n, 0n, 2n ** 53n, 2n ** 64n, 2n ** 256n, -(2n ** 256n), 10n ** 400n),
  fc.constantFrom<Raw>(
    { raw: "1e400" },
    { raw: "-1e-400" },
    { raw: "-0" },
    { raw: "1.5" },
    { raw: "0.00001" },
    { raw: "1E5" },
    { raw: "123456789012345678901234567890.5" },
    { raw: "-9007199254740993" },
    { raw: `1${"0".repeat(500)}` },
  ),
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.constantFrom<Value>(
    "",
    " ",
    "0x",
    "-1",
    "1e999",
    "NaN",
    "\u0000",
    "\ud83d\ude00",
    "é",
    "e\u0301",
    "x".repeat(5000),
  ),
  fc.constantFrom<Value>([], {}, [null], [[null]], { a: null }, { a: { b: null } }, [{}], [""], [-1n]),
);

/** One mutation of a field: replace its value, delete it, or add a key beside it. */
type Mutation =
  | { kind: "set"; value: Value }
  | { kind: "delete" }
  | { kind: "extra"; key: string; value: Value };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 6, arbitrary: oddValue.map((value): Mutation => ({ kind: "set", value })) },
  { weight: 1, arbitrary: fc.constant<Mutation>({ kind: "delete" }) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.oneof(fc.constantFrom("extra", "", "__proto__", "constructor", "ordinal"), fc.string()),
        oddValue,
      )
      .map(([key, value]): Mutation => ({ kind: "extra", key, value })),
  },
);

/** Apply a mutation at `path`; false when it changes nothing that exists (an extra key already there). */
function apply(root: Value, path: Step[], m: Mutation): boolean {
  let parent = root as Record<string | number, Value>;
  for (const s of path.slice(0, -1)) parent = parent[s] as Record<string | number, Value>;
  const last = path[path.length - 1] as Step;
  if (m.kind === "set") parent[last] = m.value;
  else if (m.kind === "delete") {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else {
    const target = parent[last];
    if (typeof target !== "object" || target === null || Array.isArray(target) || isRaw(target)) return false;
    if (Object.prototype.hasOwnProperty.call(target, m.key)) return false;
    Object.defineProperty(target, m.key, {
      value: m.value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return true;
}

/** Outcome of verifying mutated bytes: the exit code the CLI would give, and the report or the error. */
async function outcome(
  bytes: Uint8Array,
): Promise<{ code: number; report?: VerificationReport; error?: unknown }> {
  try {
    const report = await verifyPack({ source: bytes });
    return { code: report.policy_met ? EXIT_CODES.policyMet : EXIT_CODES.policyNotMet, report };
  } catch (error) {
    const sink = { write: (): boolean => true } as unknown as NodeJS.WritableStream;
    return { code: reportError(error, { stderr: sink }, "verify"), error };
  }
}

/**
 * The canonical JSON of a document (SPEC 2), or null when it has none: a mutation whose
 * canonical form is the original's (`-0` for `0`) changes nothing that is hashed.
 */
function canonicalText(text: string): string | null {
  try {
    return Buffer.from(canonicalJson(parseJson(text))).toString("utf8");
  } catch (e) {
    if (isEvidenceError(e)) return null;
    throw e;
  }
}

/** Paths under which a change is not hashed (SPEC 8): a report may still meet the offline policy. */
const UNHASHED = new Set(["pack_anchor", "verify_hints"]);

for (const name of ["small", "zero-winner"]) {
  describe(`odd values in every field of the ${name} pack`, () => {
    const original = packTree(name);
    const fieldPaths = paths(original);
    const originalText = canonicalText(write(clone(original)));

    it("are bad input naming the JSON path (exit 2) or a report that does not verify; never exit 4", async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...fieldPaths), mutation, async (path, m) => {
          const tree = clone(original);
          if (!apply(tree, path, m)) return;
          const text = write(tree);
          const r = await outcome(new TextEncoder().encode(text));
          const changed = canonicalText(text) !== originalText;
          const where = `${m.kind} at ${JSON.stringify(path)}: ${changed ? "changed" : "canonically unchanged"}`;
          if (r.error !== undefined) {
            expect(r.code, `${where}: ${String(r.error)}`).toBe(EXIT_CODES.badInput);
            expect(isVerifierInputError(r.error), where).toBe(true);
            const e = r.error as { path: string; message: string };
            expect(e.path, where).toMatch(/^\$/);
            expect(e.message.startsWith(e.path.slice(0, 60)), `${where}: ${e.message}`).toBe(true);
            return;
          }
          if (changed && !UNHASHED.has(String(path[0])))
            expect(r.report!.policy_met, `${where}: verified`).toBe(false);
        }),
        {
          numRuns: Number(process.env.ODD_VALUES_RUNS ?? "400"),
          seed: Number(process.env.ODD_VALUES_SEED ?? (name === "small" ? 1301 : 1302)),
        },
      );
    }, 180_000);

    it("every field deleted in turn is refused or fails a fact, never exit 4", async () => {
      for (const path of fieldPaths) {
        const tree = clone(original);
        apply(tree, path, { kind: "delete" });
        const r = await outcome(new TextEncoder().encode(write(tree)));
        expect(r.code, `delete ${JSON.stringify(path)}: ${String(r.error)}`).not.toBe(4);
        if (r.code === EXIT_CODES.policyMet)
          expect(UNHASHED.has(String(path[0])), `delete ${JSON.stringify(path)}: verified`).toBe(true);
      }
    });
  });
}

/**
 * probeD2 F1: a 2,500-10,000-deep array where a string is due (`grader_types`, a receipt's
 * `started_at`) ended in exit 4, "Maximum call stack size exceeded": zod's error stringified the
 * issue's input (the whole nested array). Every field of the small pack set in turn to an array
 * nested as deep as the parser reads (10,000 levels in the whole document; 3,000 overflowed): bad
 * input naming the path (exit 2), or a report whose failing fact names it (exit 1); never exit 4.
 */
describe("deeply nested arrays in every field (probeD2 F1)", () => {
  const original = packTree("small");
  const MARK = "\u0000deep\u0000";
  it("an array nested to the parser's limit in any field: exit 2 or 1 naming its path", async () => {
    let tried = 0;
    for (const path of paths(original)) {
      const tree = clone(original);
      apply(tree, path, { kind: "set", value: MARK });
      // the containers above the field, plus the field's own nesting: MAX_JSON_DEPTH (10,000)
      const levels = 10_000 - path.length;
      const text = write(tree).replace(JSON.stringify(MARK), "[".repeat(levels) + "]".repeat(levels));
      const r = await outcome(new TextEncoder().encode(text));
      const where = `${JSON.stringify(path)} at depth ${levels}`;
      expect(r.code, `${where}: ${String(r.error)}`).not.toBe(4);
      if (r.error !== undefined) {
        expect(r.code, where).toBe(EXIT_CODES.badInput);
        expect((r.error as { path: string }).path, where).toMatch(/^\$/);
      } else if (!UNHASHED.has(String(path[0]))) expect(r.report!.policy_met, where).toBe(false);
      tried++;
    }
    expect(tried).toBeGreaterThan(40);
  }, 180_000);

  it("the probe's fields fail the schema fact naming their JSON path (exit 1)", async () => {
    for (const [path, shown] of [
      [["benchmark", "grader_types", "exact", "semantics"], "$.benchmark.grader_types.exact.semantics"],
      [["winners", 0, "receipt", "started_at"], "$.winners[0].receipt.started_at"],
    ] as [Step[], string][]) {
      const tree = clone(original);
      apply(tree, path, { kind: "set", value: MARK });
      const text = write(tree).replace(JSON.stringify(MARK), "[".repeat(3000) + "]".repeat(3000));
      const r = await outcome(new TextEncoder().encode(text));
      expect(r.code, shown).toBe(EXIT_CODES.policyNotMet);
      expect(r.report!.facts.schema.state, shown).toBe("failed");
      expect(JSON.stringify(r.report!.facts.schema), shown).toContain(
        `${shown}: expected string, got an array`,
      );
    }
  });
});

/** Paths are named on the root as `$` (the whole document), never an empty path. */
describe("odd documents", () => {
  it("a JSON value that is not a pack is bad input at $", async () => {
    for (const text of ["null", "[]", "1", '"pack"', "{}", '{"benchmark":null}', "1e400"]) {
      const r = await outcome(new TextEncoder().encode(text));
      expect(r.code, text).toBe(EXIT_CODES.badInput);
      expect((r.error as { path: string }).path, text).toMatch(/^\$/);
    }
  });
});

/**
 * Malformed packs, one per level and kind (issue 13 item 8 and the probe's leftover): the exit
 * code and the JSON path each must give. A receipt credit that is not `n/d` at all is unreadable
 * (exit 2 at its path; it made the evidence schema throw `BigInt(undefined)` and ended as a failed
 * `schema` fact with no path, exit 1); an unreduced one is readable and fails `schema` at its path.
 */
describe("malformed packs: exit code and JSON path", () => {
  type Edit = (t: any) => void;
  const W = "$.winners[0].receipt.tasks[0].credit";
  const cases: [string, Edit, number, string][] = [
    ...["", "!", "1", "1/", "/2", "1/0", "a/b", "1/2/3", " 1/2", "-1/2"].map(
      (c): [string, Edit, number, string] => [
        `a credit of ${JSON.stringify(c)}`,
        (t) => (t.winners[0].receipt.tasks[0].credit = c),
        2,
        W,
      ],
    ),
    ["a credit that is a number", (t) => (t.winners[0].receipt.tasks[0].credit = 1), 2, W],
    ["a credit that is an object", (t) => (t.winners[0].receipt.tasks[0].credit = {}), 2, W],
    ["a credit of 79 digits", (t) => (t.winners[0].receipt.tasks[0].credit = `${"9".repeat(79)}/1`), 2, W],
    ["winners an object", (t) => (t.winners = {}), 2, "$.winners"],
    ["benchmark a string", (t) => (t.benchmark = "b"), 2, "$.benchmark"],
    ["test_set an object", (t) => (t.test_set = {}), 2, "$.test_set"],
    ["a test-set row a number", (t) => (t.test_set[0] = 7), 2, "$.test_set[0]"],
    ["a prompt a number", (t) => (t.test_set[0].prompt = 7), 2, "$.test_set[0].prompt"],
    ["a receipt's tasks null", (t) => (t.winners[0].receipt.tasks = null), 2, "$.winners[0].receipt.tasks"],
    ["a derivation row an array", (t) => (t.rank_derivation.rows[0] = []), 2, "$.rank_derivation.rows[0]"],
    ["leaf_count 2^53", (t) => (t.benchmark.leaf_count = 2n ** 53n), 2, "$.benchmark.leaf_count"],
    [
      "a task ordinal -1",
      (t) => (t.winners[0].receipt.tasks[0].ordinal = -1),
      2,
      "$.winners[0].receipt.tasks[0].ordinal",
    ],
    [
      "an amount of 79 digits",
      (t) => (t.benchmark.pool_base_units = "9".repeat(79)),
      2,
      "$.benchmark.pool_base_units",
    ],
    [
      "an amount 2^256",
      (t) => (t.winners[0].amount_base_units = (2n ** 256n).toString()),
      2,
      "$.winners[0].amount_base_units",
    ],
    [
      "a score of 101 characters",
      (t) => (t.rank_derivation.rows[0].score_public = `0.${"1".repeat(99)}`),
      2,
      "$.rank_derivation.rows[0].score_public",
    ],
    ["a missing commit_root", (t) => delete t.benchmark.commit_root, 2, "$.benchmark.commit_root"],
    ["missing answers", (t) => delete t.winners[0].answers, 2, "$.winners[0].answers"],
    [
      "a missing rank_accuracy",
      (t) => delete t.rank_derivation.rows[0].rank_accuracy,
      2,
      "$.rank_derivation.rows[0].rank_accuracy",
    ],
    ["an unreduced credit", (t) => (t.winners[0].receipt.tasks[0].credit = "2/4"), 1, W],
    [
      "a grader example credit that is not n/d",
      (t) => (Object.values<any>(t.benchmark.grader_types)[0].examples[0].credit = ""),
      1,
      "$.benchmark.grader_types.",
    ],
  ];
  it.each(cases)("%s", async (_what, edit, code, path) => {
    const tree = packTree("small") as any;
    edit(tree);
    const r = await outcome(canonicalJson(tree));
    expect(r.code, String(r.error)).toBe(code);
    if (code === EXIT_CODES.badInput) {
      expect((r.error as { path: string }).path).toBe(path);
      expect(String((r.error as Error).message).startsWith(`${path}: `)).toBe(true);
    } else {
      expect(r.report!.facts.schema.state).toBe("failed");
      expect(r.report!.facts.schema.reasons.join("\n")).toContain(path);
      expect(r.report!.facts.schema.reasons.join("\n")).not.toMatch(/stopped|BigInt|TypeError/);
    }
  });
});

describe("a uint256 id past 2^256 - 1 (probe13 B2: it met the offline policy, then blamed the RPC)", () => {
  it.each([
    ["2^256", (1n << 256n).toString()],
    ["78 nines", "9".repeat(78)],
    ["79 digits", "1" + "0".repeat(78)],
  ])("bounty_id %s is bad input at $.benchmark.bounty_id (exit 2)", async (_what, id) => {
    const tree = packTree("small");
    (tree.benchmark as Record<string, JsonValue>).bounty_id = id;
    const e = await verifyPack({ source: canonicalJson(tree) }).then(
      () => null,
      (x: unknown) => x,
    );
    expect(isVerifierInputError(e)).toBe(true);
    expect(e).toMatchObject({ code: "out_of_range", path: "$.benchmark.bounty_id" });
    const stderr = new PassThrough();
    expect(reportError(e, { stderr }, "verify")).toBe(EXIT_CODES.badInput);
  });

  // probe29 C-F3: bounty "0" (no bounty has id 0: BenchmarkBounty numbers them from 1) was read, and
  // `verify --indexer` then asked GET /bounties/0 and blamed the --indexer URL for the indexer's 400
  it.each([
    ["a string", "0"],
    ["a JSON integer", 0],
  ])(
    "bounty_id 0 as %s is bad input at $.benchmark.bounty_id (exit 2), before any read",
    async (_what, id) => {
      const tree = packTree("small");
      (tree.benchmark as Record<string, JsonValue>).bounty_id = id;
      const e = await verifyPack({
        source: canonicalJson(tree),
        rpcUrl: "http://127.0.0.1:9/",
        indexerUrl: "http://127.0.0.1:9/",
        policy: "full",
      }).then(
        () => null,
        (x: unknown) => x,
      );
      expect(isVerifierInputError(e)).toBe(true);
      expect(e).toMatchObject({ code: "out_of_range", path: "$.benchmark.bounty_id" });
      expect(String((e as Error).message)).toMatch(/^\$\.benchmark\.bounty_id: bounty id 0 names no bounty/);
      const stderr = new PassThrough();
      expect(reportError(e, { stderr }, "verify")).toBe(EXIT_CODES.badInput);
    },
  );

  it("2^256 - 1 is still read as an id", async () => {
    const tree = packTree("small");
    (tree.benchmark as Record<string, JsonValue>).bounty_id = ((1n << 256n) - 1n).toString();
    const report = await verifyPack({ source: canonicalJson(tree) });
    expect(report.observed).toBeDefined();
  });

  // probe14 D2-F18: 200,000 splits (a 437 KB pack) took 3.7 s of CPU
  it.each(["splits_bps", "place_amounts_base_units"])(
    "%s past 64 places is bad input naming it",
    async (key) => {
      const tree = packTree("small");
      (tree.rank_derivation as Record<string, JsonValue>)[key] = Array(65).fill(
        key === "splits_bps" ? 0 : "0",
      );
      const e = await verifyPack({ source: canonicalJson(tree) }).then(
        () => null,
        (x: unknown) => x,
      );
      expect(e).toMatchObject({ code: "out_of_range", path: `$.rank_derivation.${key}` });
      // 9 places is read, and fails a fact (SPEC 1: 1..8), not refused
      (tree.rank_derivation as Record<string, JsonValue>)[key] = Array(9).fill(
        key === "splits_bps" ? 0 : "0",
      );
      const report = await verifyPack({ source: canonicalJson(tree) });
      expect(report.policy_met).toBe(false);
    },
  );
});
