"""What the generators of the evidence library's Unicode tables share (gen-unicode-assigned.py,
gen-unicode-nonstarters.py, gen-unicode-case-classes.py): the baseline check, the runs of code points of
one kind, the wrapping of the table's words and the TS module they write (read by
src/graders/code-point-ranges.ts)."""
import os
import sys
import unicodedata

BASELINE = "14.0.0"
GRADERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "graders")


def require_baseline():
    """Exits unless this python3's unicodedata is the baseline version."""
    if unicodedata.unidata_version != BASELINE:
        sys.exit(f"this python3's unicodedata is {unicodedata.unidata_version}, not {BASELINE}: use Python 3.11")


def kind_ranges(kind_of):
    """[(first, last, kind)] of the runs of code points of one kind (`kind_of(cp)`, None: not listed), in order."""
    out = []
    for cp in range(0x110000):
        k = kind_of(cp)
        if k is None:
            continue
        if out and out[-1][1] == cp - 1 and out[-1][2] == k:
            out[-1] = (out[-1][0], cp, k)
        else:
            out.append((cp, cp, k))
    return out


def span(a, b):
    """A range's word: hex `first-last`, or one `cp`."""
    return f"{a:x}-{b:x}" if a != b else f"{a:x}"


def write_table(file_name, doc, const_prefix, doc_of_text, words):
    """Writes src/graders/<file_name>: the module comment `doc` (lines without ` * `), the constants
    <const_prefix>_VERSION and <const_prefix>_TEXT (documented `doc_of_text`) holding `words` wrapped at 100
    characters."""
    lines, line = [], ""
    for w in words:
        if len(line) + len(w) + 1 > 100:
            lines.append(line)
            line = ""
        line = f"{line} {w}" if line else w
    lines.append(line)
    body = "\n".join(lines)
    comment = "\n".join(f" * {l}" for l in doc.strip("\n").split("\n"))
    text = f"""/**
{comment}
 * @packageDocumentation
 */

/** The Unicode version of {{@link {const_prefix}_TEXT}}. */
export const {const_prefix}_VERSION = "{BASELINE}";

/** {doc_of_text} */
export const {const_prefix}_TEXT = `
{body}
`;
"""
    out = os.path.join(GRADERS, file_name)
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    return out
