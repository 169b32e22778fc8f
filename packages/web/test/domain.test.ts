import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatInterval, wilsonInterval } from "../src/domain/wilson.js";
import { classifyPrize, prizeRenderOf, prizeTimesText } from "../src/domain/prize.js";
import { formatUsdc, usdcFromBaseUnits } from "../src/domain/usdc.js";
import { addressUrl, chainViewOf, txUrl } from "../src/domain/explorer.js";
import { applyFilters, filterOptions, NO_FILTERS } from "../src/domain/filters.js";
import { boardView, taskTable } from "../src/domain/leaderboard.js";
import { outstandingTotal, placeViews } from "../src/domain/award.js";
import { factViews } from "../src/domain/facts.js";
import { competeCommands, shQuote, VERIFY_SETUP, verifyCommand } from "../src/domain/commands.js";
import { competeAtMainOf, howToCompete } from "../../platform/dist/index.js";
import { unanchoredCommitmentText } from "../src/domain/commitment.js";
import { parseRoute } from "../src/router.js";
import { parseConfig } from "../src/config.js";
import type {
  BenchmarkDetail,
  BenchmarkSummary,
  EvidencePack,
  IndexedBounty,
  Leaderboard,
} from "../src/api/types.js";
import type { TaskScores } from "../src/api/task-scores.js";

const TX = "0x" + "ab".repeat(32);

describe("Wilson score interval", () => {
  it("matches the textbook values (p = 0.5, n = 10: [0.2366, 0.7634])", () => {
    expect(formatInterval(wilsonInterval("0.5000", 10))).toBe("[0.2366, 0.7634]");
  });
  it("stays inside [0, 1] at the edges and narrows with n", () => {
    const one = wilsonInterval("1.0000", 8)!;
    expect(one.high).toBe(1);
    expect(one.low).toBeCloseTo(0.6756, 4);
    expect(wilsonInterval(0, 5)!.low).toBe(0);
    const w = (n: number) => wilsonInterval(0.7, n)!;
    expect(w(400).high - w(400).low).toBeLessThan(w(40).high - w(40).low);
  });
  it("refuses n < 1, a non-integer n and an accuracy outside [0, 1]", () => {
    expect(wilsonInterval("0.5", 0)).toBeNull();
    expect(wilsonInterval("0.5", 2.5)).toBeNull();
    expect(wilsonInterval("1.2", 10)).toBeNull();
    expect(formatInterval(null)).toBe("--");
  });
});

