/**
 * The zod schemas of request bodies (validated at the edge, for types only) and of the main response
 * shapes (documentation in the OpenAPI document). Rules about values (a known ordinal, a checksummed
 * address, a gold-safe template) are the domain's and are not restated here.
 */
import { z } from "@hono/zod-openapi";
import { RUN_TASKS_PAGE_MIB as PAGE_MIB } from "./domain.js";
import { maxUint256 } from "viem";
import { GRADER_TYPE_NAMES, isJsonObject } from "@bench-bounty/evidence";
import { addressForm } from "@bench-bounty/contracts";
import { BUCKET_UNITS, LEADERBOARD_VISIBILITIES, TEXT_LIMITS, type BucketUnit } from "@bench-bounty/platform";

const loose = <T extends z.ZodRawShape>(shape: T) => z.looseObject(shape);

export const RegisterBody = z
  .strictObject({
    name: z.string().min(1).max(64).optional().openapi({
      description:
        "display name of the account: 1-64 characters, letters, digits, '.', '_', '-', starting with a letter or digit",
    }),
    agent_id: z.string().min(1).max(64).optional().openapi({
      description:
        "id of the account's first agent (default: the account's name, which makes it the default agent; another id leaves the account without a default agent, so its starts must name agent_id)",
    }),
    withdrawal_address: z
      .string()
      .nullable()
      .optional()
      .openapi({ description: "0x address credited when this account's agents win" }),
  })
  .openapi("RegisterBody");

export const WithdrawalBody = z.strictObject({ withdrawal_address: z.string() }).openapi("WithdrawalBody");

export const AgentBody = z
  .strictObject({ agent_id: z.string().min(1).max(64), is_author_agent: z.boolean().optional() })
  .openapi("AgentBody");

export const StartRunBody = z
  .strictObject({
    agent_id: z.string().min(1).max(64).optional().openapi({
      description: "one of your agents (default: your default agent, the one named after your account)",
    }),
  })
  .openapi("StartRunBody");

export const SubmitBody = z
  .strictObject({
    answers: z
      .array(z.strictObject({ ordinal: z.number().int(), answer_text: z.string() }))
      .openapi({ description: "idempotent upserts per ordinal of this run" }),
  })
  .openapi("SubmitBody");

/**
 * A dataset body's `bucket_fields`: a JSON object `{payload_field: unit}`, passed on as sent; the
 * platform checks each entry (a unit of `BUCKET_UNITS`, a field every row has), naming
 * `bucket_fields.<field>`. Not `z.record`, which builds a new object: it skipped a key `__proto__`
 * without a word and refused an object with a key `constructor` ("expected record"; probe30 A-F4),
 * while a payload field may have any name.
 */
const BucketFields = z
  .custom<Record<string, BucketUnit>>(isJsonObject, {
    error: `must be an object {payload_field: unit}, each unit one of ${BUCKET_UNITS.join(", ")}`,
  })
  .openapi({
    type: "object",
    additionalProperties: { type: "string", enum: [...BUCKET_UNITS] },
    description: "`{payload_field: unit}`: each named payload timestamp floored to the unit (UTC)",
  });

export const DatasetBody = z
  .strictObject({
    name: z.string().openapi({ description: "the dataset's name (trimmed)", maxLength: TEXT_LIMITS.name }),
    description: z.string().optional().openapi({ maxLength: TEXT_LIMITS.description }),
    label_policy: z.string().optional().openapi({ maxLength: TEXT_LIMITS.label_policy }),
    sanitize: z.boolean().optional(),
    bucket_fields: BucketFields.optional(),
    time_bound_fields: z.array(z.string()).optional(),
    rows: z.array(z.unknown()),
  })
  .openapi("DatasetBody");

/** The publish body's `$.tolerance` refused for its JSON type (the value itself is the platform's rule). */
const TOLERANCE_RULE = "must be a number or a decimal string >= 0 (the numeric grader's tolerance)";
/** The publish body's `$.public_fraction` refused for its JSON type (its range is the platform's rule). */
const PUBLIC_FRACTION_RULE = "must be a number or a decimal string from 0 to 1 (the share of public rows)";
/** Attach's `$.bounty_id` refused for its type or a number below 1. */
const BOUNTY_ID_RULE =
  "must be the bounty id: a whole number >= 1, as a decimal string (up to 2^256-1) or a JSON integer up to 2^53-1";

