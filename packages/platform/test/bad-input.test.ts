import Database from "better-sqlite3";
import { execFileSync, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_LOCK_UNIX_SECONDS } from "@bench-bounty/evidence";
import { ChainGateway } from "../src/chain.js";
import { csvToDataset } from "../src/csv.js";
import { Platform } from "../src/platform.js";
import { benchmarkConfig } from "../src/publish.js";
import { invokedAs } from "../src/cli/common.js";
import { RESUME_KEY_NOTE } from "../src/cli/run-commands.js";
import { pastedArgs } from "../src/testing.js";
import {
  cleanup,
  refusal,
  runCli as runCliOf,
  tempDir,
  cliAccount,
  helperAddress,
  programPattern,
} from "./helpers.js";

/**
 * The helpers' `runCli` with the open's genesis read answered (store28 R-F1): the chain of
 * {@link UNREACHABLE_CHAIN} answers it and is down for the rest, the outage these tests are about
 * (`runCli` restores every mock when it ends: the answer is set again for each command).
 */
const runCli = (...args: string[]) => {
  vi.spyOn(ChainGateway.prototype, "genesisHash").mockResolvedValue(`0x${"ab".repeat(32)}`);
  return runCliOf(...args);
};

afterEach(() => {
  cleanup();
  process.exitCode = 0;
  vi.restoreAllMocks();
});

/** A small CSV (`date,temp,weather`) in a fresh directory. */
const AGENT = fileURLToPath(new URL("./fixtures/agent.mjs", import.meta.url));

function goodCsv(): string {
  const file = join(tempDir(), "good.csv");
  writeFileSync(
    file,
    "date,temp,weather\n2026-01-01,3,rain\n2026-01-02,5,sun\n2026-01-03,4,fog\n2026-01-04,6,snow\n",
  );
  return file;
}

/** `publish` of {@link goodCsv} (label `weather`, decision time `date`, title `t`, grader `exact`) with a template and extra flags. */
function publishCsv(store: string, template: string, ...extra: string[]) {
  return runCli(
    "publish",
    goodCsv(),
    "--label",
    "weather",
    "--decision-ts",
    "date",
    ...extra,
    "--store",
    store,
    "--title",
    "t",
    "--template",
    template,
    "--grader",
    "exact",
  );
}

/** Chain options of the CLI naming an RPC URL nothing listens on (and placeholder contract addresses). */
const UNREACHABLE_CHAIN = [
  "--rpc-url",
  "http://127.0.0.1:1",
  "--bounty-contract",
  "0x" + "22".repeat(20),
  "--anchor-registry",
  "0x" + "33".repeat(20),
];

/** Registers `agentId` of the account of `key` with its withdrawal address, on no chain (nothing to read). */
async function agentWithAddress(store: string, key: string, agentId: string): Promise<void> {
  const r = await runCli(
    ...["agent", agentId, "--store", store, "--api-key", key, "--withdrawal-address", helperAddress(agentId)],
  );
  expect(r.code, r.err).toBe(0);
}

/**
 * Publishes the weather CSV as `slug` on a new store with the chain unreachable (its anchors stay pending).
 * `before` runs on the new store first, while no process with a chain has opened it: a withdrawal address
 * set there needs no chain (after, the chain-marked store refuses it without one: probe29 C-F8).
 */
async function publishWithChainDown(
  slug: string,
  before?: (store: string) => Promise<void>,
): Promise<string> {
  vi.stubEnv("BENCH_BOUNTY_PRIVATE_KEY", "0x" + "11".repeat(32));
  const store = join(tempDir(), "store");
  await before?.(store);
  const pub = await publishCsv(
    store,
    "Temp {payload.temp} on {payload.date}?",
    "--slug",
    slug,
    ...UNREACHABLE_CHAIN,
  );
  expect(pub.code, pub.err).toBe(0);
  return store;
}

/** `lock SLUG` on `store` against {@link UNREACHABLE_CHAIN}: a 10 USDC winner-take-all prize, no close time. */
const lockArgs = (slug: string, store: string): string[] => [
  "lock",
  slug,
  "--store",
  store,
  ...UNREACHABLE_CHAIN,
  "--pool",
  "10",
  "--threshold-bps",
  "5000",
  "--payout-rule",
  "winner_take_all",
];

describe("a template or payload cannot show the gold", () => {
  it("publish refuses {label} (default gold), naming the placeholder, and stores nothing", async () => {
    const store = join(tempDir(), "st");
    const r = await publishCsv(store, "{label}");
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error: prompt_template: \{label\} would show the gold \(gold_field label\)/);
    expect(r.err).toContain('"reason": "reveals_gold"');
    expect(existsSync(store)).toBe(false);
  });

  it("an empty --payload (or an empty name in it) is refused, not read as every column (probe28 B-F12)", async () => {
    for (const payload of ["", "date,,temp", " "]) {
      const store = join(tempDir(), "st");
      const r = await publishCsv(store, "Temp {payload.temp}?", "--payload", payload);
      expect(r.code, payload).toBe(1);
      expect(r.err).toMatch(/^error: --payload .*: an empty column name/);
      expect(existsSync(store)).toBe(false);
    }
  });

  it("a field given twice to --bucket is refused naming both units (probe28 B-F12)", async () => {
    const store = join(tempDir(), "st");
    const r = await publishCsv(
      store,
      "Temp {payload.temp}?",
      "--bucket",
      "date=day",
      "--bucket",
      "date=hour",
    );
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error: --bucket date is given twice \(day and hour\)/);
    expect(existsSync(store)).toBe(false);
  });

  // probe29 B-F2: a single-valued option given twice was read as its last value (publish published
  // public_fraction 0.75 and seed b; lock would lock the last --pool)
  it("a single-valued option given twice is refused naming it and both values (probe29 B-F2)", async () => {
    const store = join(tempDir(), "st");
    const pub = await publishCsv(
      store,
      "Temp {payload.temp}?",
      "--public-fraction",
      "0.5",
      "--public-fraction",
      "0.75",
    );
    expect(pub.code).toBe(1);
    expect(pub.err).toContain(
      `option '--public-fraction <f>' is given twice ("0.5" and "0.75"): give it once`,
    );
    const seed = await publishCsv(store, "Temp {payload.temp}?", "--seed", "a", "--seed=b");
    expect(seed.code).toBe(1);
    expect(seed.err).toContain(`option '--seed <seed>' is given twice ("a" and "b")`);
    expect(existsSync(store)).toBe(false);
    // the money commands: refused before any key, store or chain is read
    const lock = await runCli(
      "lock",
      "demo",
      "--store",
      store,
      "--pool",
      "1",
      "--pool",
      "100",
      "--threshold-bps",
      "0",
      "--payout-rule",
      "winner_take_all",
      "--closes-in",
      "60",
    );
    expect(lock.code).toBe(1);
    expect(lock.err).toContain(`option '--pool <usdc>' is given twice ("1" and "100")`);
    const award = await runCli(
      "award",
      "demo",
      "--store",
      store,
      "--rpc-url",
      "http://127.0.0.1:1",
      "--rpc-url",
      "http://127.0.0.1:2",
    );
    expect(award.code).toBe(1);
    expect(award.err).toContain(
      `option '--rpc-url <url>' is given twice ("http://127.0.0.1:1" and "http://127.0.0.1:2")`,
    );
    const run = await runCli(
      "run",
      "demo",
      "--store",
      store,
      "--agent",
      "true",
      "--agent",
      "false",
      "--agent-id",
      "x",
    );
    expect(run.code).toBe(1);
    expect(run.err).toContain(`option '--agent <command>' is given twice ("true" and "false")`);
    expect(existsSync(store)).toBe(false);
  });

  it("variadic and repeatable options still take every value (probe29 B-F2)", async () => {
    const store = join(tempDir(), "st");
    // --agent-env is repeatable: its second name is read (and refused by its own rule, naming it)
    const env = await runCli(
      "run",
      "demo",
      "--store",
      store,
      "--agent",
      "true",
      "--agent-id",
      "x",
      "--agent-env",
      "PATH",
      "--agent-env",
      "BENCH_BOUNTY_AUTHOR_KEY",
    );
    expect(env.code).toBe(1);
    expect(env.err).toMatch(/^error: --agent-env BENCH_BOUNTY_AUTHOR_KEY: the runner's own secrets/m);
    // --bucket is variadic: a second occurrence reaches its own rule (one unit per field, probe28 B-F12)
    const bucket = await publishCsv(
      store,
      "Temp {payload.temp}?",
      "--bucket",
      "date=day",
      "--bucket",
      "date=hour",
    );
    expect(bucket.err).toMatch(/^error: --bucket date is given twice \(day and hour\)/);
    const ok = await publishCsv(
      store,
      "Temp {payload.temp}?",
      "--bucket",
      "date=day",
      "--sanitize",
      "--sanitize",
    );
    expect(ok.code, ok.err).toBe(0);
  });

  it("publish refuses --payload listing the label column, naming the column", async () => {
    const r = await publishCsv(join(tempDir(), "st"), "{payload.weather}", "--payload", "date,weather");
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error: CSV mapping payload: column "weather" is the label column/);
    expect(() =>
      csvToDataset(
        "d,w\n2026-01-01,x\n",
        { decision_ts: "d", label: "w", payload: ["d", "w"] },
        { name: "t" },
      ),
    ).toThrow(/column "w" is the label column/);
  });

  it("a placeholder equal to, inside or containing a gold path is refused; other label fields are not", () => {
    const base = { title: "t", grader_type: "exact" as const };
    for (const [template, extra, placeholder] of [
      ["Q {payload.a} {label}", {}, "label"],
      ["Q {label.x}", {}, "label.x"],
      ["Q {label}", { gold_field: "label.x" }, "label"],
      ["Q {label.x.y}", { gold_field: "label.x" }, "label.x.y"],
      ["Q {payload.ans}", { gold_field: "payload.ans" }, "payload.ans"],
      ["Q {label.alts}", { gold_field: "label.v", alternatives_field: "label.alts" }, "label.alts"],
    ] as const) {
      const e = refusal(() => benchmarkConfig({ ...base, prompt_template: template, ...extra }));
      expect(e.code, template).toBe("invalid_template");
      expect(e.details).toMatchObject({ placeholder, reason: "reveals_gold" });
    }
    expect(
      benchmarkConfig({ ...base, prompt_template: "Q {label.hint}", gold_field: "label.v" }).gold_field,
    ).toBe("label.v");
    expect(
      benchmarkConfig({ ...base, prompt_template: "Q {label.xy}", gold_field: "label.x" }).gold_field,
    ).toBe("label.x");
  });
});