describe("prize renders", () => {
  it("tells the three renders apart and never makes a declared pool locked", () => {
    const addr = "0x" + "12".repeat(20);
    expect(classifyPrize(`Prize: 50 USDC, locked at ${addr}`).kind).toBe("locked");
    expect(classifyPrize(`50 USDC, locked at ${addr}`)).toMatchObject({
      kind: "locked",
      amount: "50",
      address: addr,
    });
    expect(classifyPrize("50 USDC")).toEqual({ kind: "declared", text: "50 USDC", amount: "50" });
    // the API's declared form carries the label too (probe37 B-F9: it read as no pool)
    expect(classifyPrize("Prize: 50 USDC")).toEqual({ kind: "declared", text: "50 USDC", amount: "50" });
    expect(classifyPrize("--").kind).toBe("none");
    expect(classifyPrize("locked, trust me").kind).toBe("none");
    expect(classifyPrize(undefined, null, "12345679")).toEqual({
      kind: "declared",
      text: "12.345679 USDC",
      amount: "12.345679",
    });
    expect(classifyPrize(undefined, null, null).kind).toBe("none");
  });
  // probe38 C-F1: the detail page showed no award deadline (a 1-second window read as a locked prize)
  it("shows the prize's close and award deadline as the API sends them (prize_award_deadline)", () => {
    expect(prizeTimesText({ prize_closes_at: 1_796_669_119, prize_award_deadline: 1_796_672_719 })).toBe(
      "Closes 2026-12-07T18:45:19.000Z; award deadline 2026-12-07T19:45:19.000Z (unawarded by then, the author may reclaim the pool)",
    );
    expect(prizeTimesText({ prize_award_deadline: 1_796_672_719 })).toBe(
      "Award deadline 2026-12-07T19:45:19.000Z (unawarded by then, the author may reclaim the pool)",
    );
    expect(prizeTimesText({ prize_closes_at: null, prize_award_deadline: null })).toBeNull();
    expect(prizeTimesText({})).toBeNull();
  });

  // probe37 B-F9: the web parsed the display string, and the API's "Prize: 100 USDC" read as no pool
  it("reads the API's structured prize facts first: never locked unless this read verified it", () => {
    const addr = "0x" + "5e".repeat(20);
    const served = { prize_pool_usdc: "100", prize_contract: addr };
    expect(prizeRenderOf({ ...served, prize: "Prize: 100 USDC", prize_verified: false })).toEqual({
      kind: "declared",
      text: "100 USDC",
      amount: "100",
    });
    expect(
      prizeRenderOf({ ...served, prize: `Prize: 100 USDC, locked at ${addr}`, prize_verified: true }),
    ).toEqual({ kind: "locked", text: `Prize: 100 USDC, locked at ${addr}`, amount: "100", address: addr });
    // a locked-looking string the API did not verify stays declared
    expect(
      prizeRenderOf({ ...served, prize: `Prize: 100 USDC, locked at ${addr}`, prize_verified: false }).kind,
    ).toBe("declared");
    expect(prizeRenderOf({ prize: "--", prize_pool_usdc: null, prize_verified: false }).kind).toBe("none");
    // an API without the facts: the string, then a pool in base units
    expect(prizeRenderOf({ prize: "Prize: 7 USDC" }).kind).toBe("declared");
    expect(prizeRenderOf({}, "7000000")).toEqual({ kind: "declared", text: "7 USDC", amount: "7" });
  });
});

describe("USDC amounts", () => {
  it("converts base units exactly with bigint", () => {
    expect(usdcFromBaseUnits("12345679")).toBe("12.345679");
    expect(usdcFromBaseUnits("50000000")).toBe("50");
    expect(usdcFromBaseUnits("1")).toBe("0.000001");
    expect(usdcFromBaseUnits("123456789012345678901234567890")).toBe("123456789012345678901234.56789");
    expect(usdcFromBaseUnits("-1")).toBeNull();
    expect(formatUsdc("1.5")).toBe("--");
    expect(formatUsdc(null)).toBe("--");
  });
});

describe("explorer links", () => {
  it("links Base and Base Sepolia, never a chain marked local (the devchain is 8453 too)", () => {
    expect(txUrl({ chainId: 8453, local: false }, TX)).toBe(`https://basescan.org/tx/${TX}`);
    expect(txUrl({ chainId: 84532, local: false }, TX)).toBe(`https://sepolia.basescan.org/tx/${TX}`);
    expect(txUrl({ chainId: 8453, local: true }, TX)).toBeNull();
    expect(txUrl({ chainId: 10, local: false }, TX)).toBeNull();
    expect(txUrl({ chainId: 8453, local: false }, "0x12")).toBeNull();
    expect(addressUrl({ chainId: 8453, local: false }, "0x" + "cd".repeat(20))).toMatch(
      /^https:\/\/basescan\.org\/address\//,
    );
  });
  it("takes local from the API or the config, the id from chain or bounty", () => {
    expect(chainViewOf({ chain: { chain_id: 8453, local: true } }, null)).toEqual({
      chainId: 8453,
      local: true,
    });
    expect(chainViewOf({ bounty: { chain_id: 8453 } }, true)).toEqual({ chainId: 8453, local: true });
    expect(chainViewOf({ bounty: { chain_id: 84532 } }, null)).toEqual({ chainId: 84532, local: false });
    expect(chainViewOf({}, true)).toBeNull();
  });
});