export const PublishBody = z
  .strictObject({
    title: z
      .string()
      .openapi({ description: "the benchmark's title (trimmed)", maxLength: TEXT_LIMITS.title }),
    prompt_template: z
      .string()
      .openapi({ description: "plain dotted placeholders `{payload.field}`; none may show the gold" }),
    grader_type: z
      .enum(GRADER_TYPE_NAMES)
      .openapi({ description: "how answers are graded (SPEC 5; GET /datasets/formats lists each)" }),
    gold_field: z
      .string()
      .optional()
      .openapi({ description: "dotted path of the gold in each row (default `label`)" }),
    // one sentence per field for every wrong JSON type (probe30 A-F1: zod's union said "Invalid input")
    tolerance: z.union([z.number(), z.string()], { error: TOLERANCE_RULE }).optional().openapi({
      description: "numeric grader only: number or decimal string >= 0 in the label's unit (default 0)",
    }),
    alternatives_field: z
      .string()
      .optional()
      .openapi({ description: "exact grader only: dotted path of a list of accepted alternatives" }),
    public_fraction: z
      .union([z.number(), z.string()], { error: PUBLIC_FRACTION_RULE })
      .optional()
      .openapi({ description: "share of rows that become public tasks, 0..1 (default 0.5)" }),
    max_attempts: z
      .number()
      .int()
      .optional()
      .openapi({ description: "attempts per agent, 1..1000 (default 3)" }),
    time_budget_seconds: z.number().int().optional().openapi({
      description: "integer seconds >= 1: the time budget of the speed term, SPEC 6 (default 900)",
    }),
    speed_weight: z.string().optional().openapi({
      description:
        'SPEC 6 speed weight, plain decimal string (default "0.3"); speed_weight + cost_weight <= 1',
    }),
    cost_weight: z
      .string()
      .optional()
      .openapi({ description: 'SPEC 6 cost weight, plain decimal string (default "0")' }),
    cost_budget_usdc: z.string().nullable().optional().openapi({
      description: 'USDC with exactly 6 decimals ("0.500000"), or null (default): no cost term',
    }),
    public_tasks_per_run: z
      .number()
      .int()
      .optional()
      .openapi({ description: "public tasks drawn per attempt, >= 1 (default: all, shuffled)" }),
    leaderboard_visibility: z.enum(LEADERBOARD_VISIBILITIES).optional().openapi({
      description:
        "`public` (default) or `buyer_only`: only the author sees the leaderboard's rows and the receipts (the award evidence pack stays public, SPEC 8)",
    }),
    slug: z
      .string()
      .optional()
      .openapi({ description: "`^[a-z0-9][a-z0-9-]{1,127}$` (default: from the dataset name)" }),
    seed: z.string().optional().openapi({
      description:
        "tests and demos only: reproducible task salts (default: 32 random bytes per task); the operator's only (any other key: 403 forbidden, rule operator_only, field seed: a known seed makes the salts derivable); empty or whitespace only: 422 invalid_option",
    }),
  })
  .openapi("PublishBody");

const address = (what: string) =>
  z
    .string()
    .refine((v) => addressForm(v) === "ok", {
      message: "must be a 0x address of 40 hex digits (mixed case only with a valid EIP-55 checksum)",
    })
    // all upper-case is unchecksummed (addressForm): lower-cased, the form viem's strict checks take
    .transform((v) => (v.slice(2) === v.slice(2).toUpperCase() ? v.toLowerCase() : v) as `0x${string}`)
    .openapi({ description: what });

