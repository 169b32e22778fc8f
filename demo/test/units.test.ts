/**
 * The demo's own building blocks: the process registry (stops children and their process groups), the
 * phase runner (failed and skipped phases), the seeded row sample, the options and the USDC formatting.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runnerInvocation } from "../src/channels.js";
import { agentHiddenPaths, serviceStoreDir } from "../src/context.js";
import { sampleBySeed, seattleWeatherCsvPath } from "../src/dataset.js";
import { Option } from "commander";
import { repeatedOptionMessage } from "@bench-bounty/verifier/cli";
import { AGENT_NAMES, DemoOptionError, parseOptions } from "../src/options.mjs";
import { PhaseRunner, formatSeconds } from "../src/phase-runner.js";
import { ProcessRegistry } from "../src/processes.js";
import { clip, formatUsdc, renderTable } from "../src/table.js";

/** True while the process exists and is not a zombie (an exited child nobody reaped yet). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

describe("ProcessRegistry", () => {
  it("stops a child and the grandchildren it started (its process group), newest first", async () => {
    const registry = new ProcessRegistry();
    let firstStopped = false;
    registry.addStop("first", () => {
      firstStopped = true;
    });
    const pids: number[] = [];
    const child = registry.spawn("shell", "sh", ["-c", "sleep 60 & echo $!; wait"], {
      onLine: (line) => pids.push(Number(line)),
    });
    await new Promise((r) => setTimeout(r, 300));
    const grandchild = pids[0]!;
    expect(alive(child.child.pid!)).toBe(true);
    expect(alive(grandchild)).toBe(true);
    const log: string[] = [];
    await registry.stopAll((l) => log.push(l));
    expect(await child.exited).toBe("SIGTERM");
    expect(alive(grandchild)).toBe(false);
    expect(log).toEqual(["stopped shell", "stopped first"]);
    expect(firstStopped).toBe(true);
    // idempotent
    await registry.stopAll();
  });

  it("forgets a child that ended by itself and keeps its last output lines", async () => {
    const registry = new ProcessRegistry();
    const child = registry.spawn("echo", "sh", ["-c", "echo one; echo two >&2; exit 3"]);
    expect(await child.exited).toBe(3);
    expect(child.tail()).toContain("one");
    expect(child.tail()).toContain("two");
    const log: string[] = [];
    await registry.stopAll((l) => log.push(l));
    expect(log).toEqual([]);
  });
});

describe("PhaseRunner", () => {
  it("times phases, records a failure with its message and marks the rest skipped", async () => {
    const out: string[] = [];
    const phases = new PhaseRunner(["a", "b", "c"], (l) => out.push(l));
    expect(await phases.run("a", async (p) => (p.summary("fine"), 42))).toBe(42);
    await expect(
      phases.run("b", async () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    phases.skipRest();
    expect(phases.results.map((r) => [r.name, r.status, r.detail])).toEqual([
      ["a", "ok", "fine"],
      ["b", "failed", "boom"],
      ["c", "skipped", undefined],
    ]);
    expect(phases.allOk()).toBe(false);
    expect(out.join("\n")).toContain("▶ [2/3] b");
    expect(out.join("\n")).toContain("✗ b FAILED");
  });

  it("formats durations", () => {
    expect(formatSeconds(1234)).toBe("1.2 s");
    expect(formatSeconds(125_000)).toBe("2 min 05 s");
  });
});

describe("dataset sample", () => {
  const csv = readFileSync(seattleWeatherCsvPath(), "utf8").trim().split("\n");
  const rows = csv.slice(1).map((l) => ({ date: l.split(",")[0]! }));

  it("finds the CSV in vega-datasets with its 1461 days", () => {
    expect(csv[0]).toBe("date,precipitation,temp_max,temp_min,wind,weather");
    expect(rows).toHaveLength(1461);
  });

  it("is deterministic for a seed, differs between seeds, keeps the file order", () => {
    const a = sampleBySeed(rows, 50, 1, (r) => r.date);
    const b = sampleBySeed(rows, 50, 1, (r) => r.date);
    const c = sampleBySeed(rows, 50, 2, (r) => r.date);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(new Set(a.map((r) => r.date)).size).toBe(50);
    expect([...a.map((r) => r.date)].sort()).toEqual(a.map((r) => r.date));
    expect(sampleBySeed(rows, 1461, 9, (r) => r.date)).toEqual(rows);
    expect(() => sampleBySeed(rows, 1462, 1, (r) => r.date)).toThrow(RangeError);
  });
});

describe("options", () => {
  it("has embedded defaults", () => {
    const o = parseOptions([]);
    expect(o).toMatchObject({
      size: 200,
      publicFraction: 0.25,
      agents: [...AGENT_NAMES],
      seed: 8453,
      attempts: 3,
      prizeUsdc: 100,
      keepRunning: false,
    });
    expect(o.outDir.endsWith("/out")).toBe(true);
  });

  it("parses every option", () => {
    const o = parseOptions([
      "-n",
      "40",
      "--public-fraction",
      "0.5",
      "-a",
      "always-sun,author-baseline",
      "-s",
      "7",
    ]);
    expect(o).toMatchObject({
      size: 40,
      publicFraction: 0.5,
      agents: ["always-sun", "author-baseline"],
      seed: 7,
    });
    expect(parseOptions(["--keep-running", "--attempts", "2", "--prize", "5"])).toMatchObject({
      keepRunning: true,
      attempts: 2,
      prizeUsdc: 5,
      basePort: null,
    });
    expect(parseOptions(["--base-port", "43000"]).basePort).toBe(43000);
  });

  it("refuses bad values naming the option (exit status 1, no stack trace)", () => {
    const run = (args: string[]) => {
      try {
        execFileSync(process.execPath, ["--import", "tsx", "src/main.ts", ...args], { stdio: "pipe" });
        return { status: 0, stderr: "" };
      } catch (e) {
        const err = e as { status: number; stderr: Buffer };
        return { status: err.status, stderr: err.stderr.toString() };
      }
    };
    for (const [args, text] of [
      [["--size", "0"], "--size must be between 1 and 1461"],
      [["--size", "2000"], "--size must be between 1 and 1461"],
      [["--public-fraction", "1"], "--public-fraction must be a decimal strictly between 0 and 1"],
      [["--attempts", "x"], "--attempts must be a whole number"],
      [["--agents", "always-sun,always-sun"], "an agent is listed twice"],
      [["--base-port", "80"], "--base-port must be a whole number between 1024 and 65533"],
      [["--base-port", "65534"], "--base-port must be a whole number between 1024 and 65533"],
      [["--base-port", "4e4"], "--base-port must be a whole number between 1024 and 65533"],
    ] as const) {
      const r = run([...args]);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(text);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

// probe37 B-F7: `util.parseArgs` keeps an option's last occurrence, so `-a always-sun -a precipitation-rule`
// ran one agent and `--size=5 --size=6` 6 rows, in silence, against every bench-bounty command line's rule
describe("an option given twice", () => {
  const twice = (flags: string, first: string, second: string) =>
    repeatedOptionMessage(new Option(flags), first, second);

  it("is refused naming it and both values, in the words of the project's rule", () => {
    const refusal = (args: string[]) => {
      try {
        parseOptions(args);
      } catch (e) {
        expect(e).toBeInstanceOf(DemoOptionError);
        return (e as Error).message;
      }
      throw new Error(`accepted: ${args.join(" ")}`);
    };
    expect(refusal(["-a", "always-sun", "-a", "precipitation-rule"])).toBe(
      `${twice("-a, --agents <names>", "always-sun", "precipitation-rule")}; to run several agents, list them in one, comma-separated: --agents a,b`,
    );
    expect(refusal(["--size=5", "--size=6"])).toBe(twice("-n, --size <rows>", "5", "6"));
    expect(refusal(["-n", "5", "--size", "5"])).toBe(twice("-n, --size <rows>", "5", "5"));
    expect(refusal(["--out", "a", "--prize", "5", "-o", "b"])).toBe(twice("-o, --out <dir>", "a", "b"));
    expect(refusal(["--base-port", "43000", "--base-port=44000"])).toBe(
      twice("--base-port <port>", "43000", "44000"),
    );
    // flags without a value may repeat, as in every bench-bounty program
    expect(parseOptions(["-k", "--keep-running", "-v", "-v"])).toMatchObject({
      keepRunning: true,
      verbose: true,
    });
  });

  it("stops the demo before anything starts (exit status 1, no stack trace)", () => {
    // `--size 0` too: without the rule the wrapper still stops at once, on it, and never starts a run
    let r: { status: number; stderr: string } = { status: 0, stderr: "" };
    try {
      execFileSync(
        process.execPath,
        ["scripts/demo.mjs", "-a", "always-sun", "-a", "precipitation-rule", "--size", "0"],
        {
          cwd: "..",
          stdio: "pipe",
          env: { ...process.env, DEMO_SKIP_SETUP: "1" },
          timeout: 60_000,
        },
      );
    } catch (e) {
      const err = e as { status: number; stderr: Buffer };
      r = { status: err.status, stderr: err.stderr.toString() };
    }
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      `error: option '-a, --agents <names>' is given twice ("always-sun" and "precipitation-rule")`,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("formatting", () => {
  it("clips a long cell with an ellipsis and never cuts a hash silently", () => {
    const hash = "0x" + "ab".repeat(32);
    expect(clip("short text", 90)).toBe("short text");
    const reason = `pack hash ${hash} equals the recomputed keccak256 of the canonical bytes of the four blocks`;
    const clipped = clip(reason, 60);
    expect(clipped.length).toBeLessThanOrEqual(60);
    expect(clipped).toContain("0xababab…ababab");
    expect(clipped.endsWith("…")).toBe(true);
    expect(clipped).not.toContain(hash.slice(0, 40));
    expect(clip(`root ${hash}`, 40)).toBe("root 0xababab…ababab");
  });

  it("renders base units as USDC with 6 decimals, without floats", () => {
    expect(formatUsdc(50_000_000n)).toBe("50.000000");
    expect(formatUsdc("1")).toBe("0.000001");
    expect(formatUsdc("123456789012345678901234567890")).toBe("123456789012345678901234.567890");
  });

  it("aligns table columns, numbers to the right", () => {
    const t = renderTable(
      {
        head: ["agent", "score"],
        rows: [
          ["a", "0.5000"],
          ["longer", "10.0000"],
        ],
      },
      "",
    );
    expect(t.split("\n")).toEqual([
      "agent     score",
      "──────  ───────",
      "a        0.5000",
      "longer  10.0000",
    ]);
  });
});

describe("the remote runner's command (re-probe O7: keys in argv are visible in ps)", () => {
  it("passes the agent's key in BENCH_BOUNTY_API_KEY, never in the arguments", () => {
    const apiKey = "bbk_secretsecretsecret";
    const { args, env } = runnerInvocation({
      url: "http://127.0.0.1:1",
      slug: "s",
      agentId: "always-sun",
      apiKey,
      checkpoints: "/tmp/cp",
      hide: [],
    });
    expect(args.join(" ")).not.toContain(apiKey);
    expect(args).not.toContain("--api-key");
    expect(args.slice(0, 4)).toEqual(["run", "s", "--server", "http://127.0.0.1:1"]);
    expect(env).toEqual({ BENCH_BOUNTY_API_KEY: apiKey });
  });
});

// probe35 A-F1: the demo's agents run on the serving host as the service's user; one copied the service's
// platform.sqlite and read every gold
describe("the remote runner's agents do not see the demo's service store (probe35 A-F1)", () => {
  it("every runner attempt hides the demo's store directory, the service's store inside it", () => {
    const storeDir = "/tmp/bench-bounty-demo-x";
    const hide = agentHiddenPaths(storeDir);
    const service = serviceStoreDir(storeDir);
    expect(hide.some((h) => service === h || service.startsWith(h + "/"))).toBe(true);
    const { args } = runnerInvocation({
      url: "http://127.0.0.1:1",
      slug: "s",
      agentId: "precipitation-rule",
      apiKey: "bbk_x",
      checkpoints: `${storeDir}/agents`,
      hide,
    });
    const hidden = args.flatMap((a, i) => (a === "--agent-hide" ? [args[i + 1]] : []));
    expect(hidden).toEqual([storeDir]);
  });
});
