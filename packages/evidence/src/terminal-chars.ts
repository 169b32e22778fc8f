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
 * isolates (U+2066-U+2069) and the zero-width no-break space (U+FEFF); and the other characters that show
 * nothing (probe25 B-F2): the combining grapheme joiner (U+034F), the Hangul fillers (U+115F, U+1160,
 * U+3164, U+FFA0), the Khmer inherent vowels (U+17B4, U+17B5), the Mongolian variation selectors and vowel
 * separator (U+180B-U+180F), the word joiner and invisible operators (U+2060-U+2064), the deprecated format
 * characters (U+206A-U+206F), the interlinear annotation characters (U+FFF9-U+FFFB), the musical
 * formatting characters (U+1D173-U+1D17A) and the tag characters (U+E0000-U+E007F). The marks and invisible
 * characters reorder or hide what a printed line shows (probe22: a token symbol's U+200F reordered the
 * digits around it), so a command reads otherwise than it pastes. The body uses `\u{...}` escapes: a
 * pattern built from it needs the `u` flag ({@link terminalControlPattern} sets it).
 */
export const TERMINAL_CONTROL_RANGES =
  "\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u200b\\u200e\\u200f" +
  "\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\u3164\\ufeff\\uffa0\\ufff9-\\ufffb\\u{1d173}-\\u{1d17a}\\u{e0000}-\\u{e007f}";

/**
 * A global regular expression matching one character (one code point: flags `gu`) of
 * {@link TERMINAL_CONTROL_RANGES} (`runs`: a run of them) that is not in `except` (a character-class body:
 * `"\\t\\n"` keeps TAB and LF). A match may be two UTF-16 code units (a tag character).
 */
export function terminalControlPattern(opts: { except?: string; runs?: boolean } = {}): RegExp {
  const one = opts.except
    ? `(?![${opts.except}])[${TERMINAL_CONTROL_RANGES}]`
    : `[${TERMINAL_CONTROL_RANGES}]`;
  return new RegExp(opts.runs ? `(?:${one})+` : one, "gu");
}