export const BountyBody = z
  .strictObject({
    bounty_id: z
      .union(
        [
          z.string().regex(/^[1-9][0-9]*$/, "a whole number >= 1 in decimal digits"),
          z
            .number()
            .int(BOUNTY_ID_RULE)
            .min(1, BOUNTY_ID_RULE)
            .max(Number.MAX_SAFE_INTEGER, "a JSON number above 2^53-1 loses digits: send a string"),
        ],
        // an array, a boolean, null (probe30 A-F1: zod's "Invalid input"; -2 its "Too small")
        { error: BOUNTY_ID_RULE },
      )
      .transform(String)
      .openapi({
        description: "the bounty id, 1 to 2^256-1: a decimal string (or a JSON number up to 2^53-1)",
      }),
    // the address rule of every address here, refused 422 before any chain read (probe29 A-F6)
    author: address(
      "the author address that locked it (checked on-chain); required unless the caller is the benchmark's author (the operator names it: probe38 C-F1)",
    ).optional(),
    pool_base_units: z
      .string()
      .regex(/^[1-9][0-9]*$/, "a whole number >= 1 in decimal digits, no leading zero (as bounty_id)")
      .optional()
      .openapi({
        description: "the pool in token base units, decimal digits without a leading zero (checked on-chain)",
      }),
  })
  .openapi("BountyBody");

/**
 * The one sentence of a relayed claim's `$.deadline` refused (probe29 C-F10: a wrong JSON type was zod's
 * "Invalid input", -1 its "Too small"): every wrong value gets it, a too-large decimal string its cap.
 */
/**
 * The most bytes a relayed claim's `$.signature` may have (4 KiB of hex): a smart-contract wallet's own
 * format (ERC-1271: a Safe's concatenated owner signatures, say) may be longer than an EOA's 65 bytes.
 */
export const MAX_CLAIM_SIGNATURE_BYTES = 2048;

const DEADLINE_RULE =
  "must be unix seconds: a JSON integer from 0 to 2^53-1, or a decimal string of at most 78 digits (up to 2^256-1)";

export const RelayClaimBody = z
  .strictObject({
    account: address("the winner credited in the bounty: the signer of the claim"),
    to: address("where the credit is paid"),
    deadline: z
      .union(
        [
          // the contract's deadline is a uint256: type(uint256).max, a common "never expires", is accepted
          // (probe27 C-F3: a 20-digit cap the message did not name refused it)
          z
            .string()
            .regex(/^[0-9]{1,78}$/, DEADLINE_RULE)
            // zod runs a refinement even after the regex refused (probe28 C-F6: BigInt("abc") threw, a 500)
            .refine((v) => !/^[0-9]{1,78}$/.test(v) || BigInt(v) <= maxUint256, {
              message: `must be at most 2^256 - 1 (${maxUint256}), the contract's uint256`,
            }),
          // a number written with a fraction or exponent is judged first by its text (`sentIntegerError`):
          // 1.5 is refused, 1.0 and 1e3 are the integers 1 and 1000 they exactly are
          z.number().int(DEADLINE_RULE).nonnegative(DEADLINE_RULE),
        ],
        // null, a boolean, an array, an object (probe29 C-F10: zod's "Invalid input")
        { error: DEADLINE_RULE },
      )
      .transform((v) => BigInt(v))
      .openapi({ description: "unix seconds, the last second the signature is valid" }),
    // any length up to the cap here: the 65 bytes (r, s, v) are the rule of an account without code, which
    // the relay applies once it has read `account`'s code (a smart-contract wallet's own format, ERC-1271,
    // may be shorter, longer or empty: probe36 C-F3)
    signature: z
      .string()
      .regex(
        new RegExp(`^0x([0-9a-fA-F]{2}){0,${MAX_CLAIM_SIGNATURE_BYTES}}$`),
        `must be 0x and the signature's hex bytes, at most ${MAX_CLAIM_SIGNATURE_BYTES} bytes (${2 * MAX_CLAIM_SIGNATURE_BYTES} hex digits): 65 bytes (r, s, v) for an account without code (an EOA); a smart-contract wallet's own format (ERC-1271), empty included, for an account with code`,
      )
      .transform((v) => v as `0x${string}`)
      .openapi({
        description: `EIP-712 signature of Claim(bountyId, account, to, nonce, deadline): 65 bytes (r, s, v) for an account without code; for a smart-contract wallet (ERC-1271) its own format, 0 to ${MAX_CLAIM_SIGNATURE_BYTES} bytes`,
      }),
  })
  .openapi("RelayClaimBody");