describe("publish flags a typo or an unset variable would pass are refused, naming them (probe28)", () => {
  // B-F2: `--seed "$UNSET"` published with the seed everybody knows
  it.each([
    ["empty", ""],
    ["whitespace only", " \t "],
  ])("--seed %s: refused naming --seed, nothing stored", async (_, seed) => {
    const store = join(tempDir(), "st");
    const r = await publishCsv(store, "Temp {payload.temp}?", "--seed", seed);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error: --seed is empty or only whitespace/);
    expect(r.err).toContain('"field": "seed"');
    expect(existsSync(store)).toBe(false);
  });

  // B-F3: a field of the dataset itself was `row -1`
  it("--name '': refused naming the field, no row", async () => {
    const r = await publishCsv(join(tempDir(), "st"), "Temp {payload.temp}?", "--name", "");
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error: dataset: field name: name is required \(a non-empty string\)\n/);
    expect(r.err).not.toContain("row -1");
    // no row named; the list keeps its documented -1 for a field of the dataset (DatasetReport.errors)
    const { details } = JSON.parse(r.err.slice(r.err.indexOf("\n") + 1)) as { details: object };
    expect(details).not.toHaveProperty("row_index");
    expect(details).toMatchObject({ field: "name", errors: [{ row_index: -1, field: "name" }] });
  });

  // B-F4: its --gold-field twin was refused, the alternatives field published
  it("--alternatives-field naming a field no row has: refused naming row 0 and the field, as --gold-field is", async () => {
    const store = join(tempDir(), "st");
    const alt = await publishCsv(store, "Temp {payload.temp}?", "--alternatives-field", "nope");
    expect(alt.code).toBe(1);
    expect(alt.err).toMatch(
      /^error: gold: row 0, field nope: alternatives field nope is missing from the row/,
    );
    const gold = await publishCsv(store, "Temp {payload.temp}?", "--gold-field", "nope");
    expect(gold.code).toBe(1);
    expect(gold.err).toMatch(/^error: gold: row 0, field nope: gold field nope is missing from the row/);
    // the dataset is stored (as for --gold-field), no benchmark published from it
    const list = await runCli("datasets", "--store", store);
    expect(list.code, list.err).toBe(0);
    expect(JSON.parse(list.out).datasets).toEqual([expect.objectContaining({ benchmark: null })]);
  });
});

describe("a store file that is not the platform's is refused in one line", () => {
  it("junk in platform.sqlite: show names the file, exit 1, no stack", async () => {
    const store = tempDir();
    const file = join(store, "platform.sqlite");
    writeFileSync(file, "junk\n");
    const r = await runCli("show", "x", "--store", store);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error: .*platform\.sqlite is not a bench-bounty store: file is not a database\n/);
    expect(r.err).toContain(file);
    expect(r.err).not.toMatch(/SqliteError|at .*\.[jt]s:\d+/);
    expect(readFileSync(file, "utf8")).toBe("junk\n");
  });

  it("someone else's SQLite database is refused, not extended; an empty file becomes a store", async () => {
    const store = tempDir();
    const file = join(store, "platform.sqlite");
    const other = new Database(file);
    other.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
    other.close();
    const r = await runCli("show", "x", "--store", store);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /^error: .*platform\.sqlite is not a bench-bounty store: .*meta\.schema_version \(tables: notes\)/,
    );
    const check = new Database(file, { readonly: true });
    expect(check.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([
      { name: "notes" },
    ]);
    check.close();

    const fresh = tempDir();
    writeFileSync(join(fresh, "platform.sqlite"), "");
    const p = await Platform.open({ dir: fresh });
    expect(await p.listBenchmarks()).toEqual([]);
    await p.close();
    const again = await Platform.open({ dir: fresh });
    await again.close();
  });
});

describe("a corrupt run checkpoint is refused in one line", () => {
  it("resume with garbage or a non-checkpoint in runs/<run_id>.json names the file, exit 1", async () => {
    const store = tempDir();
    await (await Platform.open({ dir: store })).close();
    const file = join(store, "runs", "run-0123456789abcdef.json");
    writeFileSync(file, "garbage\n");
    let r = await runCli("resume", "run-0123456789abcdef", "--store", store);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error: checkpoint .*run-0123456789abcdef\.json is not valid JSON/);
    expect(r.err).toContain(file);
    expect(r.err.split("\n")[0]).toMatch(/is not valid JSON \(.*\)$/);
    expect(r.err).not.toMatch(/SyntaxError|at .*\.[jt]s:\d+/);
    writeFileSync(file, "[1, 2]\n");
    r = await runCli("resume", "run-0123456789abcdef", "--store", store);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error: checkpoint .*run-0123456789abcdef\.json is not a run checkpoint/);
  });
});