describe("benchmark filters", () => {
  const list: BenchmarkSummary[] = [
    {
      slug: "a",
      title: "A",
      status: "published",
      open: true,
      grader_type: "exact",
      version: "1",
      prize: "--",
    },
    {
      slug: "b",
      title: "B",
      status: "closed",
      open: false,
      grader_type: "numeric",
      version: "2",
      prize: "Prize: 5 USDC",
      prize_pool_usdc: "5",
      prize_verified: false,
    },
    { slug: "c", title: "C", status: "awarded", open: false, grader_type: "exact", prize: "Prize: 7 USDC" },
  ];
  const slugs = (f: Partial<typeof NO_FILTERS>) =>
    applyFilters(list, { ...NO_FILTERS, ...f }).map((b) => b.slug);
  it("filters by status, prize, grader type and version, and combines them", () => {
    expect(slugs({})).toEqual(["a", "b", "c"]);
    expect(slugs({ status: "open" })).toEqual(["a"]);
    expect(slugs({ status: "awarded" })).toEqual(["c"]);
    expect(slugs({ prize: "with" })).toEqual(["b", "c"]);
    expect(slugs({ prize: "without" })).toEqual(["a"]);
    expect(slugs({ graderType: "exact" })).toEqual(["a", "c"]);
    expect(slugs({ version: "unversioned" })).toEqual(["c"]);
    expect(slugs({ graderType: "exact", prize: "with" })).toEqual(["c"]);
    expect(filterOptions(list)).toEqual({
      status: ["awarded", "closed", "open"],
      graderType: ["exact", "numeric"],
      version: ["1", "2", "unversioned"],
    });
  });
});

describe("leaderboard rows", () => {
  const detail: BenchmarkDetail = {
    slug: "s",
    title: "S",
    status: "published",
    open: true,
    public_tasks: 40,
    private_tasks: 20,
    public_tasks_per_run: 10,
  };
  const row = {
    rank: 1,
    agent_id: "a",
    run_id: "r1",
    score_public: "0.8000",
    wall_seconds: "1.000",
    attempts_used: 2,
  };
  it("shows the public composite while open and never the private one (SPEC 6.1)", () => {
    const open: Leaderboard = {
      slug: "s",
      status: "published",
      open: true,
      rows: [{ ...row, score_composite: "0.9999", score_composite_public: "0.7000" }],
    };
    const v = boardView(open, detail, 30);
    expect(v.rows[0]).toMatchObject({
      composite: "0.7000",
      accuracy: "0.8000",
      tasks: 10,
      provisional: true,
    });
    const noPublic = boardView({ ...open, rows: [{ ...row, score_composite: "0.9999" }] }, detail, 30);
    expect(noPublic.rows[0]!.composite).toBe("--");
  });
  it("uses the private accuracy and count once closed, provisional below the minimum", () => {
    const closed: Leaderboard = {
      slug: "s",
      status: "closed",
      open: false,
      rows: [{ ...row, score_composite: "0.9000", rank_accuracy: "0.5000" }],
    };
    const v = boardView(closed, detail, 20);
    expect(v.final).toBe(true);
    expect(v.rows[0]).toMatchObject({
      composite: "0.9000",
      accuracy: "0.5000",
      tasks: 20,
      provisional: false,
    });
    expect(formatInterval(v.rows[0]!.interval)).toBe(formatInterval(wilsonInterval(0.5, 20)));
  });
  it("builds the per-task table from the served credits: bank columns, ranked rows only", () => {
    const closed: Leaderboard = {
      slug: "s",
      status: "closed",
      open: false,
      rows: [
        { ...row, score_composite: "0.9000" },
        { ...row, rank: 2, agent_id: "c", run_id: "r-unserved", score_composite: "0.1000" },
      ],
    };
    const run = (
      run_id: string,
      agent_id: string,
      tasks: TaskScores["runs"][number]["tasks"],
    ): TaskScores["runs"][number] => ({
      run_id,
      agent_id,
      attempt: 1,
      finalized_at: "2026-01-01T00:00:00.000Z",
      receipt_hash: `0x${"00".repeat(32)}`,
      score_public: "0.6667",
      rank_accuracy: "0.6667",
      score_composite: "0.9000",
      tasks,
    });
    const scores: TaskScores = {
      slug: "s",
      status: "closed",
      open: false,
      stage: "closed",
      served_to: "everyone",
      private_credits: "shown",
      note: "n",
      offset: 0,
      limit: 100,
      next_offset: null,
      bank: [9, 3, 4].map((o) => ({
        bank_ordinal: o,
        visibility: o === 9 ? "private" : "public",
        grader_type: "exact",
      })),
      runs: [
        run("r1", "a", [
          { ordinal: 0, bank_ordinal: 9, visibility: "private", credit: "0/1" },
          { ordinal: 1, bank_ordinal: 3, visibility: "public", credit: "2/3" },
        ]),
        run("other", "b", [{ ordinal: 0, bank_ordinal: 9, visibility: "private", credit: "1/1" }]),
      ],
    };
    const t = taskTable(boardView(closed, detail, 1).rows, scores);
    expect(t.ordinals).toEqual([3, 4, 9]);
    expect(t.visibility).toEqual({ 3: "public", 4: "public", 9: "private" });
    expect(t.rows).toEqual([
      { rank: 1, agent: "a", runId: "r1", served: true, credits: { 9: "0/1", 3: "2/3" } },
      { rank: 2, agent: "c", runId: "r-unserved", served: false, credits: {} },
    ]);
    // before the award a private task's credit is withheld (null, probe36 C-F2): kept as null, not "--"
    const withheld = taskTable(boardView(closed, detail, 1).rows, {
      ...scores,
      private_credits: "withheld",
      runs: [run("r1", "a", [{ ordinal: 0, bank_ordinal: 9, visibility: "private", credit: null }])],
    });
    expect(withheld.rows[0]!.credits).toEqual({ 9: null });
  });
});