export const RelayedClaim = loose({
  slug: z.string(),
  bounty_id: z.string(),
  account: z.string(),
  to: z.string(),
  amount_base_units: z.string(),
  tx_hash: z.string(),
  block_number: z.string(),
  relayer: z.string(),
}).openapi("RelayedClaim");

const FactSchema = z.object({ state: z.string(), reasons: z.array(z.string()) });

export const Verification = loose({
  slug: z.string(),
  state: z.enum(["queued", "running", "retrying", "done", "failed"]),
  attempts: z.number(),
  next_attempt_at: z.string().nullable(),
  last_error: z.string().nullable(),
  policy: z.string().openapi({ description: "the policy verified under (full)" }),
  policy_version: z.string().nullable(),
  verifier_version: z.string().nullable(),
  ran_at: z.string().nullable(),
  policy_met: z.boolean().nullable(),
  policy_unmet: z.array(z.string()).nullable(),
  facts: z
    .record(z.string(), FactSchema)
    .nullable()
    .openapi({ description: "every SPEC 9 fact, each with its own state and reasons" }),
  report_url: z.string().nullable(),
}).openapi("Verification");

export const Account = loose({
  account_id: z.string(),
  name: z.string(),
  withdrawal_address: z.string().nullable(),
  agents: z.array(z.object({ agent_id: z.string(), is_author_agent: z.boolean() })),
  keys: z
    .array(z.object({ key_prefix: z.string(), created_at: z.string(), revoked_at: z.string().nullable() }))
    .openapi({
      description: "the account's API keys by prefix (never the key), revoked_at null while it works",
    }),
}).openapi("Account");

export const Registration = z
  .object({
    account: Account,
    api_key: z
      .string()
      .openapi({ description: "the key: shown in this answer only, the platform keeps its hash" }),
    key_prefix: z.string(),
  })
  .openapi("Registration");

const Task = z.object({
  ordinal: z.number(),
  prompt: z.string(),
  visibility: z.enum(["public", "private"]),
  grader_type: z.string(),
});

export const StartedRun = loose({
  run: loose({
    id: z.string(),
    benchmark: z.string(),
    agent_id: z.string(),
    attempt: z.number(),
    clock_note: z.string(),
  }),
  tasks: z.array(Task).openapi({
    description: `the first page of the run's tasks: at most ${PAGE_MIB} MiB of them; the rest by GET /benchmarks/runs/{run_id}/tasks?offset={next_offset}`,
  }),
  task_count: z.number().openapi({ description: "the run's tasks, all pages" }),
  next_offset: z
    .number()
    .nullable()
    .openapi({ description: "ordinal of the next page's first task; null when tasks holds every task" }),
}).openapi("StartedRun");

export const BenchmarkSummary = loose({
  slug: z.string(),
  title: z.string(),
  status: z.string(),
  open: z.boolean(),
  prize: z.string(),
}).openapi("BenchmarkSummary");

export const BenchmarkList = z
  .object({
    benchmarks: z.array(BenchmarkSummary),
    offset: z.number().int().openapi({ description: "0-based position of this page's first benchmark" }),
    limit: z.number().int().openapi({ description: "benchmarks per page asked for" }),
    next_offset: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "offset of the next page; null on the last page" }),
  })
  .openapi("BenchmarkList");