/**
 * Publishes {@link goodCsv} as `slug` and starts, as a new account given by `--api-key`, a run whose
 * agent cannot start (`nonexistent-cmd-xyz`): the run stays in progress with its checkpoint.
 */
async function runThatCannotStart(slug: string, ...extra: string[]) {
  const store = join(tempDir(), "st");
  const pub = await publishCsv(store, "Temp {payload.temp} on {payload.date}?", "--slug", slug);
  expect(pub.code).toBe(0);
  const key = await cliAccount(store, `${slug}-owner`);
  const r = await runCli(
    ...["run", slug, "--store", store, "--api-key", key, "--agent", "nonexistent-cmd-xyz"],
    ...["--agent-id", `${slug}1`, ...extra, "--no-progress"],
  );
  return { store, key, r };
}

/** Every member of a run checkpoint and values of the wrong JSON type for it (probe21 B-F8). */
const CHECKPOINT_FUZZ: Array<[path: string[], bad: unknown[]]> = [
  [["schema"], [[1], null, 1, "bench-bounty.runner-checkpoint.v0"]],
  [["run_id"], [[1], null, 1, {}, "run-ffffffffffffffff"]],
  [["benchmark"], [[1], null, 1, true, ""]],
  [["agent_id"], [[1], null, 1, {}]],
  [["attempt"], ["1", [1], null, 1.5, 0, -1]],
  [["agent"], ["x", [1], null]],
  [
    ["agent", "kind"],
    [[1], null, "shell"],
  ],
  [
    ["agent", "command"],
    [[1], null, 7],
  ],
  [
    ["agent", "cwd"],
    [[1], 7],
  ],
  [
    ["agent", "env_names"],
    ["HOME", [1], {}],
  ],
  [["options"], ["x", [1], null]],
  [
    ["options", "concurrency"],
    ["1", [1], null, 0, 1.5],
  ],
  [
    ["options", "batch_size"],
    ["1", null, -2],
  ],
  [
    ["options", "task_timeout_ms"],
    ["60000", null, {}],
  ],
  [
    ["options", "invalid_answer_policy"],
    [[1], null, "ignore"],
  ],
  [["backend"], [[1], null, 1]],
  [["task_count"], ["4", null, -1, 0.5]],
  [["tasks_digest"], [[1], null, 1, "0x12"]],
  [["outcomes"], ["x", [1], null]],
  [
    ["outcomes", "0"],
    ["x", [1], null, { ordinal: "0", status: "answered" }, { ordinal: 0, status: "done" }],
  ],
];

