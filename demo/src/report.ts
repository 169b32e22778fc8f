/** The demo's presentation: the terminal tables and the Markdown report (`out/report.md`). */
import type { AwardResult, LeaderboardRow } from "@bench-bounty/platform";
import { FACT_DESCRIPTIONS, type VerificationReport } from "@bench-bounty/verifier";
import { join } from "node:path";
import type { DemoOptions } from "./options.mjs";
import { formatSeconds, type PhaseResult } from "./phase-runner.js";
import type { ClaimRecord, DemoResult, IndexerAward } from "./result.js";
import { clip, formatUsdc, markdownTable, renderTable, short, type Table } from "./table.js";
import { THRESHOLD_BPS } from "./terms.js";

function leaderboardTable(rows: readonly LeaderboardRow[], award: AwardResult | undefined): Table {
  const place = new Map(award?.winners.map((w) => [w.run_id, w.place]) ?? []);
  return {
    head: ["rank", "agent", "author", "attempts", "accuracy", "public", "composite", "wall s", "place"],
    rows: rows.map((r) => [
      String(r.rank),
      r.agent_id,
      r.is_author_agent ? "yes" : "",
      String(r.attempts_used),
      r.rank_accuracy ?? "(hidden)",
      r.score_public,
      r.score_composite,
      r.wall_seconds,
      place.has(r.run_id) ? String(place.get(r.run_id)) : "-",
    ]),
  };
}

function awardTable(award: AwardResult): Table {
  return {
    head: ["place", "agent", "withdrawal address", "USDC"],
    rows: award.winners.map((w) => [
      String(w.place),
      w.agent_id,
      w.withdrawal_address,
      formatUsdc(w.amount_base_units),
    ]),
  };
}

function claimsTable(claims: readonly ClaimRecord[]): Table {
  return {
    head: ["place", "agent", "claimed by", "how", "paid to", "USDC", "balance after", "credit left", "tx"],
    rows: claims.map((c) => [
      String(c.place),
      c.agent_id,
      short(c.account),
      c.relayed ? "relayed (claimWithSig)" : "claim",
      c.to === c.account ? "(itself)" : c.to,
      formatUsdc(c.amount),
      formatUsdc(c.balance_after),
      formatUsdc(c.credit_after),
      short(c.tx_hash),
    ]),
  };
}

/**
 * The verification facts: the terminal shows each fact's first reason cut to fit a line; the report
 * shows every reason in full, with what the fact recomputes.
 */
function factsTable(report: VerificationReport, full: boolean): Table {
  return {
    head: full ? ["fact", "state", "what it recomputes", "reasons"] : ["fact", "state", "reason"],
    rows: Object.entries(report.facts).map(([name, f]) =>
      full
        ? [name, f.state, FACT_DESCRIPTIONS[name as keyof typeof FACT_DESCRIPTIONS], f.reasons.join("; ")]
        : [name, f.state, clip(f.reasons[0] ?? "", 90)],
    ),
  };
}

function indexerTable(a: IndexerAward): Table {
  return {
    head: ["bounty", "block", "place", "account", "amount USDC", "claimed USDC", "outstanding"],
    rows: [...a.winners]
      .sort((x, y) => x.place - y.place)
      .map((w) => [
        String(a.bountyId),
        String(a.awardedBlock),
        String(w.place),
        w.account,
        formatUsdc(String(w.amount)),
        formatUsdc(String(w.claimedAmount)),
        formatUsdc(String(w.outstanding)),
      ]),
  };
}

/** Prints the tables the issue asks for (whatever is available after a failure). */
export function printSummary(result: DemoResult, options: DemoOptions, log: (line: string) => void): void {
  if (result.leaderboard && result.leaderboard.length > 0) {
    log("\n── leaderboard (best run per agent, SPEC 7.1) ──");
    log(renderTable(leaderboardTable(result.leaderboard, result.award)));
  }
  if (result.award) {
    log(`\n── award: bounty ${result.award.bounty_id}, tx ${result.award.award_tx} ──`);
    log(renderTable(awardTable(result.award)));
    if (result.chainAward) log(`    author remainder ${formatUsdc(result.chainAward.author_remainder)} USDC`);
  }
  if (result.claims) {
    log("\n── claims ──");
    log(renderTable(claimsTable(result.claims)));
  }
  if (result.verification) {
    const v = result.verification;
    log(`\n── verification facts (policy ${v.policy}: ${v.policy_met ? "met" : "NOT met"}) ──`);
    log(renderTable(factsTable(v, false)));
  }
  if (result.indexerAward) {
    log(`\n── award history as the indexer serves it (GET ${result.indexerUrl}/awards) ──`);
    log(renderTable(indexerTable(result.indexerAward)));
  }
  log(`\n── outputs (in ${options.outDir}) ──`);
}

