/**
 * probe31 A-F3: the tutorials `serve` serves (`GET /api/v1/content/*.md`, MCP `read_tutorial`) said
 * what the code does not: the publish tutorial said rows are "sorted by row hash and split" (the
 * split is by `prompt_hash`, deliberately not by `row_hash`, which covers the label: SPEC 6.1, the
 * 201's own `disclosure`), and the verify tutorial printed `--rpc-url`, an option the verifier does
 * not have (its command is run as pasted by the CLI's tests, `packages/cli/test/cli.test.ts`).
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { call, publishCities, register, useLive } from "./helpers.js";

const live = useLive();
const run = promisify(execFile);

/** What `submit` is, said wherever its command is printed (probe38 A-N1). */
const SUBMIT_FINALIZES = "submit = submit ALL your answers and finalize the run (uses up the attempt)";

/** Runs one pasted line under dash with `env` (exit status, stdout, stderr). */
async function paste(line: string, env: Record<string, string>) {
  return run("dash", ["-c", line], { env: { PATH: process.env.PATH!, ...env }, encoding: "utf8" }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
}

describe("the served tutorials say what the code does (probe31 A-F3, probe32 A-F1)", () => {
  it("publish-benchmark-from-data: its commands read the key from the exported BENCH_BOUNTY_API_KEY, never an unset $KEY", async () => {
    const r = await call(live.url, "GET", "/api/v1/content/publish-benchmark-from-data.md");
    expect(r.status).toBe(200);
    expect(r.text).not.toMatch(/\$KEY\b/);
    expect(r.text).toContain("export BENCH_BOUNTY_API_KEY=");
    expect(r.text).toContain('"X-API-Key: $BENCH_BOUNTY_API_KEY"');
    expect(r.text).toContain("`DATASET_ID=...`");
  });

  it("publish-benchmark-from-data: the split is by prompt_hash, never by row hash", async () => {
    const r = await call(live.url, "GET", "/api/v1/content/publish-benchmark-from-data.md");
    expect(r.status).toBe(200);
    expect(r.text).not.toMatch(/sorted by row hash/);
    expect(r.text).toContain("rows are sorted by `prompt_hash`");
  });

  // probe32 A-F1: the tutorial said "lock it" and nothing of how the served commitment becomes the lock's
  // --commitment file (bounty:lock read only {root, leafCount}; deploy's lifecycle test locks with the answer)
  it("publish-benchmark-from-data: the lock takes the served commitment file as it is", async () => {
    const r = await call(live.url, "GET", "/api/v1/content/publish-benchmark-from-data.md");
    expect(r.text).toContain("    curl -s $BASE/api/v1/benchmarks/$SLUG/commitment > commitment.json\n");
    expect(r.text).toMatch(/\n {4}npx hardhat bounty:lock --network base --commitment commitment\.json \\\n/);
  });

  // probe35 A-N3: "answers never carry over between attempts", while by default (no public_tasks_per_run)
  // every attempt gets the same public tasks, only re-ordered, and the same private ones
  it("compete-on-benchmarks: by default every attempt gets the same public tasks, shuffled (probe35 A-N3)", async () => {
    const r = await call(live.url, "GET", "/api/v1/content/compete-on-benchmarks.md");
    expect(r.text).not.toContain("answers never carry over");
    expect(r.text).toContain(
      "By default (no `public_tasks_per_run`) every attempt gets the same public tasks, shuffled to other ordinals",
    );
    // what it says is what a start does
    const { slug } = await publishCities(live.url, 12, "attempts");
    const me = await register(live.url, "attempts-competitor");
    const plans: { ordinal: number; prompt: string; visibility: string }[][] = [];
    for (let attempt = 0; attempt < 2; attempt++) {
      const started = await call(live.url, "POST", `/api/v1/benchmarks/${slug}/runs`, {
        key: me.key,
        body: {},
      });
      expect(started.status, started.text).toBe(201);
      plans.push(started.json.tasks);
      const fin = await call(live.url, "POST", `/api/v1/benchmarks/runs/${started.json.run.id}/finalize`, {
        key: me.key,
      });
      expect(fin.status, fin.text).toBe(200);
    }
    const publicPrompts = (p: (typeof plans)[0]) =>
      p.filter((t) => t.visibility === "public").map((t) => `${t.ordinal}:${t.prompt}`);
    const [one, two] = plans.map(publicPrompts) as [string[], string[]];
    expect(one.map((x) => x.replace(/^\d+:/, "")).sort()).toEqual(
      two.map((x) => x.replace(/^\d+:/, "")).sort(),
    );
    expect(one).not.toEqual(two);
  });

  // probe38 A-N1: the fast path printed `submit` after `start` as the REST walk's step 5 (more submits may
  // follow), and it submits and finalizes at once: pasted with one answer of 40, the attempt was spent. The
  // REST lines used $KEY, never set, while how_to_compete and the script use $BENCH_BOUNTY_API_KEY.
  it(
    "compete-on-benchmarks: says submit finalizes, uses BENCH_BOUNTY_API_KEY, every command works as pasted (probe38 A-N1)",
    { timeout: 120_000 },
    async () => {
      const r = await call(live.url, "GET", "/api/v1/content/compete-on-benchmarks.md");
      expect(r.status).toBe(200);
      expect(r.text).not.toMatch(/\$KEY\b/);
      expect(r.text).toMatch(/## Get a key[^#]*\n {4}export BENCH_BOUNTY_API_KEY=\.\.\./);
      const lines = r.text
        .split("\n")
        .filter((l) => l.startsWith("    "))
        .map((l) => l.slice(4));
      const submitAt = lines.findIndex((l) => / submit \$RUN_ID /.test(l));
      expect(submitAt).toBeGreaterThan(0);
      expect(lines[submitAt - 1]).toContain(`# ${SUBMIT_FINALIZES}`);
      expect(r.text).toContain(`**${SUBMIT_FINALIZES}**`);

      // paste every line in order, as a reader does: a placeholder (`...`) is what the step before printed
      const { slug } = await publishCities(live.url, 4, "tutorial-paste");
      const address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
      const env: Record<string, string> = { BASE: live.url, SLUG: slug };
      let last = { stdout: "", stderr: "" };
      for (const line of lines) {
        if (line.startsWith("#")) continue;
        const set = /^(?:export )?([A-Z_]+)=(0x)?\.\.\.(?:\s|$)/.exec(line);
        if (set) {
          const name = set[1]!;
          if (set[2] !== undefined) env[name] = address;
          else if (name === "RUN_ID") env[name] = JSON.parse(last.stdout).run.id;
          else if (name === "BENCH_BOUNTY_API_KEY")
            env[name] =
              /export BENCH_BOUNTY_API_KEY=(\S+)/.exec(last.stderr)?.[1] ??
              (last.stdout.startsWith("{") ? (JSON.parse(last.stdout).api_key ?? env[name]) : env[name])!;
          else throw new Error(`a placeholder the test cannot fill: ${line}`);
          expect(env[name], line).toBeTruthy();
          continue;
        }
        const out = await paste(line.replaceAll('"0x..."', `"${address}"`), env);
        expect(out.code, `${line}\n${out.stderr}`).toBe(0);
        expect(out.stdout, line).not.toContain('"error":');
        last = out;
      }
      // the submit line finalized the run: the attempt is spent
      expect(last.stdout).toContain('"status":"finalized"');
      const runRead = await call(live.url, "GET", `/api/v1/benchmarks/runs/${env.RUN_ID}`, {
        key: env.BENCH_BOUNTY_API_KEY!,
      });
      expect(runRead.json.status).toBe("finalized");

      // the script's usage and the server README say it too
      const help = await paste(
        `curl -sSL ${live.url}/api/v1/scripts/run-benchmark.sh | dash -s -- --help`,
        {},
      );
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(SUBMIT_FINALIZES);
      const bad = await paste(`curl -sSL ${live.url}/api/v1/scripts/run-benchmark.sh | dash -s --`, {});
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain(SUBMIT_FINALIZES);
      const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8").split("\n");
      const readmeSubmit = readme.findIndex((l) =>
        l.includes("run-benchmark.sh | sh -s -- $BASE submit $RUN_ID"),
      );
      expect(readme[readmeSubmit - 1]).toContain(`# ${SUBMIT_FINALIZES}`);
    },
  );

  it("verify-an-award: the verifier's option is --rpc, run from the repository's bin", async () => {
    const r = await call(live.url, "GET", "/api/v1/content/verify-an-award.md");
    expect(r.status).toBe(200);
    expect(r.text).not.toContain("--rpc-url");
    expect(r.text).toContain("    ./bin/bench-bounty verify pack.json --rpc $RPC\n");
  });
});