describe("a run checkpoint whose members have the wrong JSON types is refused naming the JSON path (probe21 B-F8)", () => {
  it("resume refuses each damaged member in one line (exit 1, never an internal error) and resumes from the intact file", async () => {
    const { store, key, r: failed } = await runThatCannotStart("ckpt");
    expect(failed.code, failed.err).toBe(1);
    const runId = /resume (run-[0-9a-f]{16})/.exec(failed.err)![1]!;
    const file = join(store, "runs", `${runId}.json`);
    const intact = readFileSync(file, "utf8");
    const original = JSON.parse(intact) as Record<string, unknown>;
    original.outcomes = { "0": { ordinal: 0, status: "error", reason: "r" } };
    original.agent = { kind: "command", command: "x", cwd: "/tmp" };
    for (const [path, values] of CHECKPOINT_FUZZ)
      for (const bad of [...values, undefined]) {
        if (
          bad === undefined &&
          (path.at(-1) === "cwd" || path.at(-1) === "env_names" || path.at(-1) === "0")
        )
          continue; // optional members
        const doc = structuredClone(original);
        let at = doc as Record<string, unknown>;
        for (const k of path.slice(0, -1)) at = at[k] as Record<string, unknown>;
        if (bad === undefined) delete at[path.at(-1)!];
        else at[path.at(-1)!] = bad;
        writeFileSync(file, JSON.stringify(doc));
        const r = await runCli("resume", runId, "--store", store, "--api-key", key);
        const label = `${path.join(".")} = ${JSON.stringify(bad)}`;
        // `$.options.concurrency`, `$.outcomes["0"]`, as a pattern
        const jsonPath = ("$" + path.map((k) => (/^\d+$/.test(k) ? `["${k}"]` : `.${k}`)).join("")).replace(
          /[$.[\]"]/g,
          "\\$&",
        );
        expect(r.code, `${label}: ${r.err}`).toBe(1);
        expect(r.err, label).toMatch(
          new RegExp(`^error: checkpoint ${file} is not a run checkpoint.*: ${jsonPath}(?![\\w])`),
        );
        // one line, then the {code, details} naming the JSON path
        expect(JSON.parse(r.err.slice(r.err.indexOf("\n") + 1)), label).toMatchObject({
          code: "invalid_checkpoint",
          details: { json_path: expect.stringMatching(new RegExp(`^${jsonPath}`)) },
        });
        expect(r.err, label).not.toMatch(/internal error|SQLite3|at .*\.[jt]s:\d+/);
      }
    writeFileSync(file, intact);
    const resumed = await runCli(
      ...["resume", runId, "--store", store, "--api-key", key],
      ...["--agent", `node ${AGENT}`, "--no-progress"],
    );
    expect(resumed.code, resumed.err).toBe(0);
    expect(JSON.parse(resumed.out)).toMatchObject({ run_id: runId, attempt: 1 });
  });
});

// probe23 F4: a checkpoint that was a symlink to /dev/zero grew resume to 16.8 GB; a FIFO there blocked it
describe("a run checkpoint that is not a regular file is refused unread", () => {
  it("resume on a checkpoint that is a symlink to /dev/zero, a FIFO or a directory: one line, exit 1", async () => {
    const { store, key, r: failed } = await runThatCannotStart("ckptfile");
    const runId = /resume (run-[0-9a-f]{16})/.exec(failed.err)![1]!;
    const file = join(store, "runs", `${runId}.json`);
    const make: [string, () => void][] = [
      ["a symlink to /dev/zero", () => symlinkSync("/dev/zero", file)],
      ["a FIFO", () => execFileSync("mkfifo", [file])],
      ["a directory", () => mkdirSync(file)],
    ];
    for (const [what, put] of make) {
      rmSync(file, { recursive: true, force: true });
      put();
      const r = await runCli("resume", runId, "--store", store, "--api-key", key);
      expect(r.code, `${what}: ${r.err}`).toBe(1);
      expect(r.err, what).toMatch(new RegExp(`^error: checkpoint .* is not a regular file`));
      expect(JSON.parse(r.err.slice(r.err.indexOf("\n") + 1)), what).toMatchObject({
        code: "invalid_checkpoint",
      });
    }
  });
});

describe("commands that read refuse a store that does not exist and create nothing", () => {
  it("show, leaderboard, evidence, close, resume, datasets, delete-dataset, account keys on a missing store: no store at ..., nothing written", async () => {
    const root = tempDir();
    const store = join(root, "deep", "a", "b", "c");
    for (const args of [
      ["show", "x"],
      ["leaderboard", "x"],
      ["evidence", "x"],
      ["close", "x"],
      ["resume", "run-0123456789abcdef"],
      // probe21 B-F7: these created an empty store and answered `[]` / `no dataset`
      ["datasets"],
      ["delete-dataset", "ds-x"],
      ["account", "keys"],
      ["account", "issue-key"],
      ["anchor", "x", "--list"],
    ]) {
      const r = await runCli(...args, "--store", store);
      expect(r.code, args[0]).toBe(1);
      expect(r.err, args[0]).toMatch(new RegExp(`^error: --store ${store}: no store at ${store}`));
      expect(existsSync(join(root, "deep")), args[0]).toBe(false);
    }
    // an existing folder without platform.sqlite is not a store either, and stays empty
    const empty = tempDir();
    const r = await runCli("show", "x", "--store", empty);
    expect(r.err).toMatch(/no store at/);
    expect(readdirSync(empty)).toEqual([]);
    // an existing store still answers: the benchmark is unknown
    await (await Platform.open({ dir: empty })).close();
    const known = await runCli("show", "x", "--store", empty);
    expect(known.code).toBe(1);
    expect(known.err).toMatch(/^error: .*x/);
    expect(known.err).not.toMatch(/no store/);
  });
});

describe("an agent command that cannot start", () => {
  it("run says no attempt was used, shows the stderr tail and the exact resume command, which works as printed", async () => {
    const { store, key, r } = await runThatCannotStart("probe", "--attempts", "2");
    expect(r.code).toBe(1);
    expect(r.out).toBe(""); // nothing finalized, no summary
    expect(r.err).toMatch(
      /^error: the agent failed before any answer was submitted \(task \d+: error: agent exited with status 127; its stderr ends:\n {4}.*nonexistent-cmd-xyz/,
    );
    expect(r.err).toMatch(/attempt 1 is not used up/);
    // the printed command reruns the stored agent: the message says how to run another (probe13 B4 note)
    expect(r.err).toContain("resume runs the same command again; add --agent CMD to run another");
    expect(r.err).not.toContain(key); // the key is never printed
    // the command alone on its line (probe21 B-F9: a note on the same line made the pasted line a
    // shell syntax error); the note on the next line
    const m = new RegExp(`^ {2}${programPattern()} (resume (run-[0-9a-f]+) .*)\\n(.*)$`, "m").exec(r.err);
    expect(m, r.err).not.toBeNull();
    const [, command, runId, next] = m!;
    // the key given with --api-key is not in the command either: it reads the exported variable (probe40 V-F6)
    expect(command).not.toContain("--api-key");
    expect(next).toBe(`  ${RESUME_KEY_NOTE}`);
    const log = join(store, "runs", `${runId}.agent.log`);
    expect(readFileSync(log, "utf8")).toMatch(/nonexistent-cmd-xyz/);
    // pasted as printed into a shell (a stand-in for the program there prints its words), then run with a
    // working agent where the variable holds the key: the same attempt 1
    const argv = pastedArgs(`program ${command}`, { BENCH_BOUNTY_API_KEY: key });
    expect(argv).toEqual(["resume", runId, "--store", store]);
    process.env.BENCH_BOUNTY_API_KEY = key;
    try {
      const res = await runCli(...argv, "--agent", `node ${AGENT}`, "--no-progress");
      expect(res.code, res.err).toBe(0);
      expect(JSON.parse(res.out)).toMatchObject({ run_id: runId, attempt: 1, attempts_remaining: 2 });
    } finally {
      delete process.env.BENCH_BOUNTY_API_KEY;
    }
  });
});

describe("a local run made with its key in BENCH_BOUNTY_API_KEY (probe40 B-F1, V-F6)", () => {
  it("interrupted, prints a resume line without --api-key and the note; pasted as printed in a shell with the variable exported it finishes the run with no key in its process arguments, without a key it is told the key is needed", async () => {
    const store = join(tempDir(), "st");
    expect((await publishCsv(store, "Temp {payload.temp} on {payload.date}?", "--slug", "envkey")).code).toBe(
      0,
    );
    const key = await cliAccount(store, "envkey-owner");
    // an agent that answers late: the interrupt comes once the run's checkpoint is written (its listener
    // is in place by then), while tasks are left
    const agent = `sleep 1; node ${AGENT}`;
    const runs = join(store, "runs");
    const checkpointed = () => existsSync(runs) && readdirSync(runs).some((f) => f.endsWith(".json"));
    process.env.BENCH_BOUNTY_API_KEY = key;
    let r: Awaited<ReturnType<typeof runCli>>;
    try {
      const running = runCli(
        ...["run", "envkey", "--store", store, "--agent", agent, "--agent-id", "envkey1"],
        ...["--batch-size", "1", "--concurrency", "1", "--no-progress"],
      );
      const t0 = Date.now();
      while (!checkpointed() && Date.now() - t0 < 30_000) await new Promise((f) => setTimeout(f, 20));
      process.emit("SIGINT");
      r = await running;
    } finally {
      delete process.env.BENCH_BOUNTY_API_KEY;
    }
    expect(r.code, r.err).toBe(130);
    expect(r.err).not.toContain(key); // the key is never printed
    const m = new RegExp(
      `^run (run-[0-9a-f]+) interrupted; continue with:\\n {2}(${programPattern()} resume .*)\\n(.*)$`,
      "m",
    ).exec(r.err);
    expect(m, r.err).not.toBeNull();
    const [, runId, line, next] = m!;
    // no key word: a pasted `--api-key "$BENCH_BOUNTY_API_KEY"` put the whole key in the resume's
    // arguments, which every local user reads in ps (probe40 V-F6)
    expect(line).toBe(`${invokedAs()} resume ${runId} --store ${store}`);
    expect(r.err).not.toContain("--api-key");
    expect(next).toBe(`  ${RESUME_KEY_NOTE}`);
    // without any key the owner is told the key is needed, not that the run is another account's
    const keyless = await runCli(
      "resume",
      runId!,
      "--store",
      store,
      "--agent",
      `node ${AGENT}`,
      "--no-progress",
    );
    expect(keyless.code).toBe(1);
    expect(keyless.err).toMatch(
      new RegExp(
        `^error: this needs --api-key \\(or BENCH_BOUNTY_API_KEY\\): run ${runId} belongs to that key's account`,
      ),
    );
    expect(keyless.err).not.toMatch(/another account|run_owner_only/);
    expect(keyless.err).toContain('"rule": "key_required"');
    // pasted as printed in a new shell where the variable is exported: it finishes the same attempt, and
    // no process of it shows the key in its arguments while it runs (what another local user sees in ps)
    const pasted = spawn("bash", ["-c", line!], {
      env: { ...process.env, BENCH_BOUNTY_API_KEY: key },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    pasted.stdout.on("data", (d: Buffer) => (out += d.toString()));
    pasted.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((f) => pasted.on("close", f));
    let done = false;
    void exited.then(() => (done = true));
    const seen = new Set<string>();
    while (!done) {
      for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
        let args: string;
        try {
          args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
        } catch {
          continue; // the process ended while listed
        }
        if (args.includes(runId!)) seen.add(args);
      }
      await new Promise((f) => setTimeout(f, 25));
    }
    expect(await exited, err).toBe(0);
    expect(
      [...seen].some((a) => a.includes(`resume ${runId}`)),
      [...seen].join("\n"),
    ).toBe(true);
    for (const args of seen) expect(args).not.toContain(key);
    expect(JSON.parse(out)).toMatchObject({ run_id: runId, attempt: 1, outcomes: { answered: 4 } });
  });
});

describe("a finalized run whose agent failed on later tasks", () => {
  it("the summary's warning prints the first failure's note on its own line (a relative path in the command)", async () => {
    const store = join(tempDir(), "st");
    const pub = await publishCsv(store, "Temp {payload.temp} on {payload.date}?", "--slug", "late");
    expect(pub.code).toBe(0);
    const key = await cliAccount(store, "late-owner");
    // exits 3 on the odd ordinals; its last word names package.json of the runner's directory
    const agent = `node ${AGENT} exit-on-odd package.json`;
    const r = await runCli(
      ...["run", "late", "--store", store, "--api-key", key, "--agent", agent],
      ...["--agent-id", "late1", "--no-progress"],
    );
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(
      /^warning: \d+ of \d+ tasks of run run-[0-9a-f]+ have no answer .*exited with status 3/m,
    );
    // the note, on a line of its own, ends with the paste-able --agent word
    const note = /^note: the agent runs in a temporary working directory of its own.*--agent (.*)$/m.exec(
      r.err,
    );
    expect(note, r.err).not.toBeNull();
    expect(note![1]).toContain(join(process.cwd(), "package.json"));
  });
});

describe("run --attempts past the benchmark's max_attempts", () => {
  // probe33 B-N5: the attempt past the last failed "used all 2 attempts", exit 1, after good attempts
  it("runs the attempts allowed, then stops with a warning naming those not run", async () => {
    const store = join(tempDir(), "st");
    const pub = await publishCsv(store, "Temp {payload.temp}?", "--slug", "ma", "--max-attempts", "2");
    expect(pub.code, pub.err).toBe(0);
    const key = await cliAccount(store, "ma-owner");
    const r = await runCli(
      ...["run", "ma", "--store", store, "--api-key", key, "--agent", `node ${AGENT}`],
      ...["--agent-id", "ma1", "--attempts", "4", "--no-progress"],
    );
    expect(r.code, r.err).toBe(0);
    const results = JSON.parse(r.out) as { attempt: number; attempts_remaining: number }[];
    expect(results.map((x) => [x.attempt, x.attempts_remaining])).toEqual([
      [1, 1],
      [2, 0],
    ]);
    expect(r.err).toBe(
      "warning: agent ma1 has used all its attempts on ma; the 2 more --attempts asked for were not run\n",
    );
  });
});

describe("a buyer_only leaderboard in the CLI's table", () => {
  // probe33 B-F14: a stranger saw an empty "public board", as if nobody had run
  it("says hidden to a stranger, and shows the table to its author", async () => {
    const store = join(tempDir(), "st");
    const pub = await publishCsv(
      store,
      "Temp {payload.temp}?",
      "--slug",
      "bo",
      "--leaderboard-visibility",
      "buyer_only",
    );
    expect(pub.code, pub.err).toBe(0);
    const key = await cliAccount(store, "bo-stranger");
    const stranger = await runCli("leaderboard", "bo", "--store", store, "--api-key", key);
    expect(stranger.code, stranger.err).toBe(0);
    expect(stranger.out.split("\n")[1]).toBe(
      "hidden: only the benchmark's author sees this leaderboard (leaderboard_visibility buyer_only)",
    );
    expect(stranger.out).not.toMatch(/^rank /m);
    const author = await runCli("leaderboard", "bo", "--store", store);
    expect(author.code, author.err).toBe(0);
    expect(author.out).toMatch(/^rank {2}agent/m);
    expect(author.out).not.toMatch(/^hidden:/m);
  });
});

describe("run without --agent-id on a local store (probe39 A-N2)", () => {
  // with --server the service names the default agent; a local run still names its agent
  it("is refused invalid_option naming --agent-id, nothing started", async () => {
    const store = join(tempDir(), "st");
    const pub = await publishCsv(store, "Temp {payload.temp}?", "--slug", "noid");
    expect(pub.code, pub.err).toBe(0);
    const key = await cliAccount(store, "noid-owner");
    const r = await runCli(
      ...["run", "noid", "--store", store, "--api-key", key, "--agent", `node ${AGENT}`, "--no-progress"],
    );
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /^error: --agent-id is required on a local store \(with --server, the account's default agent runs without it\)$/m,
    );
    expect(r.err).toContain('"field": "agent-id"');
    expect(r.err).not.toMatch(/at .*\.ts:\d+/);
    const platform = await Platform.open({ dir: store });
    try {
      const mine = await platform.myRuns(await platform.authenticate(key));
      expect(mine.runs).toEqual([]);
    } finally {
      await platform.close();
    }
  });
});

describe("the CLI's leaderboard table with a long agent id", () => {
  // probe39 B-N4: an id of 22+ characters ran into the composite ("...-of-40-chars0.2994")
  it("pads the agent column to the longest id, so every line splits on white space into its columns", async () => {
    const store = join(tempDir(), "st");
    const pub = await publishCsv(store, "Temp {payload.temp}?", "--slug", "wide");
    expect(pub.code, pub.err).toBe(0);
    const key = await cliAccount(store, "wide-owner");
    const long = "a-very-long-agent-identifier-of-40-chars";
    for (const id of [long, "short"]) {
      const r = await runCli(
        ...["run", "wide", "--store", store, "--api-key", key, "--agent", `node ${AGENT}`],
        ...["--agent-id", id, "--no-progress"],
      );
      expect(r.code, r.err).toBe(0);
    }
    const lb = await runCli("leaderboard", "wide", "--store", store);
    expect(lb.code, lb.err).toBe(0);
    const lines = lb.out.trimEnd().split("\n").slice(1);
    expect(lines).toHaveLength(3);
    const cells = lines.map((l) => l.split(/\s+/));
    expect(cells[0]).toEqual([
      "rank",
      "agent",
      "composite",
      "public",
      "accuracy",
      "wall_s",
      "attempts",
      "run",
    ]);
    expect(
      cells
        .slice(1)
        .map((c) => c[1])
        .sort(),
    ).toEqual([long, "short"].sort());
    for (const c of cells.slice(1)) {
      expect(c).toHaveLength(8);
      expect(c[2]).toMatch(/^\d\.\d{4}$/);
    }
    // the columns line up: each starts where its header does
    const start = lines[0]!.indexOf("composite");
    for (const l of lines.slice(1)) expect(l.slice(start)).toMatch(/^\d\.\d{4} /);
  });
});

describe("text from others reaches the terminal escaped (probeD3 F2)", () => {
  it("an agent's stderr tail: no ESC, BEL, C1 or bidi control reaches the operator's terminal; each is shown escaped", async () => {
    const store = join(tempDir(), "st");
    const pub = await publishCsv(store, "Temp {payload.temp} on {payload.date}?", "--slug", "esc");
    expect(pub.code).toBe(0);
    const key = await cliAccount(store, "esc-owner");
    // the probe's agent: OSC 52 (sets the clipboard), an erased line, a fake error line; then C1 CSI and RLO
    const hostile = String.raw`printf 'ok\033]52;c;ZWNobyBwd25lZA==\007\033[2K\rerror: fake\n\302\2332J \342\200\256dlrow\n' >&2; exit 1`;
    const r = await runCli(
      ...["run", "esc", "--store", store, "--api-key", key, "--agent", hostile],
      ...["--agent-id", "esc1", "--no-progress"],
    );
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/its stderr ends:/);
    expect(r.err).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(r.err).toContain(String.raw`ok\x1b]52;c;ZWNobyBwd25lZA==\x07\x1b[2K`);
    expect(r.err).toContain(String.raw`\x9b2J \u{202e}dlrow`);
  });
});

describe("smaller input checks", () => {
  it("a CSV header that repeats a column names it", async () => {
    expect(() =>
      csvToDataset("date,temp,date\n2026-01-01,3,x\n", { decision_ts: "date", label: "temp" }, { name: "t" }),
    ).toThrow(/^CSV: the header repeats the column "date" \(columns 1 and 3\)$/);
    const file = join(tempDir(), "dup.csv");
    writeFileSync(file, "date,weather,weather\n2026-01-01,rain,sun\n");
    const r = await runCli("validate", file, "--label", "weather", "--decision-ts", "date");
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error: CSV: the header repeats the column "weather"/);
  });
});

describe("a CSV payload column with no name or listed twice (probe30 B-F7)", () => {
  it('a header column with no name is refused for the default payload, never kept as a payload field ""', async () => {
    expect(() =>
      csvToDataset("date,label,\n2020-01-01,a,1\n", { decision_ts: "date", label: "label" }, { name: "t" }),
    ).toThrow(
      /^CSV mapping payload: the header's column 3 has no name, so it cannot be a payload field: name it in the header, or list the payload columns$/,
    );
    // listing the payload columns leaves the unnamed column out, as before
    const listed = csvToDataset(
      "date,label,\n2020-01-01,a,1\n",
      { decision_ts: "date", label: "label", payload: ["date"] },
      { name: "t" },
    );
    expect(listed.rows).toEqual([{ decision_ts: "2020-01-01", payload: { date: "2020-01-01" }, label: "a" }]);
    // a mapping that names the empty column is refused naming its field
    expect(() =>
      csvToDataset(
        "date,label,\n2020-01-01,a,1\n",
        { decision_ts: "date", label: "label", payload: ["date"], knowable_at: { date: "" } },
        { name: "t" },
      ),
    ).toThrow(/^CSV mapping knowable_at\.date: an empty column name$/);
    const file = join(tempDir(), "unnamed.csv");
    writeFileSync(file, "date,label,\n2020-01-01,a,1\n");
    const r = await runCli("validate", file, "--label", "label", "--decision-ts", "date");
    expect(r.code, r.out).toBe(1);
    expect(r.err).toMatch(/^error: CSV mapping payload: the header's column 3 has no name/);
  });

  it("--payload x,x is refused naming the column, not taken silently", async () => {
    expect(() =>
      csvToDataset(
        "date,x,label\n2020-01-01,1,a\n",
        { decision_ts: "date", label: "label", payload: ["x", " x"] },
        { name: "t" },
      ),
    ).toThrow(/^CSV mapping payload: the column "x" is listed twice$/);
    const file = join(tempDir(), "twice.csv");
    writeFileSync(file, "date,x,label\n2020-01-01,1,a\n");
    const r = await runCli("validate", file, "--label", "label", "--decision-ts", "date", "--payload", "x,x");
    expect(r.code, r.out).toBe(1);
    expect(r.err).toMatch(/^error: CSV mapping payload: the column "x" is listed twice/);
  });
});

describe("chain options are checked before the store or the network", () => {
  const KEY = "0x" + "11".repeat(32);
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("--rpc-url that is not an http(s) URL and --bounty-contract 0x123 are refused naming the option", async () => {
    vi.stubEnv("BENCH_BOUNTY_PRIVATE_KEY", KEY);
    const store = join(tempDir(), "st");
    for (const url of ["notaurl", "ftp://x", "wss://rpc.example/v2/PROVIDER_SECRET"]) {
      const r = await runCli("agent", "a1", "--store", store, "--rpc-url", url);
      expect(r.code, url).toBe(1);
      expect(r.err, url).toMatch(/^error: --rpc-url must be an http:\/\/ or https:\/\/ URL \(the value/);
      expect(r.err + r.out, url).not.toContain("PROVIDER_SECRET"); // a provider's key is never echoed
    }
    for (const [opt, field] of [
      ["--bounty-contract", "bounty-contract"],
      ["--anchor-registry", "anchor-registry"],
      ["--usdc", "usdc"],
    ]) {
      const r = await runCli(
        "agent",
        "a1",
        "--store",
        store,
        "--rpc-url",
        "http://127.0.0.1:1",
        opt!,
        "0x123",
      );
      expect(r.code, opt).toBe(1);
      expect(r.err, opt).toMatch(
        new RegExp(`^error: --${field} must be an address \\(0x \\+ 40 hex\\), got 0x123`),
      );
    }
    expect(existsSync(store)).toBe(false);
  });

  it("--award-confirmations outside 1..1000 is refused naming the option, nothing created (probe26 C-F10)", async () => {
    const store = join(tempDir(), "st");
    for (const n of ["0", "1001", "x", "2.5"]) {
      const r = await runCli("agent", "a1", "--store", store, "--award-confirmations", n);
      expect(r.code, n).toBe(1);
      expect(r.err, n).toContain("--award-confirmations must be an integer in 1..1000");
    }
    expect(existsSync(store)).toBe(false);
  });

  it("--public-url with userinfo, a query or a fragment is refused naming the part, never the value (probe11 O10)", async () => {
    const store = join(tempDir(), "st");
    for (const [url, part] of [
      ["http://pu:PUBPW@bench.example/PUBPATH/", "userinfo"],
      ["http://PUBUSER@bench.example/", "userinfo"],
      ["https://bench.example/PUBPATH/?token=PUBTOK", "a query"],
      ["https://bench.example/PUBPATH?", "a query"],
      ["https://bench.example/PUBPATH/#PUBFRAG", "a fragment"],
      ["https://bench.example/#", "a fragment"],
    ] as const) {
      const r = await runCli("agent", "a1", "--store", store, "--public-url", url);
      expect(r.code, url).toBe(1);
      expect(r.err, url).toMatch(
        new RegExp(
          `^error: --public-url must be an http\\(s\\) origin with an optional path: it carries ${part} \\(`,
        ),
      );
      expect(r.err + r.out, url).not.toMatch(/PUB(PW|USER|PATH|TOK|FRAG)/);
    }
    vi.stubEnv("BENCH_BOUNTY_PUBLIC_URL", "https://bench.example/?k=PUBTOK");
    let r = await runCli("agent", "a1", "--store", store);
    // from the environment: named by its variable (probe31 B-F6)
    expect(r.err).toMatch(
      /^error: BENCH_BOUNTY_PUBLIC_URL \(the environment form of --public-url\) .* it carries a query/,
    );
    vi.stubEnv("BENCH_BOUNTY_PUBLIC_URL", "ftp://bench.example/");
    r = await runCli("agent", "a1", "--store", store);
    expect(r.err).toMatch(
      /^error: BENCH_BOUNTY_PUBLIC_URL \(the environment form of --public-url\) must be an http:\/\/ or https:\/\/ URL/,
    );
    expect(existsSync(store)).toBe(false);
    vi.unstubAllEnvs();
    // an origin with a path prefix is a base URL: accepted
    r = await runCli("agent", "a1", "--store", store, "--public-url", "https://bench.example/bb/");
    expect(r.err).not.toMatch(/public-url/);
  });

  it("--public-url must be its canonical text with a shell-safe path: it is pasted into shell commands (probe12 P5)", async () => {
    const store = join(tempDir(), "st");
    for (const [url, part] of [
      [" http://127.0.0.1:9/PUBSP12 ", "leading or trailing spaces"],
      ['http://127.0.0.1:9/"><script>PUBXSS12', "characters in its path outside"],
      ["http://127.0.0.1:9/$(touch${IFS}/tmp/PUBPWN12)", "characters in its path outside"],
      ["http://127.0.0.1:9/$(id)PUBPWN12", "characters in its path outside"],
      ["HTTP://127.0.0.1:9/../PUBDOT12", "a form other than its canonical text"],
      ["http://127.0.0.1:9/a/../PUBDOT12", "a form other than its canonical text"],
      ["http://Bench.Example/PUBHOST12", "a form other than its canonical text"],
    ] as const) {
      const r = await runCli("agent", "a1", "--store", store, "--public-url", url);
      expect(r.code, url).toBe(1);
      expect(r.err, url).toMatch(
        new RegExp(
          `^error: --public-url must be an http\\(s\\) origin with an optional path: it carries ${part}`,
        ),
      );
      expect(r.err + r.out, url).not.toMatch(/PUB(SP|XSS|PWN|DOT|HOST)12/);
    }
    vi.stubEnv("BENCH_BOUNTY_PUBLIC_URL", "http://127.0.0.1:9/$(touch${IFS}/tmp/PUBPWN12)");
    let r = await runCli("agent", "a1", "--store", store);
    expect(r.err).toMatch(
      /^error: BENCH_BOUNTY_PUBLIC_URL \(the environment form of --public-url\) .* it carries characters in its path outside/,
    );
    expect(existsSync(store)).toBe(false);
    vi.unstubAllEnvs();
    // a normal path prefix, with or without the trailing slash, and a bare origin are accepted
    for (const url of [
      "https://bench.example/bb-1/v_2.x~/",
      "https://bench.example/bb",
      "http://127.0.0.1:8080",
    ]) {
      r = await runCli("agent", "a1", "--store", store, "--public-url", url);
      expect(r.err, url).not.toMatch(/public-url/);
    }
  });

  // probe15 B-F7: a key of the right form outside 1..n-1 was exit 4 "internal error" printing the key in decimal
  it("a signer key of the right form but outside 1..n-1 is refused naming its variable, never printed", async () => {
    const store = tempDir();
    await (await Platform.open({ dir: store })).close();
    const outOfRange = [
      "0x" + "00".repeat(32),
      "0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", // n
      "0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364142", // n + 1
      "0x" + "ff".repeat(32),
    ];
    for (const variable of ["BENCH_BOUNTY_AUTHOR_KEY", "BENCH_BOUNTY_PRIVATE_KEY"])
      for (const bad of outOfRange) {
        vi.stubEnv("BENCH_BOUNTY_PRIVATE_KEY", KEY);
        vi.stubEnv("BENCH_BOUNTY_AUTHOR_KEY", KEY);
        vi.stubEnv(variable, bad);
        const r = await runCli(...lockArgs("nonexistent-slug", store), "--closes-in", "100");
        expect(r.code, `${variable}=${bad}: ${r.err}`).toBe(1);
        expect(r.err).toMatch(
          new RegExp(
            `^error: ${variable} is not a private key: .*1\\.\\.n-1.*\\(the value is not printed\\)`,
          ),
        );
        expect(r.err).not.toMatch(/internal error/);
        for (const shown of [bad.slice(2), BigInt(bad).toString(), bad.slice(-12)])
          if (shown.length >= 8) expect(r.err + r.out).not.toContain(shown);
      }
  });

  it("lock on an unknown slug says so before contacting the RPC", async () => {
    vi.stubEnv("BENCH_BOUNTY_PRIVATE_KEY", KEY);
    vi.stubEnv("BENCH_BOUNTY_AUTHOR_KEY", KEY);
    const store = tempDir();
    await (await Platform.open({ dir: store })).close();
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const r = await runCli(...lockArgs("nonexistent-slug", store));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error: .*nonexistent-slug/);
    expect(r.err).toContain("unknown_benchmark");
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  // probe14 D3-F10: without --closes-in / --closes-at the prize closed 1 hour later, a default nobody read
  it("lock without a close time is refused naming --closes-in, before contacting the RPC", async () => {
    vi.stubEnv("BENCH_BOUNTY_PRIVATE_KEY", KEY);
    vi.stubEnv("BENCH_BOUNTY_AUTHOR_KEY", KEY);
    const store = tempDir();
    const pub = await publishCsv(store, "Temp {payload.temp} on {payload.date}?", "--slug", "noclose");
    expect(pub.code, pub.err).toBe(0);
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const lock = lockArgs("noclose", store);
    const r = await runCli(...lock);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /^error: give --closes-in SECONDS or --closes-at UNIX: a prize has no default close time/,
    );
    expect(fetchSpy).not.toHaveBeenCalled();
    const huge = await runCli(...lock, "--closes-in", "99999999999999999999");
    expect(huge.err).toMatch(/closes-in must be an integer in 1\.\.3153600000/);
    // probe25 B-F7: the one bound of the Hardhat task bounty:lock too (MAX_LOCK_UNIX_SECONDS)
    const late = await runCli(...lock, "--closes-at", String(MAX_LOCK_UNIX_SECONDS + 1));
    expect(late.code).not.toBe(0);
    expect(late.err).toMatch(/closes-at must be an integer in 1\.\.253402300799/);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("--receipt-anchoring immediate|batch is accepted by the commands (README), other values refused", async () => {
    const store = tempDir();
    await (await Platform.open({ dir: store })).close();
    let r = await runCli("show", "x", "--store", store, "--receipt-anchoring", "batch");
    expect(r.err).not.toMatch(/unknown option/);
    expect(r.err).toContain("unknown_benchmark");
    r = await runCli("show", "x", "--store", store, "--receipt-anchoring", "never");
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/--receipt-anchoring/);
    expect(r.err).toMatch(/immediate, batch/);
  });
});

describe("a failed commitment anchoring at publish is reported (issue 13 re-probe F8)", () => {
  it("publish exits 0 with commitment_anchor_status pending and the error, and warns with a retry command that names the pending anchor", async () => {
    vi.stubEnv("BENCH_BOUNTY_PRIVATE_KEY", "0x" + "11".repeat(32));
    const dir = tempDir();
    const store = join(dir, "store");
    const csv = join(dir, "d.csv");
    writeFileSync(csv, "city,ts,label\nc1,2026-01-01T00:00:00Z,a\nc2,2026-01-02T00:00:00Z,b\n");
    const key = await cliAccount(store, "author");
    const r = await runCli(
      "publish",
      csv,
      "--store",
      store,
      "--api-key",
      key,
      ...UNREACHABLE_CHAIN,
      "--label",
      "label",
      "--decision-ts",
      "ts",
      "--title",
      "T",
      "--template",
      "Q {payload.city}",
      "--grader",
      "exact",
    );
    expect(r.code, r.err).toBe(0);
    const b = JSON.parse(r.out).benchmark;
    expect(b).toMatchObject({ commitment_anchor: null, commitment_anchor_status: "pending" });
    expect(b.commitment_anchor_error).toBeTruthy();
    expect(b.commit_root).toBeNull(); // shown once anchored (probe14 D3-F8)
    expect(r.err).toContain(
      `warning: the commitment of ${b.slug} was not anchored (its root is shown once it is)`,
    );
    expect(r.err).toContain(
      `retry it with:\n    ${invokedAs()} anchor ${b.slug} --store ${store} --rpc-url http://127.0.0.1:1 --chain-id 8453 --bounty-contract 0x${"22".repeat(20)} --anchor-registry 0x${"33".repeat(20)}`,
    );
    // the printed command, run as printed (minus the binary name), lists the same pending anchor
    const retry = new RegExp(`retry it with:\\n {4}${programPattern()} (.*)$`, "m")
      .exec(r.err)![1]!
      .split(" ");
    const listed = await runCli(...retry, "--list");
    expect(listed.code, listed.err).toBe(0);
    // the operator's own list names the pending root (the store is theirs)
    expect(JSON.parse(listed.out).pending).toEqual([
      expect.objectContaining({ kind: "commitment", digest: expect.stringMatching(/^0x[0-9a-f]{64}$/) }),
    ]);
  });

  it("run: a receipt anchor failing at finalize is reported with the chain error by origin and a retry command; anchor with the chain down prints {code, details} (probeD3 F3)", async () => {
    // the address is set before the store meets the chain: with it down, the address's code cannot be read
    let key = "";
    const store = await publishWithChainDown("rc", async (s) => {
      key = await cliAccount(s, "rc-owner");
      await agentWithAddress(s, key, "rc1");
    });
    const r = await runCli(
      ...["run", "rc", "--store", store, "--api-key", key, "--agent", `node ${AGENT}`],
      ...["--agent-id", "rc1", "--no-progress"],
      ...UNREACHABLE_CHAIN,
    );
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out);
    expect(out).toMatchObject({ receipt_anchor: null, receipt_anchor_status: "pending" });
    expect(out.receipt_hash).toBeNull(); // shown once anchored (probe14 D3-F8)
    expect(r.err).toContain(
      `warning: the receipt of run ${out.run_id} was not anchored (its hash is shown once it is): `,
    );
    expect(r.err).toMatch(/was not anchored \(its hash is shown once it is\): .*\(the chain RPC\)/);
    // the operator's own output names the RPC by origin (what a server serves does not: probe17 A-F5)
    expect(r.err).toMatch(/^bench-bounty: chain RPC http:\/\/127\.0\.0\.1:1: .*failed: /m);
    const retry = new RegExp(`retry it with:\\n {4}${programPattern()} (.*)$`, "m").exec(r.err);
    expect(retry, r.err).not.toBeNull();
    expect(retry![1]).toBe(
      `anchor rc --store ${store} --rpc-url http://127.0.0.1:1 --chain-id 8453 --bounty-contract 0x${"22".repeat(20)} --anchor-registry 0x${"33".repeat(20)}`,
    );
    // the printed command, as printed: the chain is still down, so a refusal naming the RPC by origin
    const again = await runCli(...retry![1]!.split(" "));
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/^error: .*failed: .*\(the chain RPC\)\n\{/m);
    expect(again.err).toMatch(/^bench-bounty: chain RPC http:\/\/127\.0\.0\.1:1: .*failed: /m);
    const block = JSON.parse(again.err.slice(again.err.indexOf("{")));
    expect(block).toEqual({ code: "chain_error", details: { call: "anchorOf" } });
    const listed = await runCli(...retry![1]!.split(" "), "--list");
    // the operator's own list names the pending hash (the store is theirs)
    expect(JSON.parse(listed.out).pending).toContainEqual(
      expect.objectContaining({ kind: "receipt", digest: expect.stringMatching(/^0x[0-9a-f]{64}$/) }),
    );
  });

  it("the printed anchor command drops a key exported in the shell: anchor is the keyless operator's (probe16 B-F3)", async () => {
    let key = "";
    const store = await publishWithChainDown("rk", async (s) => {
      key = await cliAccount(s, "rk-owner");
      await agentWithAddress(s, key, "rk1");
    });
    vi.stubEnv("BENCH_BOUNTY_API_KEY", key);
    const r = await runCli(
      ...["run", "rk", "--store", store, "--agent", `node ${AGENT}`],
      ...["--agent-id", "rk1", "--no-progress"],
      ...UNREACHABLE_CHAIN,
    );
    expect(r.code, r.err).toBe(0);
    const retry = new RegExp(
      `retry it with:\\n {4}env -u BENCH_BOUNTY_API_KEY ${programPattern()} (.*)$`,
      "m",
    ).exec(r.err);
    expect(retry, r.err).not.toBeNull();
    // without the `env -u` the exported key makes it the account's: refused
    const keyed = await runCli(...retry![1]!.split(" "));
    expect(keyed.code).toBe(1);
    expect(keyed.err).toMatch(/only the operator/);
    // as printed (the key dropped): the operator's anchor runs, and reports the chain that is down
    vi.stubEnv("BENCH_BOUNTY_API_KEY", undefined);
    const asPrinted = await runCli(...retry![1]!.split(" "));
    expect(asPrinted.code).toBe(1);
    expect(asPrinted.err).not.toMatch(/only the operator/);
    expect(asPrinted.err).toMatch(/^bench-bounty: chain RPC http:\/\/127\.0\.0\.1:1: /m);
  });

  it("the retry command never prints an RPC URL with a key: it reads $BENCH_BOUNTY_RPC_URL (probe10 R2)", async () => {
    vi.stubEnv("BENCH_BOUNTY_PRIVATE_KEY", "0x" + "11".repeat(32));
    const secret = "http://u:RPCPW10@127.0.0.1:1/v3/RPCDEADPATH10?apikey=RPCDEADQ10";
    const leaks = /RPCPW10|RPCDEADPATH10|RPCDEADQ10/;
    const dir = tempDir();
    const store = join(dir, "store");
    const csv = join(dir, "d.csv");
    writeFileSync(csv, "city,ts,label\nc1,2026-01-01T00:00:00Z,a\nc2,2026-01-02T00:00:00Z,b\n");
    const key = await cliAccount(store, "author");
    let n = 0;
    const publish = (rpc: string[]) => {
      // one benchmark per dataset: each publish gets its own rows
      n += 1;
      writeFileSync(csv, `city,ts,label\nc${n},2026-01-01T00:00:00Z,a\nd${n},2026-01-02T00:00:00Z,b\n`);
      return runCli(
        "publish",
        csv,
        "--store",
        store,
        "--api-key",
        key,
        ...rpc,
        ...UNREACHABLE_CHAIN.slice(2),
        "--label",
        "label",
        "--decision-ts",
        "ts",
        "--title",
        "T",
        "--template",
        "Q {payload.city}",
        "--grader",
        "exact",
      );
    };
    // given in the env: the command names the variable, and works when pasted with it set
    vi.stubEnv("BENCH_BOUNTY_RPC_URL", secret);
    const viaEnv = await publish([]);
    expect(viaEnv.code, viaEnv.err).toBe(0);
    expect(viaEnv.err + viaEnv.out).not.toMatch(leaks);
    const line = new RegExp(`retry it with:\\n {4}${programPattern()} (.*)$`, "m").exec(viaEnv.err)![1]!;
    // no --rpc-url word at all (probe34 B-F3: `--rpc-url "$BENCH_BOUNTY_RPC_URL"`, expanded by the shell,
    // put the key in argv): the pasted command reads the variable itself
    expect(line).not.toContain("--rpc-url");
    expect(line).toContain(" --chain-id 8453");
    expect(viaEnv.err).not.toContain("first set BENCH_BOUNTY_RPC_URL");
    const words = line.split(" ");
    const listed = await runCli(...words, "--list");
    expect(listed.code, listed.err).toBe(0);
    expect(JSON.parse(listed.out).pending.length).toBeGreaterThan(0);
    // given as --rpc-url: the same command, and a line saying to set the variable (origin only)
    vi.stubEnv("BENCH_BOUNTY_RPC_URL", undefined);
    const viaFlag = await publish(["--rpc-url", secret]);
    expect(viaFlag.code, viaFlag.err).toBe(0);
    expect(viaFlag.err + viaFlag.out).not.toMatch(leaks);
    expect(viaFlag.err).not.toContain('--rpc-url "');
    expect(viaFlag.err).toContain(
      "(first set BENCH_BOUNTY_RPC_URL to the --rpc-url given for http://127.0.0.1:1: the command reads it from there; it is not printed, it may carry a key)",
    );
  });
});

describe("run --server refuses the local-store options with a hint that works for a remote runner (probe17 B-F11, same class)", () => {
  it("--author names the route that registers an author's agent, --withdrawal-address the one that sets the address", async () => {
    const base = ["run", "b", "--server", "http://127.0.0.1:1", "--api-key", "k", "--agent", "node a.js"];
    const author = await runCli(...base, "--agent-id", "a1", "--author");
    expect(author.code).toBe(1);
    expect(author.err).toContain(
      "with --server, register the author's agent on the server (POST /api/v1/accounts/me/agents {agent_id, is_author_agent: true})",
    );
    const address = await runCli(...base, "--agent-id", "a1", "--withdrawal-address", `0x${"ab".repeat(20)}`);
    expect(address.code).toBe(1);
    expect(address.err).toContain(
      "with --server, set the withdrawal address on the server (PUT /api/v1/accounts/me/withdrawal-address, MCP set_withdrawal_address)",
    );
  });
});