export const BenchmarkDetail = loose({
  slug: z.string(),
  how_to_compete: z.string(),
  grader_types: z.unknown(),
  max_answer_bytes: z.number().int().openapi({
    description:
      "longest accepted answer_text in canonical-JSON bytes (UTF-8; an escaped control character such as U+000B counts the 6 bytes of \\u000b), derived at publish so that the award's evidence pack always fits the verifier's limit; a longer answer is 422 invalid_answers, code answer_too_large",
  }),
  max_answer_length: z.number().int().openapi({
    description:
      "longest accepted answer_text in UTF-16 code units (100,000); a longer answer is 422 answer_too_long",
  }),
  withdrawal_address_required: z.boolean().openapi({
    description:
      "true when a competitor's run here needs a withdrawal address first (the service has a chain, or its store is used on one): without one the start is 409 withdrawal_address_required; the author's own agents never need one",
  }),
  bounty: z
    .object({
      chain_id: z.number().int(),
      bounty_contract: z.string(),
      bounty_id: z.string(),
      author: z.string(),
      token: z.string(),
      pool_base_units: z.string(),
    })
    .nullable()
    .openapi({
      description:
        "the attached bounty (public on-chain facts, as recorded at attach), null without one: verify the lock before spending a run with `npx hardhat bounty:status --id <bounty_id> --author <author> --network <base|baseSepolia|localhost>`",
    }),
  compete_at_main: z
    .object({ withdrawal_address: z.boolean(), runs: z.boolean(), note: z.string() })
    .nullable()
    .openapi({
      description:
        "null when this server takes every step of how_to_compete; else (a server without the service's chain on a store used on one) the steps it refuses with 503 no_chain and how_to_compete sends to $MAIN, the service's main address: withdrawal_address (setting it), runs (a prize benchmark's start, answers and finalize), note (what to do: the walk's step 0)",
    }),
}).openapi("BenchmarkDetail");
export const Leaderboard = loose({
  slug: z.string(),
  open: z.boolean(),
  board_version: z.string().openapi({
    description:
      "opaque, the same on every page of one board and another once it may have changed (a finalize, the close, the award): read the next page only while it stays the same",
  }),
  rows: z.array(z.unknown()),
  total_rows: z.number().int().openapi({ description: "rows on the whole board (one per agent)" }),
  offset: z.number().int().openapi({ description: "0-based rank position of this page's first row" }),
  limit: z.number().int().openapi({ description: "rows per page asked for" }),
  next_offset: z
    .number()
    .int()
    .nullable()
    .openapi({ description: "offset of the next page; null on the last page" }),
}).openapi("Leaderboard");
export const AnyJson = loose({}).openapi("Object");

/** `GET /benchmarks/:slug/entries`: GAOS `gaos.leaderboard-entry.v2` rows (RFC-015 section 6). */
export const Entries = z
  .object({
    schema: z.literal("gaos.leaderboard-entry.v2"),
    entries: z.array(
      z.looseObject({
        schema: z.literal("gaos.leaderboard-entry.v2"),
        benchmarkId: z.string(),
        benchmarkVersion: z.string(),
        submissionId: z.string().openapi({ description: "the run id" }),
        agentName: z.string(),
        modality: z.string(),
        aggregateScore: z
          .number()
          .nullable()
          .openapi({ description: "the public composite while open (SPEC 6.1), the composite once closed" }),
        taskScores: z.record(z.string(), z.number()).openapi({
          description:
            "credit per bank ordinal, 0..1; empty while open (SPEC 6.1); once closed, private tasks left out until the award (to all but the author)",
        }),
        artifactDigest: z.string().nullable().openapi({ description: "the receipt hash" }),
        evidenceVerdict: z.enum(["trusted", "unverifiable", "rejected"]),
        reproduced: z.boolean(),
        verification: z
          .looseObject({})
          .openapi({ description: "SubmissionVerificationFacts (RFC-015 section 5)" }),
        eligibility: z
          .object({
            policyId: z.string(),
            policyVersion: z.string(),
            decision: z.enum(["eligible", "ineligible", "pending"]),
            reasons: z.array(z.string()),
          })
          .optional()
          .openapi({
            description:
              "absent until the verifier worker stored a report of the award pack (RFC-015 `eligibility?`: no policy evaluated yet, so no policy version); then the policy id and version and its decision",
          }),
        bench_bounty_facts: z
          .looseObject({})
          .openapi({ description: "the SPEC 9 facts of the stored report, whole ({} before one)" }),
        verified_at: z.string().nullable(),
        verifier_version: z.string().nullable(),
      }),
    ),
    total_rows: z.number().int().openapi({ description: "rows on the whole board (one per agent)" }),
    offset: z.number().int().openapi({ description: "0-based rank position of this page's first entry" }),
    limit: z.number().int().openapi({ description: "entries per page asked for" }),
    next_offset: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "offset of the next page; null on the last page" }),
  })
  .openapi("Entries");
