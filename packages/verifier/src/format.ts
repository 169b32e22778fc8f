/**
 * Human-readable rendering of a verification report (the CLI's default output).
 * @packageDocumentation
 */
import {
  FACT_NAMES,
  OPTIONAL_FACT_NAMES,
  type Fact,
  type FactState,
  type VerificationReport,
} from "./facts.js";
import { POLICY_DESCRIPTIONS } from "./policy.js";
import { oneLine, printable } from "./text.js";

/** Longest pack string (slug, contract, agent id) shown in the table's head and winners line, characters. */
const MAX_HEAD_CHARS = 120;

const MARK: Record<FactState, string> = {
  verified: "ok",
  failed: "FAIL",
  unverified: "??",
  "not-required": "--",
  "not-observed": "..",
};

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + " ".repeat(n - s.length);
}

function truncate(s: string, n: number): string {
  return s.length <= n ? s : s.slice(0, n - 3) + "...";
}

/** Options of {@link formatReportTable}. */
export interface TableOptions {
  /** Print every reason of every fact, untruncated (default: every reason of failed facts, the first of others, cut to the width). */
  verbose?: boolean;
  /** Line width (default 120). */
  width?: number;
}

/** A place's amount as words: "1 base unit", "6172841 base units", "? base units" when the report has none. */
function baseUnitsText(amount: string | bigint | undefined): string {
  if (amount === undefined) return "? base units";
  return `${amount} base unit${String(amount) === "1" ? "" : "s"}`;
}

/**
 * Render a report as a fixed-width table: one line per fact (state and first
 * reason), the failed facts' reasons in full below, then the policy line.
 * No control character is printed but the line feeds of the table: the pack's
 * strings are shown through `printable` (cut), and every line through `oneLine`.
 */
export function formatReportTable(report: VerificationReport, options: TableOptions = {}): string {
  const width = options.width ?? 120;
  const fit = (s: string): string => (options.verbose ? s : truncate(s, width - 38));
  const lines: string[] = [];
  const s = report.subject;
  // the subject is the pack's own text (probe D2-F9c: a slug of escapes printed "policy offline: MET")
  const head = (v: string): string => printable(v, MAX_HEAD_CHARS);
  lines.push(
    `bench-bounty verify: ${head(s.slug)} (bounty ${head(s.bounty_id)} on chain ${s.chain_id}, contract ${head(s.bounty_contract)})`,
  );
  lines.push(
    `pack:    ${report.observed.pack} (${report.observed.pack_bytes} bytes), pack_hash ${report.values.pack_hash ?? "(not computable)"}`,
  );
  lines.push(
    `chain:   ${report.observed.rpc ?? "not observed (no --rpc)"}${report.observed.rpc_chain_id !== null ? ` (chain id ${report.observed.rpc_chain_id})` : ""}`,
  );
  lines.push(`indexer: ${report.observed.indexer ?? "not observed (no --indexer)"}`);
  lines.push("");
  lines.push(`${pad("FACT", 20)} ${pad("STATE", 16)} DETAIL`);
  const reported = [...FACT_NAMES, ...OPTIONAL_FACT_NAMES.filter((n) => report.facts[n] !== undefined)];
  for (const name of reported) {
    const f: Fact = report.facts[name]!;
    const first = f.reasons[0] ?? "";
    lines.push(`${pad(name, 20)} ${pad(`${MARK[f.state]} ${f.state}`, 16)} ${fit(first)}`);
    const more = options.verbose ? f.reasons.slice(1) : f.state === "failed" ? f.reasons.slice(1) : [];
    for (const r of more) lines.push(`${" ".repeat(38)}${fit(r)}`);
  }
  lines.push("");
  const v = report.values;
  if (v.winners.length > 0) {
    lines.push(
      `winners: ${v.winners.map((w, i) => `${i + 1}. ${head(w)} (${baseUnitsText(v.place_amounts_base_units[i])})`).join(", ")}`,
    );
  } else {
    lines.push(`winners: none (${v.zero_winner_reason ?? "no reason derivable"})`);
  }
  lines.push("");
  lines.push(`policy ${report.policy}: ${POLICY_DESCRIPTIONS[report.policy]}`);
  lines.push(
    report.policy_met
      ? `policy ${report.policy}: MET`
      : `policy ${report.policy}: NOT MET (${report.policy_unmet.map((n) => `${n} is ${report.facts[n]?.state ?? "absent"}`).join(", ")})`,
  );
  // the last guard: whatever a reason quotes, no line is erased, moved or concealed on a terminal
  return lines.map(oneLine).join("\n") + "\n";
}
