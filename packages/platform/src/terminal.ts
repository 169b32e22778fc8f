/**
 * Text from others on the operator's terminal: the one place. An agent's stderr, a server's refusal
 * (`run --server`), a chain's or an indexer's error message and an agent's answers are written by
 * somebody else; printed raw, their control characters act on the terminal (probeD3 F2: an agent's
 * `ESC ] 52 ; c ; ... BEL` set the operator's clipboard and `ESC [ 2K` erased the line right above the
 * printed `resume` command). Everything the CLI prints that such text may reach goes through
 * {@link terminalText} (plain lines) or {@link terminalJson} (JSON documents).
 */
import { terminalControlPattern } from "@bench-bounty/evidence";

/**
 * What acts on a terminal, TAB and LF kept: `TERMINAL_CONTROL_RANGES` of `@bench-bounty/evidence`, the one
 * definition (C0 and C1 controls, DEL, the line/paragraph separators, bidirectional overrides, isolates
 * and marks, zero-width and soft-hyphen characters: they act on, reorder or hide what is shown, so a
 * printed command reads otherwise than it pastes).
 */
const TERMINAL_CONTROL = terminalControlPattern({ except: "\\t\\n" });

const hex = (n: number, width: number): string => n.toString(16).padStart(width, "0");

/**
 * `text` safe to write to a terminal: every {@link TERMINAL_CONTROL} character written as a visible
 * escape, `\xNN` below U+0100 (ESC is `\x1b`, CR `\x0d`), `\u{NNNN}` above; TAB and LF kept. Nothing
 * else changes, so plain text prints as it is.
 */
export function terminalText(text: string): string {
  return text.replace(TERMINAL_CONTROL, (c) => {
    const cp = c.codePointAt(0)!;
    return cp < 0x100 ? `\\x${hex(cp, 2)}` : `\\u{${hex(cp, 4)}}`;
  });
}

/**
 * JSON text (a serializer's output: C0 controls inside its strings are escaped already, the only raw
 * LFs are its own) safe to write to a terminal: every {@link TERMINAL_CONTROL} character, only ever
 * inside a string, written as a `\uNNNN` escape, so the text parses to the same value.
 */
export function terminalJsonText(json: string): string {
  // a character beyond U+FFFF (a tag character) is two UTF-16 code units: one `\\uNNNN` each, as JSON writes it
  return json.replace(TERMINAL_CONTROL, (c) =>
    Array.from({ length: c.length }, (_, i) => `\\u${hex(c.charCodeAt(i), 4)}`).join(""),
  );
}

/** `value` as indented JSON (bigints as decimal strings), terminal-safe ({@link terminalJsonText}). */
export function terminalJson(value: unknown): string {
  const json = JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v), 2);
  return terminalJsonText(String(json));
}

/** Quotes one shell word (POSIX sh) unless it is plain: every command printed to paste uses it. */
export function shellWord(w: string): string {
  return /^[A-Za-z0-9_./:@=,+-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`;
}

/** One control character of a one-line text (none kept), and of a multi-line one (TAB and LF kept). */
const LINE_CONTROL = new RegExp(terminalControlPattern().source, "u");
const TEXT_CONTROL = new RegExp(terminalControlPattern({ except: "\\t\\n" }).source, "u");

/**
 * Why `text`, a field people read in lists and on terminals (a dataset's name or description, a
 * benchmark's title), is refused: the first character a terminal acts on or that hides or reorders text
 * (`TERMINAL_CONTROL_RANGES`, the one definition; a one-line field keeps none, a `multiline` one keeps TAB
 * and LF), named by its code point and position; null when there is none (probe24, probe25 B-F3).
 */
export function controlCharacterProblem(
  field: string,
  text: string,
  opts: { multiline?: boolean } = {},
): string | null {
  const found = (opts.multiline ? TEXT_CONTROL : LINE_CONTROL).exec(text);
  if (found === null) return null;
  const cp = found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
  return `${field} holds the control character U+${cp} at position ${found.index} (${opts.multiline ? "text shown to others takes no character a terminal acts on or that hides or reorders text" : "a " + field + " is one line of plain text"})`;
}