describe("award places", () => {
  const pack = {
    winners: [
      {
        place: 1,
        agent_id: "a",
        withdrawal_address: "0x" + "01".repeat(20),
        amount_base_units: "600",
        run_id: "r1",
      },
      {
        place: 2,
        agent_id: "b",
        withdrawal_address: "0x" + "02".repeat(20),
        amount_base_units: "400",
        run_id: "r2",
      },
    ],
  } as EvidencePack;
  const w = (place: number, account: string, amount: string, claimed: string) => ({
    place,
    account,
    amount,
    claimedAmount: claimed,
    outstanding: (BigInt(amount) - BigInt(claimed)).toString(),
    awardedTx: TX,
    claimTx: claimed === "0" ? null : TX,
  });
  it("joins the indexer's claims by place and sums the outstanding credit", () => {
    const indexed = {
      winners: [w(1, "0x" + "01".repeat(20), "600", "600"), w(2, "0x" + "02".repeat(20), "400", "0")],
    } as IndexedBounty;
    const v = placeViews(pack, indexed);
    expect(v.map((p) => p.claimState)).toEqual(["claimed", "unclaimed"]);
    expect(outstandingTotal(v)).toBe("400");
  });
  it("says where the indexer disagrees, and 'not observed' without an indexer", () => {
    const indexed = { winners: [w(1, "0x" + "09".repeat(20), "601", "0")] } as IndexedBounty;
    const v = placeViews(pack, indexed);
    expect(v[0]!.disagreements).toEqual([
      expect.stringContaining("amount: pack 600, indexer 601"),
      expect.stringContaining("account:"),
    ]);
    expect(v[1]!.disagreements).toEqual(["the indexer has no place 2"]);
    expect(placeViews(pack, null).map((p) => p.claimState)).toEqual(["not observed", "not observed"]);
    expect(outstandingTotal(placeViews(pack, null))).toBeNull();
  });
});

describe("fact labels", () => {
  it("keeps each fact with its own state and reasons, in report order; an unknown state is not one of the five", () => {
    const v = factViews({
      pack_hash: { state: "failed", reasons: ["x"] },
      onchain_root: { state: "not-observed", reasons: [] },
      odd: { state: "ok", reasons: [] },
    });
    expect(v.map((f) => [f.name, f.label, f.state])).toEqual([
      ["pack_hash", "Pack hash", "failed"],
      ["onchain_root", "On-chain root", "not-observed"],
      ["odd", "Odd", "unknown"],
    ]);
    expect(v[0]!.reasons).toEqual(["x"]);
    expect(v[2]!.reasons[0]).toContain('"ok"');
  });
});