/** The Markdown report (`out/report.md`). */
export function renderReport(
  result: DemoResult,
  options: DemoOptions,
  phases: readonly PhaseResult[],
  totalMs: number,
): string {
  const lines: string[] = [];
  lines.push("# bench-bounty demo report", "");
  lines.push(
    `${result.ok || phases.every((p) => p.status === "ok") ? "Finished" : "**FAILED**"} in ${formatSeconds(totalMs)} on ${new Date().toISOString()}.`,
    "",
    `Dataset: ${options.size} rows of \`vega-datasets/data/seattle-weather.csv\` (seed ${options.seed}), ` +
      `public fraction ${options.publicFraction}; agents: ${options.agents.join(", ")}; ${options.attempts} attempts each; ` +
      `prize ${options.prizeUsdc} USDC, top_n_split, threshold ${THRESHOLD_BPS} bps.`,
    "",
  );
  lines.push("## Phases", "");
  lines.push(
    markdownTable({
      head: ["phase", "status", "time", "detail"],
      rows: phases.map((p) => [
        p.name,
        p.status,
        p.status === "skipped" ? "" : formatSeconds(p.ms),
        p.detail ?? "",
      ]),
    }),
    "",
    `Total: ${formatSeconds(totalMs)}.`,
    "",
  );
  if (result.rpcUrl) {
    lines.push("## Chain", "");
    lines.push(`- chain id 8453 at ${result.rpcUrl} (stopped at the end unless \`--keep-running\`)`);
    if (result.contracts) {
      lines.push(
        `- BenchmarkBounty \`${result.contracts.benchmarkBounty}\`, AnchorRegistry \`${result.contracts.anchorRegistry}\`, USDC \`${result.contracts.usdc}\``,
      );
    }
    if (result.slug)
      lines.push(`- benchmark \`${result.slug}\`, bounty ${result.bountyId ?? "(not locked)"}`);
    if (result.serviceUrl) {
      const b = result.slug ? `#/b/${result.slug}/leaderboard` : "";
      lines.push(
        `- service \`bench-bounty serve\` at ${result.serviceUrl}: [web leaderboard](${result.serviceUrl}/${b}), ` +
          `[REST](${result.serviceUrl}/api/v1/benchmarks), [OpenAPI](${result.serviceUrl}/api/v1/openapi.json), MCP at ${result.serviceUrl}/mcp ` +
          "(stopped at the end unless `--keep-running`)",
      );
    }
    lines.push("");
  }
  if (result.leaderboard && result.leaderboard.length > 0)
    lines.push("## Leaderboard", "", markdownTable(leaderboardTable(result.leaderboard, result.award)), "");
  if (result.award) {
    lines.push(
      "## Award",
      "",
      `Award tx \`${result.award.award_tx}\` (block ${result.award.award_block}), ranking digest \`${result.award.ranking_digest}\`, pack hash \`${result.award.pack_hash}\`.`,
      "",
    );
    lines.push(markdownTable(awardTable(result.award)), "");
  }
  if (result.claims) lines.push("## Claims", "", markdownTable(claimsTable(result.claims)), "");
  if (result.verification) {
    lines.push(
      `## Verification (policy ${result.verification.policy}: ${result.verification.policy_met ? "met" : "not met"})`,
      "",
    );
    lines.push(markdownTable(factsTable(result.verification, true)), "");
  }
  if (result.indexerAward)
    lines.push("## Award history (indexer)", "", markdownTable(indexerTable(result.indexerAward)), "");
  if (result.independent) {
    lines.push("## Independent check (Python, from the SPEC alone)", "");
    lines.push(
      result.independent.ran
        ? ["```", result.independent.output, "```"].join("\n")
        : `Not run: ${result.independent.output}.`,
      "",
    );
  }
  lines.push("## Files", "");
  for (const [name, file] of Object.entries(result.files)) lines.push(`- ${name}: \`${file}\``);
  lines.push(`- report: \`${join(options.outDir, "report.md")}\``, "");
  return lines.join("\n");
}
