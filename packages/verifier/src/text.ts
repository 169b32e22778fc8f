/**
 * Text that came from outside (the pack, the chain, an RPC, the indexer, a server's error body) as it may
 * be shown on a terminal: the one rule for it (probe D2-F9). A terminal acts on control characters
 * (`ESC [2K` erases a line, `ESC [8m` conceals what follows, `\r` and `\n` start lines of the sender's own),
 * and Unicode's bidirectional overrides reorder what is shown; none of them is ever printed.
 * @packageDocumentation
 */
import { terminalControlPattern } from "@bench-bounty/evidence";

/** Runs of characters a terminal acts on (`TERMINAL_CONTROL_RANGES` of `@bench-bounty/evidence`, the one definition). */
const CONTROL_RUNS = terminalControlPattern({ runs: true });

/** The characters JSON.stringify leaves raw that a terminal still acts on (it escapes only U+0000-U+001F). */
const RAW_IN_JSON = terminalControlPattern({ except: "\\u0000-\\u001f" });

/** How many characters of an outside string a reason or message quotes (default of {@link printable}). */
export const MAX_QUOTED_CHARS = 300;

/**
 * `s` as it may be printed: every run of control characters (see above) becomes one space, the ends are
 * trimmed, and the result is cut to `max` UTF-16 code units (`...` included; never half of a surrogate pair).
 * Use it wherever a reason or a message quotes a string from the pack, the chain, an RPC or the indexer.
 */
export function printable(s: string, max: number = MAX_QUOTED_CHARS): string {
  const clean = s.replace(CONTROL_RUNS, " ").trim();
  if (clean.length <= max) return clean;
  let end = Math.max(0, max - 3);
  const last = clean.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // do not keep a high surrogate without its pair
  return `${clean.slice(0, end)}...`;
}

/**
 * One line of ours as it may be written to a terminal (a line of the table, an error message): every run of
 * control characters, line feeds included, becomes one space (the line is neither trimmed nor cut). The last
 * guard: whatever a reason quotes, it cannot erase, move or conceal a line, nor start a line of its own
 * (a forged `policy onchain: MET`). The reasons themselves quote outside strings through {@link printable}.
 */
export function oneLine(line: string): string {
  return line.replace(CONTROL_RUNS, " ");
}

/**
 * JSON text (already `JSON.stringify`d) with the characters JSON leaves raw but a terminal acts on
 * (DEL, C1 controls, U+2028/U+2029, bidi overrides) written as `\uXXXX` escapes: the same JSON value.
 */
export function terminalJson(json: string): string {
  // a character beyond U+FFFF (a tag character) is two UTF-16 code units: one `\\uNNNN` each, as JSON writes it
  return json.replace(RAW_IN_JSON, (c) =>
    Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`).join(
      "",
    ),
  );
}

/** A value shown bare in a reason: digits, letters and the punctuation of hex, decimals, lists and paths. */
const PLAIN_VALUE = /^[0-9A-Za-z_.:,+\-/[\]]+$/;

/**
 * A value from an outside answer as a reason shows it: bare when it is plain ({@link PLAIN_VALUE}: `5`,
 * `0xab...`, `[1,2]`), else as a JSON string (`" 1796556841"`, `""`, `"null"`), so that a value differing
 * from the expected one only by a space, a control character or quotes never reads as the expected one
 * (probe29 B-F5: {@link printable} trimmed `" 1796556841"` to `1796556841`). Cut to `max` characters.
 */
export function shownValue(s: string, max: number = MAX_QUOTED_CHARS): string {
  if (PLAIN_VALUE.test(s) && s !== "null") return printable(s, max);
  return printable(terminalJson(JSON.stringify(s)), max);
}