describe("commands", () => {
  it("name this benchmark's slug and API, quoted for sh", () => {
    const c = competeCommands("https://bench.example/", "my-bench");
    expect(c.mcp.endpoint).toBe("https://bench.example/mcp/benchmarks/my-bench/http");
    expect(c.rest[4]!.command).toBe(
      'curl -s -X POST https://bench.example/api/v1/benchmarks/my-bench/runs -H "X-API-Key: $BENCH_BOUNTY_API_KEY"',
    );
    expect(c.script[3]!.command).toBe("export BENCH_BOUNTY_WITHDRAWAL_ADDRESS=0xYOUR_ADDRESS");
    expect(c.script[4]!.command).toBe(
      "curl -sSL https://bench.example/api/v1/scripts/run-benchmark.sh | sh -s -- https://bench.example start my-bench",
    );
    // probe38 A-N1: the script's submit finalizes at once: its title says so (it read as the REST submissions step)
    // the key and run id Phase 1 printed are set before Phase 2 uses them (d38's note: no step set them)
    expect(c.script[5]!.command).toBe("export BENCH_BOUNTY_API_KEY=...; RUN_ID=...");
    expect(c.script[6]!.title).toContain(
      "submit = submit ALL your answers and finalize the run (uses up the attempt)",
    );
    expect(c.script[6]!.command).toContain('submit "$RUN_ID"');
    expect(shQuote("it's")).toBe(`'it'\\''s'`);
    expect(verifyCommand({})).toBe("npx pnpm@12.4.2 exec bench-bounty verify pack.json --policy offline");
    expect(verifyCommand({ rpcUrl: "http://127.0.0.1:8545", indexerUrl: "http://127.0.0.1:42069" })).toBe(
      "npx pnpm@12.4.2 exec bench-bounty verify pack.json --rpc http://127.0.0.1:8545 --indexer http://127.0.0.1:42069 --policy full",
    );
  });

  // probe37 A-F1: a server without the service's chain on a store used on one refuses the address (and a
  // prize benchmark's run) 503 no_chain; the page printed them against it, as the API's walk no longer does
  it("send what the detail's compete_at_main names to $MAIN, as the API's how_to_compete does; reads stay here", () => {
    const how = (prize: boolean) => howToCompete("my-bench", "https://bench.example", { prize });
    const at = (prize: boolean) => competeAtMainOf({ prize });
    const key = '-H "X-API-Key: $BENCH_BOUNTY_API_KEY"';
    for (const prize of [false, true]) {
      const c = competeCommands("https://bench.example", "my-bench", at(prize));
      const byTitle = (t: RegExp) => c.rest.find((r) => t.test(r.title))!.command;
      expect(byTitle(/^Set a withdrawal address/)).toMatch(
        /^curl -s -X PUT "\$MAIN\/api\/v1\/accounts\/me\/withdrawal-address" /,
      );
      expect(how(prize)).toContain("PUT $MAIN/api/v1/accounts/me/withdrawal-address");
      const runsAt = prize ? '"$MAIN/api/v1' : "https://bench.example/api/v1";
      expect(byTitle(/^Start a run/)).toBe(
        `curl -s -X POST ${runsAt}/benchmarks/my-bench/runs${prize ? '"' : ""} ${key}`,
      );
      expect(how(prize)).toContain(
        `POST ${prize ? "$MAIN" : "https://bench.example"}/api/v1/benchmarks/my-bench/runs`,
      );
      expect(byTitle(/^Submit/)).toContain(
        `"${prize ? "$MAIN" : "https://bench.example"}/api/v1/benchmarks/runs/$RUN_ID/submissions"`,
      );
      expect(byTitle(/^Finalize/)).toContain(
        `"${prize ? "$MAIN" : "https://bench.example"}/api/v1/benchmarks/runs/$RUN_ID/finalize"`,
      );
      // reads here
      expect(byTitle(/^Corpus/)).toContain("https://bench.example/api/v1/benchmarks/my-bench/corpus");
      expect(byTitle(/^Leaderboard/)).toContain(
        "https://bench.example/api/v1/benchmarks/my-bench/leaderboard",
      );
      // the MCP calls and the script set the address: at the main address
      expect(c.mcp.endpoint).toBe("$MAIN/mcp/benchmarks/my-bench/http");
      expect(c.script[4]!.command).toBe(
        'curl -sSL https://bench.example/api/v1/scripts/run-benchmark.sh | sh -s -- "$MAIN" start my-bench',
      );
      expect(c.script[6]!.command).toMatch(/ \| sh -s -- "\$MAIN" submit "\$RUN_ID" /);
    }
    // a server that takes every step: nothing at $MAIN
    expect(competeAtMainOf(null)).toBeNull();
    expect(JSON.stringify(competeCommands("https://bench.example", "my-bench", null))).not.toContain("$MAIN");
  });

  it("the verify command's set-up is the root README's install and build, a line of its own there (probe35 B-F3: install alone)", () => {
    const readme = readFileSync(fileURLToPath(new URL("../../../README.md", import.meta.url)), "utf8");
    expect(readme.split("\n")).toContain(VERIFY_SETUP);
    expect(VERIFY_SETUP).toMatch(/install .*&& npx pnpm@12\.4\.2 build$/);
  });
});

