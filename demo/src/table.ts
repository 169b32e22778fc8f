/** Plain-text and Markdown tables for the demo's terminal output and report. */

/** A table: header cells and rows of cells (already formatted as text). */
export interface Table {
  readonly head: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** Renders a table with aligned columns for the terminal (numbers right-aligned). */
export function renderTable({ head, rows }: Table, indent = "    "): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const numeric = head.map(
    (_, i) => rows.length > 0 && rows.every((r) => /^[-+]?[\d.,/]+$/.test(r[i] ?? "")),
  );
  const cell = (text: string, i: number): string =>
    numeric[i] ? text.padStart(widths[i] ?? 0) : text.padEnd(widths[i] ?? 0);
  const line = (cells: readonly string[]): string =>
    indent +
    cells
      .map((c, i) => cell(c, i))
      .join("  ")
      .trimEnd();
  return [line(head), indent + widths.map((w) => "─".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/** Renders a table as GitHub-flavoured Markdown (pipes in cells escaped). */
export function markdownTable({ head, rows }: Table): string {
  const esc = (s: string): string => s.replace(/\|/g, "\\|");
  return [
    `| ${head.map(esc).join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.map(esc).join(" | ")} |`),
  ].join("\n");
}

/** Base units (6 decimals) -> `"50.000000"` without floats. */
export function formatUsdc(baseUnits: bigint | string): string {
  const v = BigInt(baseUnits);
  const neg = v < 0n;
  const abs = neg ? -v : v;
  const whole = abs / 1_000_000n;
  const frac = (abs % 1_000_000n).toString().padStart(6, "0");
  return `${neg ? "-" : ""}${whole}.${frac}`;
}

/** `0x1234…abcd` for long hex values in terminal tables. */
export function short(hex: string, keep = 6): string {
  return hex.length > 2 * keep + 4 ? `${hex.slice(0, keep + 2)}…${hex.slice(-keep)}` : hex;
}

/**
 * Fits a text into `max` characters for a terminal cell without ever showing a cut value as whole:
 * long `0x` hex values are first shortened with {@link short} (which marks the cut with `…`), then a text
 * still too long is cut and ends with `…`.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const shortened = text.replace(/0x[0-9a-fA-F]{20,}/g, (hex) => short(hex));
  if (shortened.length <= max) return shortened;
  return `${shortened.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}
