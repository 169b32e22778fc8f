/**
 * The tests' own reading of a generated Unicode table (`FIRST[-LAST]:KIND` words in hex), independent of
 * the library's `readRanges`, to compare the table with what python3's unicodedata says.
 */

/** The table's text as `[cp, kind]` for every code point it names, in order. */
export function tableEntries(text: string): [number, string][] {
  const out: [number, string][] = [];
  for (const w of text.trim().split(/\s+/)) {
    const [span, kind] = w.split(":") as [string, string];
    const [a, b] = span.split("-");
    for (let cp = parseInt(a!, 16); cp <= parseInt(b ?? a!, 16); cp++) out.push([cp, kind]);
  }
  return out;
}