describe("routes and config", () => {
  it("parses the hash routes", () => {
    expect(parseRoute("")).toEqual({ page: "benchmarks" });
    expect(parseRoute("#/b/a%20b/leaderboard")).toEqual({ page: "leaderboard", slug: "a b" });
    expect(parseRoute("#/b/x")).toEqual({ page: "benchmark", slug: "x" });
    expect(parseRoute("#/b/x/nope").page).toBe("not-found");
    expect(parseRoute("#/b/%E0%A4%A").page).toBe("not-found");
  });
  it("reads config.json and names a bad key", () => {
    expect(parseConfig({}, "http://o")).toEqual({
      apiBaseUrl: "http://o",
      indexerUrl: null,
      localChain: null,
      rpcUrl: null,
      minTasks: 30,
    });
    expect(
      parseConfig({ apiBaseUrl: "https://api.x/", localChain: true, minTasks: 5 }, "http://o"),
    ).toMatchObject({ apiBaseUrl: "https://api.x", localChain: true, minTasks: 5 });
    expect(() => parseConfig({ minTasks: 0 }, "o")).toThrow("$.minTasks");
    expect(() => parseConfig({ localChain: "yes" }, "o")).toThrow("$.localChain");
  });
});

describe("inlined configuration", () => {
  it("inlines the config in index.html, drops the config.json preload, and escapes '<'", async () => {
    const { inlineConfig } = await import("../node/index.js");
    const html =
      '<head>\n    <!-- fetched first -->\n    <link rel="preload" href="./config.json" as="fetch" crossorigin="anonymous" />\n  </head>';
    const out = inlineConfig(
      html,
      JSON.stringify({ indexerUrl: "http://x/</script><script>alert(1)</script>" }),
    );
    expect(out).not.toContain("config.json");
    expect(out).not.toContain("</script><script>");
    const m = /<script id="bb-config" type="application\/json">([^<]*)<\/script>/.exec(out);
    expect(JSON.parse(m![1]!).indexerUrl).toBe("http://x/</script><script>alert(1)</script>");
  });
});

describe("a commitment without a recorded anchor (probe15 A-F6)", () => {
  it("names a squat with the kind found, the anchorer and the block; pending and off-chain apart", () => {
    const squat = { found_kind: "pack", anchorer: "0x" + "99".repeat(20), anchor_block: 8 };
    const text = unanchoredCommitmentText({ status: "squatted", squat });
    expect(text).toMatch(/^squatted: anchored first by 0x9999.* in block 8 with kind pack/);
    expect(text).toContain("no run starts");
    expect(unanchoredCommitmentText({ status: "pending", squat: null })).toMatch(/^pending/);
    expect(unanchoredCommitmentText({ status: "off_chain", squat: null })).toBe("not anchored");
    expect(unanchoredCommitmentText({})).toBe("not anchored");
  });
});
