/**
 * The characters a terminal acts on, or that hide or reorder what is shown, in text written by somebody
 * else (an agent's stderr, a pack's strings, a token's `symbol()`, an RPC's or an indexer's error): the one
 * definition, shared by the CLI (`terminalText`), the verifier (`printable`) and the Hardhat tasks
 * (`chainText`), each of which escapes or replaces them.
 * @packageDocumentation
 */

/**
 * The ranges, as the body of a regular expression's character class: C0 controls (U+0000-U+001F), DEL and
 * C1 controls (U+007F-U+009F: `U+009B` is a CSI of its own), the soft hyphen (U+00AD), the Arabic letter
 * mark (U+061C), the zero-width space (U+200B), the left-to-right and right-to-left marks (U+200E, U+200F),
 * the line/paragraph separators and bidirectional embeddings/overrides (U+2028-U+202E), the bidirectional
 * isolates (U+2066-U+2069) and the zero-width no-break space (U+FEFF). The marks and invisible characters
 * reorder or hide what a printed line shows (probe22: a token symbol's U+200F reordered the digits around
 * it), so a command reads otherwise than it pastes.
 */
export const TERMINAL_CONTROL_RANGES =
  "\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u200b\\u200e\\u200f\\u2028-\\u202e\\u2066-\\u2069\\ufeff";

/**
 * A global regular expression matching one character of {@link TERMINAL_CONTROL_RANGES} (`runs`: a run of
 * them) that is not in `except` (a character-class body: `"\\t\\n"` keeps TAB and LF).
 */
export function terminalControlPattern(opts: { except?: string; runs?: boolean } = {}): RegExp {
  const one = opts.except
    ? `(?![${opts.except}])[${TERMINAL_CONTROL_RANGES}]`
    : `[${TERMINAL_CONTROL_RANGES}]`;
  return new RegExp(opts.runs ? `(?:${one})+` : one, "g");
}
