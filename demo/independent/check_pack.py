#!/usr/bin/env python3
"""An independent check of a bench-bounty award evidence pack, written from spec/SPEC.md alone.

Python standard library only (Keccak-256 is implemented below from FIPS 202 with the original Keccak
padding); nothing is shared with the TypeScript packages, so agreement between this script and
`@bench-bounty/verifier` is agreement between two implementations of the protocol.

    python3 demo/independent/check_pack.py out/pack.json [--rpc http://127.0.0.1:8545]
        [--rpc-timeout SECONDS (30)] [--deadline SECONDS (1800)]

Checks (SPEC section): pack hash (8); commitment root and leaf count from the revealed rows (3);
ranking digest (8); the grader_types examples: each gold a valid gold of its grader, each credit the grade
of its answer (5, 8; the gold_shape and semantics texts are not checked); receipt hashes and answer digests of the winners (4); regrade of the winners'
answers (all four graders), their accuracy and public score, and each graded credit their receipts
state (4, 5, 6); every row's composite (6), and every receipt a row carries: its hash, its run, agent,
benchmark and tasks, the members the row repeats from it and its achieved_at, the receipt's finalized_at,
the scores its stated credits give (4, 6, 7.1, 8), a row that carries no receipt and is no winner's failing it (its values are the
awarder's word, SPEC 8 making the receipt optional); row order (7.1); winner selection (7.2); splits and payout rule (1), the two
pool figures (8), place amounts and winner amounts (7.3). With --rpc also:
chain id, code at the bounty contract, testSetRoots, leafCountOf, rootBurned, the Awarded log of award_tx
(winners, amounts, remainder, ranking digest), and the anchors of the commitment, the pack and the winners' receipts
(AnchorRegistry.anchorOf, kinds; receipts at or before the award block, of any kind) (1, 9).

Prints one line per check. Exit codes: 0 every check passed; 1 one failed; 2 unreadable input: a pack
that cannot be read or parsed, or whose shape or values are outside what the checks compute with
(`check_pack: malformed pack: $.winners[0].answer_salt: ...`, naming the JSON path), or a bad option
(an --rpc that is not an http(s) URL); 3 the RPC could not be read (down, no whole answer within
--rpc-timeout, more than 64 MiB, not JSON-RPC, a refusal, an answer of the wrong shape or to another
request id, a getBounty or anchorOf answer that is not the view's ABI value (a tuple offset other than
0x20, an address word with its upper 12 bytes set, an integer past its type's width, a malformed
splitsBps), a receipt of another transaction or with a log of another or removed by a reorg: one line
naming the RPC by its origin, the method and the cause), the whole check did not finish within
--deadline, or standard output could not be written; 4 an internal error (a bug in this script: one
line; CHECK_PACK_DEBUG=1 prints the traceback). Never a traceback otherwise.

Limits (those of the TypeScript verifier, `PACK_LIMITS`): a pack of at most 512 MiB (a device, socket
or directory is refused unread), strings and keys of at most 4 Mi UTF-16 code units, nesting of at
most 10,000 levels, integers of at most 78 digits, counts / indexes / blocks / times in 0..2^53-1,
amounts in 0..2^256-1 and bounty_id in 1..2^256-1, decimals of at most 100 characters, at most 8 splits and 8 winners
(SPEC 1) and 64 place amounts; one RPC
answer of at most 64 MiB, arriving whole (headers and body) within --rpc-timeout (30 s).
"""

from __future__ import annotations

import argparse
import base64
import http.client
import json
import math
import os
import re
import stat
import sys
import threading
import time
import traceback
import unicodedata
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, Context, Decimal, localcontext
from fractions import Fraction

# ---------------------------------------------------------------------------------------------------
# Keccak-256 (FIPS 202 permutation, rate 1088 bits, Keccak padding 0x01 ... 0x80)

_MASK = (1 << 64) - 1


def _round_constants() -> list[int]:
    """The 24 iota constants from the rc(t) LFSR of FIPS 202, 3.2.5."""
    out = []
    r = 1
    bits = []
    for _ in range(255):
        bits.append(r & 1)
        r <<= 1
        if r & 0x100:
            r ^= 0x171  # x^8 + x^6 + x^5 + x^4 + 1
    for i in range(24):
        c = 0
        for j in range(7):
            if bits[(7 * i + j) % 255]:
                c |= 1 << ((1 << j) - 1)
        out.append(c)
    return out


def _rotations() -> list[list[int]]:
    """rho offsets r[x][y] (FIPS 202, 3.2.2)."""
    r = [[0] * 5 for _ in range(5)]
    x, y = 1, 0
    for t in range(24):
        r[x][y] = ((t + 1) * (t + 2) // 2) % 64
        x, y = y, (2 * x + 3 * y) % 5
    return r


_RC = _round_constants()
_ROT = _rotations()


def _rotl(v: int, n: int) -> int:
    return ((v << n) | (v >> (64 - n))) & _MASK if n else v


def _keccak_f(a: list[int]) -> None:
    """The permutation on 25 lanes, lane (x, y) at index x + 5y."""
    for rc in _RC:
        c = [a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20] for x in range(5)]
        d = [c[(x - 1) % 5] ^ _rotl(c[(x + 1) % 5], 1) for x in range(5)]
        for i in range(25):
            a[i] ^= d[i % 5]
        b = [0] * 25
        for x in range(5):
            for y in range(5):
                b[y + 5 * ((2 * x + 3 * y) % 5)] = _rotl(a[x + 5 * y], _ROT[x][y])
        for y in range(5):
            row = b[5 * y : 5 * y + 5]
            for x in range(5):
                a[x + 5 * y] = row[x] ^ (~row[(x + 1) % 5] & _MASK & row[(x + 2) % 5])
        a[0] ^= rc


def keccak256(data: bytes) -> bytes:
    rate = 136
    msg = bytearray(data)
    msg.append(0x01)
    while len(msg) % rate:
        msg.append(0)
    msg[-1] |= 0x80
    state = [0] * 25
    for off in range(0, len(msg), rate):
        block = msg[off : off + rate]
        for i in range(rate // 8):
            state[i] ^= int.from_bytes(block[8 * i : 8 * i + 8], "little")
        _keccak_f(state)
    return b"".join(state[i].to_bytes(8, "little") for i in range(4))


def hx(b: bytes) -> str:
    return "0x" + b.hex()


assert hx(keccak256(b"")) == "0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"

# ---------------------------------------------------------------------------------------------------
# SPEC 2: canonical JSON is Python's json.dumps(sort_keys, compact separators, raw UTF-8)


def canonical(v) -> bytes:
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _no_duplicates(pairs):
    out = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"duplicate key {k!r}")
        out[k] = v
    return out


# ---------------------------------------------------------------------------------------------------
# SPEC 5 (exact grader) and 6 (scores)

_WHITE_SPACE = set(
    [chr(c) for c in range(0x09, 0x0E)]
    + ["\u0020", "\u0085", "\u00a0", "\u1680"]
    + [chr(c) for c in range(0x2000, 0x200B)]
    + ["\u2028", "\u2029", "\u202f", "\u205f", "\u3000"]
)


def norm(s: str) -> str:
    s = unicodedata.normalize("NFKC", s)
    out, in_ws = [], False
    for ch in s:
        if ch in _WHITE_SPACE:
            if not in_ws:
                out.append(" ")
            in_ws = True
        else:
            out.append(ch)
            in_ws = False
    return "".join(out).strip(" ").lower()


def _trim_ws(s: str) -> str:
    i, j = 0, len(s)
    while i < j and s[i] in _WHITE_SPACE:
        i += 1
    while j > i and s[j - 1] in _WHITE_SPACE:
        j -= 1
    return s[i:j]


# UAX #15 section 13, the Stream-Safe Text Format (probe36 A-F9): NFKC sorts a run of non-starters
# (canonical combining class != 0, as NFKD decomposes the text) in time quadratic in its length, here as
# in the verifier; a text with a run of more than 30 is not graded (the platform refuses it at submit and
# publish). The same counts as evidence's firstLongNonStarterRun: a code point not assigned in this
# unicodedata counts as one non-starter.
MAX_NON_STARTER_RUN = 30
_NON_STARTER_KIND: dict[str, tuple[int, bool]] = {}


def _non_starter_kind(ch: str) -> tuple[int, bool]:
    """(n, True) when NFKD(ch) is n non-starters (or ch is unassigned: (1, True)); else (n, False) with n
    the non-starters ending NFKD(ch)."""
    k = _NON_STARTER_KIND.get(ch)
    if k is None:
        if unicodedata.category(ch) == "Cn":
            k = (1, True)
        else:
            ccc = [unicodedata.combining(c) for c in unicodedata.normalize("NFKD", ch)]
            trail = 0
            while trail < len(ccc) and ccc[len(ccc) - 1 - trail] != 0:
                trail += 1
            k = (trail, trail == len(ccc))
        _NON_STARTER_KIND[ch] = k
    return k


def long_non_starter_run(s: str) -> int | None:
    """The UTF-16 offset of the code point starting the first run of more than MAX_NON_STARTER_RUN
    non-starters of s, or None."""
    count = start = off = 0
    for ch in s:
        cp = ord(ch)
        if cp >= 0xA8:
            n, whole = _non_starter_kind(ch)
            if whole:
                if count == 0:
                    start = off
                count += n
                if count > MAX_NON_STARTER_RUN:
                    return start
            else:
                count, start = n, off
        else:
            count, start = 0, off
        off += 2 if cp > 0xFFFF else 1
    return None


def gold_norm_texts(grader: str, gold, path: str) -> list[tuple[str, str]]:
    """[(path, text)] of the gold strings norm reads (evidence goldNormTexts)."""
    out = []
    if not isinstance(gold, dict):
        return out
    if grader == "exact":
        if isinstance(gold.get("value"), str):
            out.append((f"{path}.value", gold["value"]))
        alts = gold.get("alternatives")
        for i, v in enumerate(alts if isinstance(alts, list) else []):
            if isinstance(v, str):
                out.append((f"{path}.alternatives[{i}]", v))
    elif grader == "contains_all":
        terms = gold.get("terms")
        for i, v in enumerate(terms if isinstance(terms, list) else []):
            if isinstance(v, str):
                out.append((f"{path}.terms[{i}]", v))
    elif grader == "json_fields" and isinstance(gold.get("fields"), dict):
        for name, v in gold["fields"].items():
            if isinstance(v, str):
                out.append((f"{path}.fields.{name}", v))
    return out


def long_run_problem(texts: list[tuple]) -> str | None:
    """The problem of the first of texts, (path, text) or (path, text, member), holding a run of more than
    MAX_NON_STARTER_RUN non-starters; with a member (a json_fields answer's string, decoded) the offset is
    in that string."""
    for path, text, *rest in texts:
        member = rest[0] if rest else None
        at = long_non_starter_run(text)
        if at is not None:
            where = "" if member is None else f", in the decoded string of its JSON member {member},"
            of = "" if member is None else " of that string"
            return (
                f"{path} holds{where} a run of more than {MAX_NON_STARTER_RUN} combining characters (non-starters, "
                f"UAX #15 Stream-Safe Text Format) starting at UTF-16 offset {at}{of}: not graded"
            )
    return None


_NUMBER = re.compile(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$")


def _gold_decimal(v) -> Decimal:
    """A gold number: an integer exactly, a JSON float as the exact decimal of its canonical rendering
    (Python's repr), a decimal string as written."""
    if isinstance(v, bool):
        raise ValueError("a boolean is not a number")
    if isinstance(v, int):
        return Decimal(v)
    if isinstance(v, float):
        return Decimal(repr(v))
    return Decimal(v)


_EXACT = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN)


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not JSON")


class _BeyondAnyGold:
    """A json_fields answer number whose exponent is beyond what Decimal holds (|e| past about 10^18): it
    equals no gold number (evidence parseNormalizedDecimal: beyond its cap)."""


def _answer_number(lexeme: str):
    """SPEC 5: the exact decimal of an answer number's own JSON text, whatever its exponent (probe36 V-F1):
    a zero mantissa is 0 (Decimal refuses 0e-99999999999999999999), an exponent Decimal cannot hold
    equals no gold."""
    mantissa = re.split(r"[eE]", lexeme, maxsplit=1)[0]
    if mantissa.strip("+-0.") == "":
        return Decimal(0)
    try:
        return Decimal(lexeme)
    except ArithmeticError:
        return _BeyondAnyGold()


def _json_fields_answer(answer: str):
    """(exact, plain) of a json_fields answer that parses as a JSON object (exact: numbers as Decimal),
    or None (it scores 0)."""
    try:
        exact = json.loads(
            answer,
            object_pairs_hook=_no_duplicates,
            parse_float=_answer_number,
            parse_int=Decimal,
            parse_constant=_refuse_constant,
        )
        plain = strict_loads(answer)
    except (ValueError, RecursionError):
        return None
    # SPEC 2's parser refuses what json_problem names (a lone surrogate, 79 digits, 10,001 levels);
    # a float beyond binary64 is read (it equals no gold number)
    if not isinstance(exact, dict) or json_problem(plain, floats=False):
        return None
    return exact, plain


def answer_norm_texts(grader: str, answer: str, path: str) -> list[tuple[str, str, str | None]]:
    """[(path, text, member)] of the texts norm reads of an answer (evidence answerLongNonStarterRun): the
    text as written (member None), then for json_fields the decoded top-level string members (probe36
    V-F2: "\\u0301" escapes are combining marks once decoded), member their JSON path in the answer."""
    out: list[tuple[str, str, str | None]] = [(path, answer, None)]
    parsed = _json_fields_answer(answer) if grader == "json_fields" else None
    if parsed is not None:
        for name, v in parsed[0].items():
            if isinstance(v, str):
                member = f"$.{name}" if _IDENT.fullmatch(name) else f"$[{json.dumps(name, ensure_ascii=False)}]"
                out.append((path, v, member))
    return out


_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def grade(grader: str, gold: dict, answer: str) -> Fraction:
    """SPEC 5: the credit of one answer."""
    if grader == "exact":
        wanted = {norm(gold["value"])} | {norm(a) for a in gold.get("alternatives", [])}
        return Fraction(1) if norm(answer) in wanted else Fraction(0)
    if grader == "numeric":
        text = _trim_ws(answer)
        if not _NUMBER.match(text):
            return Fraction(0)
        # exact decimal arithmetic: the default context rounds to 28 digits (a Fraction of a 4 Mi digit
        # answer takes minutes), so the difference is taken at the largest precision, which is exact here
        with localcontext(_EXACT):
            diff = abs(Decimal(text) - _gold_decimal(gold["value"]))
            return Fraction(1) if diff <= _gold_decimal(gold.get("tolerance", 0)) else Fraction(0)
    if grader == "contains_all":
        a = norm(answer)
        return Fraction(1) if all(norm(t) in a for t in gold["terms"]) else Fraction(0)
    if grader == "json_fields":
        parsed = _json_fields_answer(answer)
        if parsed is None:
            return Fraction(0)
        exact, plain = parsed
        fields = gold["fields"]
        hits = 0
        for name, expected in fields.items():
            if name not in exact:
                continue
            got, got_plain = exact[name], plain[name]
            if isinstance(expected, str):
                hits += isinstance(got, str) and norm(got) == norm(expected)
            elif isinstance(expected, (int, float)) and not isinstance(expected, bool):
                hits += isinstance(got, Decimal) and got == _gold_decimal(expected)
            else:
                hits += canonical(got_plain) == canonical(expected)
        return Fraction(hits, len(fields))
    raise ValueError(f"unknown grader_type {grader!r}")


def half_up_4(x: Fraction) -> str:
    """Round once to 4 decimals, ROUND_HALF_UP (x >= 0 here), rendered with exactly 4 decimals."""
    scaled = x * 10000
    n = (scaled.numerator * 2 + scaled.denominator) // (2 * scaled.denominator)  # floor(scaled + 1/2)
    return f"{n // 10000}.{n % 10000:04d}"


def stated_credit_problems(who: str, rec: dict, row: dict, has_private: bool) -> list:
    """SPEC 4 + 6: the credits a row's receipt states give its score_public (when every public credit is
    stated) and the row's rank_accuracy (when every counted credit is: the private tasks when the bank has
    any); credits are null while open and private ones until the award (probe37 V-N5, as the verifier's
    composite)."""
    out = []

    def stated(vis: str):
        of = [t for t in rec["tasks"] if t["visibility"] == vis]
        if any(t["credit"] is None for t in of):
            return None
        return [Fraction(*map(int, t["credit"].split("/"))) for t in of]

    pub = stated("public")
    if pub is not None:
        want = half_up_4(sum(pub, Fraction(0)) / len(pub)) if pub else "0.0000"
        if want != rec["score_public"]:
            out.append(f"{who}: its receipt's {len(pub)} public credits give score_public {want}, the receipt says {rec['score_public']}")
    counted = stated("private" if has_private else "public")
    if counted:
        want = half_up_4(sum(counted, Fraction(0)) / len(counted))
        if want != row["rank_accuracy"]:
            out.append(f"{who}: its receipt's {len(counted)} counted credits give rank_accuracy {want}, the row says {row['rank_accuracy']}")
    return out


def dec(s: str) -> Fraction:
    return Fraction(Decimal(s))


def clamp(x: Fraction, lo: Fraction, hi: Fraction) -> Fraction:
    return max(lo, min(hi, x))


def composite(rd: dict, row: dict) -> str:
    sw = dec(rd["speed_weight"])
    cw = dec(rd["cost_weight"]) if rd["cost_budget_usdc"] is not None else Fraction(0)
    # SPEC 6: a budget of 0 is malformed only with cw > 0 (validate_pack); with cw = 0 the term weighs nothing
    acc = dec(row["rank_accuracy"])
    speed = clamp(1 - dec(row["wall_seconds"]) / Fraction(rd["time_budget_seconds"]), Fraction(0), Fraction(1))
    cost = Fraction(0)
    if cw > 0:
        cost = clamp(1 - dec(row["usdc_spent"]) / dec(rd["cost_budget_usdc"]), Fraction(0), Fraction(1))
    return half_up_4(clamp((1 - sw - cw) * acc + sw * speed + cw * cost, Fraction(0), Fraction(1)))


def instant(iso: str) -> datetime:
    return datetime.fromisoformat(iso.replace("Z", "+00:00"))


# ---------------------------------------------------------------------------------------------------
# Reading the pack: limits, parsing and the domain of every value the checks compute with (one place)

# The TypeScript verifier's limits (PACK_LIMITS of @bench-bounty/evidence; the verifier README's "Limits").
MAX_PACK_BYTES = 512 * 1024 * 1024
MAX_STRING_UNITS = 4 * 1024 * 1024  # UTF-16 code units, as the verifier counts
MAX_DEPTH = 10_000  # nested arrays and objects, the outermost one is level 1
MAX_SAFE_INT = 2**53 - 1
MAX_INT_DIGITS = 78  # SPEC 2: more digits than uint256 is an error
MAX_DECIMAL_CHARS = 100
MAX_PLACES = 64  # entries of place_amounts_base_units read
MAX_WINNERS = 8  # SPEC 1: 1..8 places, so at most 8 splits and 8 winners


class InputError(Exception):
    """The pack cannot be read or parsed (exit 2): the message names the file and the cause."""


class PackError(Exception):
    """The pack is outside what the checks compute with: `path` is its JSON path ($.winners[0].answer_salt)."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path = path


class _TooManyDigits:
    """An integer literal of more than 78 digits, kept by the parser so the walk can name its path."""

    def __init__(self, text: str):
        self.digits = len(text.lstrip("-"))


class _Constant:
    """NaN, Infinity or -Infinity, which Python's json reads and SPEC 2 refuses."""

    def __init__(self, name: str):
        self.name = name


def _parse_int(text: str):
    return int(text) if len(text.lstrip("-")) <= MAX_INT_DIGITS else _TooManyDigits(text)


def strict_loads(text: str):
    """SPEC 2's parser as far as Python's json goes: duplicate keys refused (ValueError); integers of more
    than 78 digits and NaN / Infinity kept as markers for json_problem to name; nesting beyond Python's
    recursion limit raises RecursionError."""
    return json.loads(text, object_pairs_hook=_no_duplicates, parse_int=_parse_int, parse_constant=_Constant)


def _step(path: str, key) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) else f"{path}[{json.dumps(key)}]"


_SURROGATE = re.compile("[\ud800-\udfff]")


def _string_problem(s: str) -> str | None:
    if len(s) > MAX_STRING_UNITS // 2 and len(s.encode("utf-16-le", "surrogatepass")) // 2 > MAX_STRING_UNITS:
        return f"a string of more than {MAX_STRING_UNITS} UTF-16 code units (the limit)"
    if _SURROGATE.search(s):
        return "a string with a lone surrogate (SPEC 2)"
    return None


def json_problem(root, root_path: str = "$", floats: bool = True) -> tuple[str, str] | None:
    """The first value under `root` that SPEC 2 or the limits refuse, as (JSON path, what is wrong), or None:
    nesting deeper than MAX_DEPTH, a string or key beyond MAX_STRING_UNITS or with a lone surrogate, an
    integer of more than 78 digits, NaN / Infinity, and (with `floats`) a number beyond binary64 (1e400).
    Iterative, so any depth Python's parser read is walked; a path is built only for the value named."""

    def path_of(node) -> str:
        keys = []
        while node is not None:
            node, key = node
            keys.append(key)
        path = root_path
        for key in reversed(keys):
            path = _step(path, key)
        return path

    stack = [(root, None, 1)]  # (value, its (parent node, key) chain or None for the root, depth)
    while stack:
        v, node, depth = stack.pop()
        why = None
        if isinstance(v, str):
            why = _string_problem(v)
        elif isinstance(v, _TooManyDigits):
            why = f"an integer of {v.digits} digits (more than {MAX_INT_DIGITS}, SPEC 2)"
        elif isinstance(v, _Constant):
            why = f"{v.name} is not JSON (SPEC 2)"
        elif isinstance(v, float):
            if floats and not math.isfinite(v):
                why = "a number beyond binary64 (SPEC 2)"
        elif isinstance(v, (dict, list)):
            if depth > MAX_DEPTH:
                why = f"nesting deeper than {MAX_DEPTH} levels (the limit)"
            else:
                for k, item in v.items() if isinstance(v, dict) else enumerate(v):
                    if isinstance(k, str):
                        key_why = _string_problem(k)
                        if key_why:
                            return path_of(node), f"a key: {key_why}"
                    if isinstance(item, (dict, list, str, float, _TooManyDigits, _Constant)):
                        stack.append((item, (node, k), depth + 1))
        if why:
            return path_of(node), why
    return None


def _shown(v) -> str:
    """A wrong value as named in a message: its type, or a short quoted string."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v if len(v) <= 40 else v[:40] + "...")
    if isinstance(v, dict):
        return "an object"
    if isinstance(v, list):
        return "an array"
    if isinstance(v, int):
        t = str(v)
        return f"the integer {t if len(t) <= 24 else t[:12] + '...'}"
    return f"the number {v!r}"


# The members of each object of the pack (SPEC 8, and the receipt of SPEC 4): an object with another member
# is refused, as the reference verifier's schema does (probe29 B-F6: unhashed text beside the hashed blocks,
# `$.winners_note` or `$.pack_anchor.note`, passed here while the verifier failed `schema`).
RECEIPT_SCHEMA = "bench-bounty.receipt.v1"  # SPEC 4
_RECEIPT_KEYS = ("schema", "run_id", "benchmark_slug", "commit_root", "agent_id", "attempt", "started_at",
                 "finalized_at", "wall_seconds", "queries_used", "usdc_spent", "score_public", "score_composite", "tasks")
PACK_LAYOUT = {
    "pack": ("benchmark", "test_set", "winners", "rank_derivation", "pack_hash", "pack_anchor", "verify_hints"),
    "benchmark": ("slug", "title", "commit_root", "leaf_count", "chain_id", "bounty_contract", "bounty_id", "token",
                  "author", "awarder", "pool_base_units", "closes_at", "award_tx", "award_block", "ranking_digest",
                  "commitment_anchor", "grader_types"),
    "anchor": ("registry_address", "tx_hash", "anchor_block"),
    "test_row": ("ordinal", "prompt", "gold", "salt", "visibility", "grader_type"),
    "winner": ("place", "agent_id", "withdrawal_address", "amount_base_units", "run_id", "receipt", "receipt_hash",
               "answer_salt", "answers"),
    "answer": ("ordinal", "bank_ordinal", "answer_text"),
    "receipt": _RECEIPT_KEYS,
    "receipt_task": ("ordinal", "bank_ordinal", "prompt_hash", "visibility", "answer_digest", "credit"),
    "rank_derivation": ("speed_weight", "cost_weight", "time_budget_seconds", "cost_budget_usdc", "threshold_bps",
                        "payout_rule", "splits_bps", "pool_base_units", "place_amounts_base_units",
                        "zero_winner_reason", "rows"),
    "rank_row": ("rank", "agent_id", "is_author_agent", "run_id", "receipt_hash", "receipt_url", "receipt",
                 "achieved_at", "attempts_used", "rank_accuracy", "score_public", "score_composite", "wall_seconds",
                 "queries_used", "usdc_spent"),
}


class _Reader:
    """Field readers: each returns the value at `path`.`key` when it is in its domain, else raises PackError."""

    @staticmethod
    def get(o: dict, key: str, path: str):
        if key not in o:
            raise PackError(_step(path, key), f'missing key "{key}"')
        return o[key]

    def obj(self, v, path: str, layout: str | None = None) -> dict:
        """An object; with `layout`, one of PACK_LAYOUT's objects: a member SPEC 8 does not name is refused."""
        if not isinstance(v, dict):
            raise PackError(path, f"expected an object, found {_shown(v)}")
        if layout is not None:
            for key in v:
                if key not in PACK_LAYOUT[layout]:
                    raise PackError(path, f"unknown key {_shown(key)} (not a member SPEC 8 names)")
        return v

    def arr(self, v, path: str, max_len: int | None = None, min_len: int = 0) -> list:
        if not isinstance(v, list):
            raise PackError(path, f"expected an array, found {_shown(v)}")
        if max_len is not None and len(v) > max_len:
            raise PackError(path, f"{len(v)} entries, more than the {max_len} read")
        if len(v) < min_len:
            raise PackError(path, f"expected at least {min_len} entries, found {len(v)}")
        return v

    def string(self, v, path: str) -> str:
        if not isinstance(v, str):
            raise PackError(path, f"expected a string, found {_shown(v)}")
        return v

    def integer(self, v, path: str, lo: int = 0, hi: int = MAX_SAFE_INT) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise PackError(path, f"expected an integer, found {_shown(v)}")
        if not lo <= v <= hi:
            raise PackError(path, f"integer {v} is outside {lo}..{hi}")
        return v

    def hexstr(self, v, path: str, digits: int, what: str) -> str:
        """`0x` and `digits` lowercase hex digits: SPEC 2's digests, SPEC 8's addresses (probe34 B-F2: an
        upper-case one passed here while the verifier's `schema` fails it)."""
        if not isinstance(v, str) or not re.fullmatch(f"0x[0-9a-fA-F]{{{digits}}}", v):
            raise PackError(path, f"expected {what} (0x and {digits} hex digits), found {_shown(v)}")
        if not re.fullmatch(f"0x[0-9a-f]{{{digits}}}", v):
            raise PackError(path, f"expected {what} in lowercase hex (SPEC 2, 8), found {_shown(v)}")
        return v

    def bare_hex64(self, v, path: str, what: str) -> str:
        """64 lowercase hex digits without 0x (SPEC 3's salt and prompt_hash, SPEC 4's answer_salt)."""
        if not isinstance(v, str) or not re.fullmatch(r"[0-9a-fA-F]{64}", v):
            raise PackError(path, f"expected 64 hex digits ({what}), found {_shown(v)}")
        if not re.fullmatch(r"[0-9a-f]{64}", v):
            raise PackError(path, f"expected 64 lowercase hex digits ({what}), found {_shown(v)}")
        return v

    def nonempty(self, v, path: str) -> str:
        """A non-empty string: an id or a slug names something (probe34 B-F2)."""
        if self.string(v, path) == "":
            raise PackError(path, "expected a non-empty string, found \"\"")
        return v

    def uint_string(self, v, path: str, what: str, lo: int = 0) -> int:
        """SPEC 6 / 8: an integer string (`"50000000"`; no sign, no leading zero, at most 78 digits) in
        lo..2^256-1, as its value (probe34 B-F2: a JSON number here passed while the verifier's `schema`
        fails it; a bounty_id of 0 names no bounty, SPEC 1 numbers them from 1, and the verifier refuses it)."""
        if not isinstance(v, str) or not re.fullmatch(r"0|[1-9][0-9]{0,77}", v):
            raise PackError(path, f"expected {what} as an integer string such as \"50000000\" (SPEC 6, 8), found {_shown(v)}")
        n = int(v)
        if not lo <= n < 2**256:
            raise PackError(path, f"{what} {v} is outside {lo}..2^256-1")
        return n

    def fixed(self, v, path: str, places: int, what: str) -> Fraction:
        """SPEC 6's decimal strings with exactly `places` decimals, plain notation (`"0.5000"` a score with
        4, `"12.345"` seconds with 3, `"0.012075"` USDC with 6), as their value."""
        if not isinstance(v, str) or len(v) > MAX_DECIMAL_CHARS or not re.fullmatch(f"(0|[1-9][0-9]*)\\.[0-9]{{{places}}}", v):
            raise PackError(path, f"expected {what} with exactly {places} decimals such as \"0.{'5' + '0' * (places - 1)}\" (SPEC 6), found {_shown(v)}")
        return dec(v)

    def plain_decimal(self, v, path: str) -> Fraction:
        """SPEC 6's configured values (`speed_weight`, `cost_weight`): a plain decimal string as configured
        (`"0.3"`, `"0"`: no sign, no exponent)."""
        if not isinstance(v, str) or len(v) > MAX_DECIMAL_CHARS or not re.fullmatch(r"(0|[1-9][0-9]*)(\.[0-9]+)?", v):
            raise PackError(path, f"expected a decimal string such as \"0.3\" (SPEC 6: plain notation), found {_shown(v)}")
        return dec(v)

    def fraction(self, v, path: str) -> str:
        """SPEC 6: a graded credit, a reduced fraction string (`"1/1"`, `"0/1"`, `"2/3"`)."""
        m = re.fullmatch(r"(0|[1-9][0-9]{0,77})/([1-9][0-9]{0,77})", v) if isinstance(v, str) else None
        if m is None or math.gcd(int(m[1]), int(m[2])) != 1:
            raise PackError(path, f"expected a reduced fraction string such as \"2/3\" (SPEC 6), found {_shown(v)}")
        return v

    def one_of(self, v, path: str, allowed: tuple) -> str:
        if v not in allowed or not isinstance(v, str):
            raise PackError(path, f"expected one of {', '.join(allowed)}, found {_shown(v)}")
        return v

    def instant(self, v, path: str) -> datetime:
        """SPEC 4's ISO-8601 UTC with milliseconds and Z (2026-03-01T09:05:00.000Z), a real date and time."""
        if isinstance(v, str) and re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z", v):
            try:
                return instant(v)
            except ValueError:
                pass
        raise PackError(path, f"expected an ISO-8601 UTC time such as \"2026-03-01T09:05:00.000Z\", found {_shown(v)}")

    # The verifier's readers of the fields no check here reads (its pack/fields.ts): what they refuse is
    # its bad input (exit 2), what they read and a format rule refuses is its `schema` fact (exit 1).
    def readable_integer(self, v, path: str) -> int:
        """The verifier's `intValue`: an integer, or an integer string of at most 16 digits, in 0..2^53-1."""
        if isinstance(v, str) and re.fullmatch(r"-?[0-9]{1,16}", v):
            n = int(v)
        elif isinstance(v, int) and not isinstance(v, bool):
            n = v
        else:
            raise PackError(path, f"expected an integer, found {_shown(v)}")
        if not 0 <= n <= MAX_SAFE_INT:
            raise PackError(path, f"integer {n} is outside 0..{MAX_SAFE_INT}")
        return n

    def readable_decimal(self, v, path: str):
        """The verifier's `decimalValue`: a decimal string (an exponent allowed) of at most 100 characters,
        or a JSON number within 2^53-1 when an integer."""
        if isinstance(v, str):
            if len(v) <= MAX_DECIMAL_CHARS and _READABLE_DECIMAL.fullmatch(v):
                return v
        elif isinstance(v, float) or (isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MAX_SAFE_INT):
            return v
        raise PackError(path, f"expected a decimal string, found {_shown(v)}")

    # fields
    def f(self, o, key, path, kind, *args):
        return getattr(self, kind)(self.get(o, key, path), _step(path, key), *args)


# what the verifier reads as a decimal and as a credit (its pack/fields.ts `decimalValue`, `READABLE_FRACTION`)
_READABLE_DECIMAL = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")
_READABLE_FRACTION = re.compile(f"[0-9]{{1,{MAX_INT_DIGITS}}}/(?!0+$)[0-9]{{1,{MAX_INT_DIGITS}}}")

GRADERS = ("exact", "numeric", "contains_all", "json_fields")
PAYOUT_RULES = {"winner_take_all": [10000], "top_n_split": [5000, 3000, 2000]}  # SPEC 1; any other splits are "custom"
ZERO_WINNER_REASONS = ("no_runs", "none_at_or_above_threshold", "only_author_agents")  # SPEC 7.3
VISIBILITIES = ("private", "public")


def _gold_number(r: _Reader, v, path: str) -> None:
    if isinstance(v, float) or (isinstance(v, int) and not isinstance(v, bool)):
        return
    if isinstance(v, str) and _NUMBER.match(v):
        return
    raise PackError(path, f"expected a number or a decimal string, found {_shown(v)}")


# The members each grader's gold may hold (SPEC 5's gold shapes; evidence prepareGold's `onlyKeys`).
GOLD_KEYS = {
    "exact": ("value", "alternatives"),
    "numeric": ("value", "tolerance"),
    "contains_all": ("terms",),
    "json_fields": ("fields",),
}


def _validate_gold(r: _Reader, grader: str, gold, path: str) -> None:
    """SPEC 5's gold shapes (malformed gold is refused at publish, so a pack carrying one is malformed)."""
    gold = r.obj(gold, path)
    # evidence prepareGold's rule: a key its grader does not read is refused, as the verifier refuses it
    allowed = GOLD_KEYS.get(grader, ())
    for key in gold:
        if key not in allowed:
            raise PackError(_step(path, key), f"unknown key {_shown(key)} in {grader} gold (allowed: {', '.join(allowed)})")
    if grader == "exact":
        value = r.f(gold, "value", path, "string")
        alts = r.f(gold, "alternatives", path, "arr") if "alternatives" in gold else []
        for i, a in enumerate(alts):
            r.string(a, _step(_step(path, "alternatives"), i))
        # evidence prepareGold's rule (j37's note, B-F6's sibling): a value or an alternative empty after
        # norm is gold no answer could match, malformed as the verifier's regrade fails it
        if long_non_starter_run(value) is None and norm(value) == "":
            raise PackError(_step(path, "value"), "exact gold value is empty after normalisation (no answer could match it)")
        for i, a in enumerate(alts):
            if long_non_starter_run(a) is None and norm(a) == "":
                raise PackError(_step(_step(path, "alternatives"), i), "an alternative is empty after normalisation")
    elif grader == "numeric":
        _gold_number(r, r.get(gold, "value", path), _step(path, "value"))
        if "tolerance" in gold:
            _gold_number(r, gold["tolerance"], _step(path, "tolerance"))
            # evidence prepareGold's rule (probe39 B-N1): |answer - value| <= a negative tolerance holds for no
            # answer, gold refused at publish
            if _gold_decimal(gold["tolerance"]) < 0:
                raise PackError(_step(path, "tolerance"), "tolerance must be >= 0")
    elif grader == "contains_all":
        # evidence prepareGold's rule (probe37 B-F6): no term, or a term empty after norm, is gold no answer
        # could fail (every answer contains ""), malformed as the verifier's regrade fails it
        terms_path = _step(path, "terms")
        terms = r.f(gold, "terms", path, "arr")
        if not terms:
            raise PackError(terms_path, "terms is empty (no usable terms)")
        for i, t in enumerate(terms):
            r.string(t, _step(terms_path, i))
        for i, t in enumerate(terms):
            if long_non_starter_run(t) is None and norm(t) == "":
                raise PackError(_step(terms_path, i), "a term is empty after normalisation")
    else:
        r.arr(list(r.f(gold, "fields", path, "obj")), _step(path, "fields"), None, 1)


def _validate_receipt(r: _Reader, rec, path: str, full: bool) -> None:
    """A receipt (SPEC 4): every member typed as the verifier reads a receipt (its `readReceipt`, the same
    for a winner's and a rank row's: probe33 B-F2, a row's `tasks` of `{}` or a task's `credit` of 5 was a
    failed hash here where the verifier refuses it, exit 2), then every member in its SPEC 4 / 6 format (the
    verifier's `schema` fact; probe34 B-F2); with `full` (a winner's, which the checks grade) at least one
    task."""
    rec = r.obj(rec, path, "receipt")
    r.f(rec, "score_composite", path, "string")
    for key in ("run_id", "benchmark_slug", "commit_root", "agent_id", "finalized_at"):
        r.f(rec, key, path, "string")
    for key in ("attempt", "queries_used"):
        r.f(rec, key, path, "readable_integer")
    for key in ("wall_seconds", "usdc_spent", "score_public", "score_composite"):
        r.f(rec, key, path, "readable_decimal")
    tasks_path = _step(path, "tasks")
    for i, t in enumerate(r.f(rec, "tasks", path, "arr")):
        tp = _step(tasks_path, i)
        t = r.obj(t, tp, "receipt_task")
        r.f(t, "ordinal", tp, "readable_integer")
        r.f(t, "bank_ordinal", tp, "readable_integer")
        r.f(t, "prompt_hash", tp, "string")
        r.f(t, "visibility", tp, "string")
        if r.get(t, "answer_digest", tp) is not None:
            r.f(t, "answer_digest", tp, "string")
        credit = r.get(t, "credit", tp)
        if credit is not None and not (isinstance(credit, str) and _READABLE_FRACTION.fullmatch(credit)):
            raise PackError(_step(tp, "credit"), f'expected a fraction string such as "2/3" or null, found {_shown(credit)}')
    # SPEC 4 + 6's formats of every member (probe34 B-F2: a rank row's receipt was typed only as the
    # verifier reads it, so a format its `schema` fails passed here), the same for every receipt
    if r.get(rec, "schema", path) != RECEIPT_SCHEMA:
        raise PackError(_step(path, "schema"), f'expected "{RECEIPT_SCHEMA}" (SPEC 4), found {_shown(rec["schema"])}')
    for key in ("run_id", "benchmark_slug", "agent_id"):
        r.f(rec, key, path, "nonempty")
    r.f(rec, "commit_root", path, "hexstr", 64, "a digest")
    r.f(rec, "attempt", path, "integer", 1)
    r.f(rec, "started_at", path, "instant")
    r.f(rec, "finalized_at", path, "instant")
    r.f(rec, "wall_seconds", path, "fixed", 3, "seconds")
    r.f(rec, "queries_used", path, "integer")
    r.f(rec, "usdc_spent", path, "fixed", 6, "a USDC amount")
    r.f(rec, "score_public", path, "fixed", 4, "a score")
    r.f(rec, "score_composite", path, "fixed", 4, "a score")
    tasks = rec["tasks"]
    for i, t in enumerate(tasks):
        tp = _step(tasks_path, i)
        r.f(t, "ordinal", tp, "integer")
        r.f(t, "bank_ordinal", tp, "integer")
        r.f(t, "prompt_hash", tp, "bare_hex64", "a prompt hash, SPEC 3")
        r.f(t, "visibility", tp, "one_of", VISIBILITIES)
        if t["answer_digest"] is not None:
            r.f(t, "answer_digest", tp, "hexstr", 64, "a digest")
        if t["credit"] is not None:
            r.f(t, "credit", tp, "fraction")
    if full and not tasks:
        raise PackError(tasks_path, "a receipt without tasks (its accuracy over zero tasks is undefined, SPEC 6)")


def _validate_anchor(r: _Reader, a, path: str, nullable: bool) -> None:
    if a is None and nullable:
        return
    a = r.obj(a, path, "anchor")
    r.f(a, "registry_address", path, "hexstr", 40, "an address")
    r.f(a, "tx_hash", path, "hexstr", 64, "a transaction hash")
    r.f(a, "anchor_block", path, "integer")


def _validate_grader_types(r: _Reader, gt, path: str) -> None:
    """SPEC 8's `grader_types`: the grading semantics of section 5 as text and examples, one member per
    grader (all four), each `{gold_shape: str, semantics: str, examples: [{gold, answer: str, credit}]}` with
    `credit` a reduced fraction (probe34 B-F2: a pack without it, or with odd values, passed here)."""
    gt = r.obj(gt, path)
    for name in gt:
        if name not in GRADERS:
            raise PackError(path, f"unknown key {_shown(name)} (not one of the graders {', '.join(GRADERS)}, SPEC 5)")
    for name in GRADERS:
        gp = _step(path, name)
        g = r.obj(r.get(gt, name, path), gp)
        for key in g:
            if key not in ("gold_shape", "semantics", "examples"):
                raise PackError(gp, f"unknown key {_shown(key)} (a grader is described by gold_shape, semantics, examples)")
        r.f(g, "gold_shape", gp, "string")
        r.f(g, "semantics", gp, "string")
        ep = _step(gp, "examples")
        for i, ex in enumerate(r.f(g, "examples", gp, "arr")):
            xp = _step(ep, i)
            ex = r.obj(ex, xp)
            for key in ex:
                if key not in ("gold", "answer", "credit"):
                    raise PackError(xp, f"unknown key {_shown(key)} (an example is gold, answer, credit)")
            r.get(ex, "gold", xp)
            r.f(ex, "answer", xp, "string")
            r.f(ex, "credit", xp, "fraction")


def validate_pack(pack) -> None:
    """Refuses (PackError, naming the JSON path) a pack outside what the checks compute with, before any
    check runs: SPEC 2 and the limits (json_problem), then SPEC 3, 4, 6 and 8's shapes, formats and value
    domains of every field (probe34 B-F2: the format rules of the fields no check here computes with were
    not all read, so a pack the verifier fails on its `schema` fact passed here). What is in its domain but
    wrong (a hash that differs, an unordered row, a task bound to no test-set row, two pool figures that
    differ) is a failed check, not an error."""
    problem = json_problem(pack)
    if problem:
        raise PackError(*problem)
    r = _Reader()
    r.obj(pack, "$", "pack")
    b = r.obj(r.f(pack, "benchmark", "$", "obj"), "$.benchmark", "benchmark")
    bp = "$.benchmark"
    r.f(b, "slug", bp, "nonempty")
    r.f(b, "title", bp, "string")
    for key in ("commit_root", "award_tx", "ranking_digest"):
        r.f(b, key, bp, "hexstr", 64, "a digest")
    # SPEC 3: zero leaves is an error; a chain id names a chain
    for key in ("leaf_count", "chain_id"):
        r.f(b, key, bp, "integer", 1)
    r.f(b, "award_block", bp, "integer")
    for key in ("bounty_contract", "token", "author", "awarder"):
        r.f(b, key, bp, "string")
        r.f(b, key, bp, "hexstr", 40, "an address")
    r.f(b, "closes_at", bp, "integer")
    r.f(b, "bounty_id", bp, "uint_string", "a bounty id", 1)  # SPEC 1: ids are sequential from 1
    r.f(b, "pool_base_units", bp, "uint_string", "an amount in base units")
    _validate_anchor(r, r.get(b, "commitment_anchor", bp), _step(bp, "commitment_anchor"), False)
    _validate_grader_types(r, r.get(b, "grader_types", bp), _step(bp, "grader_types"))

    ts = r.f(pack, "test_set", "$", "arr", None, 1)  # SPEC 3: zero leaves is an error
    for i, row in enumerate(ts):
        rp = f"$.test_set[{i}]"
        row = r.obj(row, rp, "test_row")
        r.f(row, "ordinal", rp, "integer")
        r.f(row, "prompt", rp, "string")
        r.f(row, "salt", rp, "string")
        r.f(row, "salt", rp, "bare_hex64", "a salt, SPEC 3")
        r.f(row, "visibility", rp, "one_of", VISIBILITIES)
        grader = r.f(row, "grader_type", rp, "one_of", GRADERS)
        _validate_gold(r, grader, r.get(row, "gold", rp), _step(rp, "gold"))

    for i, w in enumerate(r.f(pack, "winners", "$", "arr", MAX_WINNERS)):
        wp = f"$.winners[{i}]"
        w = r.obj(w, wp, "winner")
        r.f(w, "place", wp, "integer", 1)
        r.f(w, "agent_id", wp, "nonempty")
        r.f(w, "withdrawal_address", wp, "string")
        r.f(w, "withdrawal_address", wp, "hexstr", 40, "an address")
        r.f(w, "amount_base_units", wp, "uint_string", "an amount in base units")
        r.f(w, "run_id", wp, "nonempty")
        r.f(w, "receipt_hash", wp, "string")
        r.f(w, "receipt_hash", wp, "hexstr", 64, "a digest")
        salt = r.get(w, "answer_salt", wp)
        if not isinstance(salt, str) or not re.fullmatch(r"[0-9a-fA-F]{64}", salt):
            raise PackError(_step(wp, "answer_salt"), f"expected 64 hex digits (32 bytes, SPEC 4), found {_shown(salt)}")
        r.f(w, "answer_salt", wp, "bare_hex64", "32 bytes, SPEC 4")
        _validate_receipt(r, r.get(w, "receipt", wp), _step(wp, "receipt"), True)
        for j, a in enumerate(r.f(w, "answers", wp, "arr")):
            ap = f"{wp}.answers[{j}]"
            a = r.obj(a, ap, "answer")
            r.f(a, "ordinal", ap, "integer")
            r.f(a, "bank_ordinal", ap, "integer")
            r.f(a, "answer_text", ap, "string")

    rdp = "$.rank_derivation"
    rd = r.obj(r.f(pack, "rank_derivation", "$", "obj"), rdp, "rank_derivation")
    sw = r.f(rd, "speed_weight", rdp, "plain_decimal")
    cw = r.f(rd, "cost_weight", rdp, "plain_decimal")
    r.f(rd, "time_budget_seconds", rdp, "integer", 1)
    budget = None
    if r.get(rd, "cost_budget_usdc", rdp) is not None:
        budget = r.f(rd, "cost_budget_usdc", rdp, "fixed", 6, "a USDC amount")
    # SPEC 6: 0 <= sw, cw and sw + cw <= 1 (cw taken as 0 without a budget); a budget of 0 with cw > 0
    cw_used = cw if budget is not None else Fraction(0)
    if sw + cw_used > 1:
        raise PackError(rdp, f"speed_weight {rd['speed_weight']} and cost_weight {rd['cost_weight']} are not 0 <= sw, cw and sw + cw <= 1 (SPEC 6)")
    if budget is not None and budget == 0 and cw > 0:
        raise PackError(_step(rdp, "cost_budget_usdc"), f"a budget of {rd['cost_budget_usdc']} with cost_weight {rd['cost_weight']} (SPEC 6)")
    r.f(rd, "threshold_bps", rdp, "integer", 0, 10000)  # SPEC 1: thresholdBps <= 10000
    r.f(rd, "payout_rule", rdp, "string")
    r.f(rd, "payout_rule", rdp, "one_of", tuple(PAYOUT_RULES) + ("custom",))
    # SPEC 1: 1..8 places, each > 0, summing to 10000
    for i, s in enumerate(r.f(rd, "splits_bps", rdp, "arr", MAX_WINNERS, 1)):
        r.integer(s, f"{rdp}.splits_bps[{i}]", 1, 10000)
    r.f(rd, "pool_base_units", rdp, "uint_string", "an amount in base units")
    for i, a in enumerate(r.f(rd, "place_amounts_base_units", rdp, "arr", MAX_PLACES)):
        r.uint_string(a, f"{rdp}.place_amounts_base_units[{i}]", "an amount in base units")
    if r.get(rd, "zero_winner_reason", rdp) is not None:
        r.f(rd, "zero_winner_reason", rdp, "string")
        r.f(rd, "zero_winner_reason", rdp, "one_of", ZERO_WINNER_REASONS)
    for i, row in enumerate(r.f(rd, "rows", rdp, "arr")):
        rp = f"{rdp}.rows[{i}]"
        row = r.obj(row, rp, "rank_row")
        r.f(row, "rank", rp, "integer", 1)
        r.f(row, "agent_id", rp, "nonempty")
        if not isinstance(r.get(row, "is_author_agent", rp), bool):
            raise PackError(_step(rp, "is_author_agent"), f"expected true or false, found {_shown(row['is_author_agent'])}")
        r.f(row, "run_id", rp, "nonempty")
        r.f(row, "receipt_hash", rp, "hexstr", 64, "a digest")
        # SPEC 8: `receipt` is optional (absent, not null); `receipt_url` is a member, a string or null
        if "receipt" in row:
            if row["receipt"] is None:
                raise PackError(_step(rp, "receipt"), "expected a receipt object (SPEC 8: optional, so absent rather than null), found null")
            _validate_receipt(r, row["receipt"], _step(rp, "receipt"), False)
        r.f(row, "achieved_at", rp, "instant")
        for key in ("rank_accuracy", "score_public", "score_composite"):
            r.f(row, key, rp, "fixed", 4, "a score")
        r.f(row, "wall_seconds", rp, "fixed", 3, "seconds")
        r.f(row, "usdc_spent", rp, "fixed", 6, "a USDC amount")
        r.f(row, "queries_used", rp, "integer")
        r.f(row, "attempts_used", rp, "integer", 1)  # SPEC 7.1: counts the agent's attempts, this one included
        if r.get(row, "receipt_url", rp) is not None:
            r.f(row, "receipt_url", rp, "string")

    r.f(pack, "pack_hash", "$", "hexstr", 64, "a digest")
    # SPEC 8's seven top-level keys, each present (probe32 B-F6: a pack without `pack_anchor` or
    # `verify_hints` passed 7/7 offline); `pack_anchor` may be null, `verify_hints` is any JSON value
    _validate_anchor(r, r.get(pack, "pack_anchor", "$"), "$.pack_anchor", True)
    r.get(pack, "verify_hints", "$")


def read_pack(path: str):
    """The pack at `path`, parsed and validated. Raises InputError (cannot be read or parsed: a missing
    file, a device, more than MAX_PACK_BYTES, not UTF-8, not JSON, a duplicate key, nesting Python's parser
    cannot follow) or PackError (validate_pack)."""
    try:
        st = os.stat(path)
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror or e}") from None
    kind = (
        "a directory" if stat.S_ISDIR(st.st_mode)
        else "a character device" if stat.S_ISCHR(st.st_mode)
        else "a block device" if stat.S_ISBLK(st.st_mode)
        else "a socket" if stat.S_ISSOCK(st.st_mode)
        else None
    )
    if kind:
        raise InputError(f"cannot read {path}: it is {kind}, not a file (give the pack file or a pipe)")
    too_big = f"cannot read {path}: the pack is more than the limit of {MAX_PACK_BYTES} bytes"
    if stat.S_ISREG(st.st_mode) and st.st_size > MAX_PACK_BYTES:
        raise InputError(too_big)
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_PACK_BYTES + 1)  # a pipe or a /proc file is counted while read
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror or e}") from None
    if len(data) > MAX_PACK_BYTES:
        raise InputError(too_big)
    try:
        text = data.decode("utf-8")
        del data
        pack = strict_loads(text)
    except RecursionError:
        raise InputError(f"cannot read {path}: nesting deeper than this Python's JSON parser reads (the limit is {MAX_DEPTH} levels)") from None
    except ValueError as e:
        raise InputError(f"cannot read {path}: {e}") from None
    validate_pack(pack)
    return pack

# ---------------------------------------------------------------------------------------------------
# JSON-RPC (with --rpc)


class RpcError(Exception):
    """The RPC could not be read: the message names the URL (its origin when it carries more) and the cause."""


def rpc_label(url: str) -> str:
    """The URL as printed: as given when it is a bare origin, else its origin and what is not shown (its
    credentials, its path: a provider's key may be in either)."""
    try:
        u = urllib.parse.urlsplit(url)
        hidden = [
            what
            for what, there in (
                ("credentials", u.username is not None or u.password is not None),
                ("path", u.path not in ("", "/") or u.query or u.fragment),
            )
            if there
        ]
        if u.scheme and u.hostname and hidden:
            port = f":{u.port}" if u.port else ""
            host = f"[{u.hostname}]" if ":" in u.hostname else u.hostname
            return f"{u.scheme}://{host}{port} ({' and '.join(hidden)} not shown)"
    except ValueError:
        pass
    return url


def credentials_to_header(url: str) -> tuple[str, dict]:
    """`url` without its userinfo, and the userinfo as an `Authorization: Basic` header (percent-decoded,
    UTF-8), as the verifier sends it (its url.ts `credentialsToHeader`; probe33 B-F8: urllib took
    `user:pw@127.0.0.1` for the host); a URL without userinfo as it is, with no header."""
    u = urllib.parse.urlsplit(url)
    if u.username is None and u.password is None:
        return url, {}
    pair = f"{urllib.parse.unquote(u.username or '')}:{urllib.parse.unquote(u.password or '')}"
    netloc = u.netloc.rpartition("@")[2]
    bare = urllib.parse.urlunsplit((u.scheme, netloc, u.path, u.query, u.fragment))
    return bare, {"authorization": "Basic " + base64.b64encode(pair.encode("utf-8")).decode("ascii")}


def require_http_url(url: str) -> None:
    """Refuses (RpcError) an --rpc that is not an http(s) URL with a host."""
    try:
        u = urllib.parse.urlsplit(url)
        ok = u.scheme in ("http", "https") and bool(u.hostname)
    except ValueError:
        ok = False
    if not ok:
        raise RpcError(f"--rpc must be an http(s) URL like http://127.0.0.1:8545, got {url!r}")


MAX_RPC_ANSWER_BYTES = 64 * 1024 * 1024  # the verifier's DEFAULT_MAX_RPC_ANSWER_BYTES
DEFAULT_RPC_TIMEOUT_S = 30.0
_QUANTITY = re.compile(r"0x[0-9a-fA-F]{1,64}")
_DATA = re.compile(r"0x(?:[0-9a-fA-F]{2})*")
_WORD = re.compile(r"0x[0-9a-fA-F]{64}")
_ADDRESS = re.compile(r"0x[0-9a-fA-F]{40}")


MAX_RPC_MESSAGE_CHARS = 300  # the verifier's (src/rpc-refusal.ts)


def _refusal(error) -> str:
    """A JSON-RPC error as quoted: `{'code': -32005, 'message': '...'}` with the message whole up to
    MAX_RPC_MESSAGE_CHARS characters; any other value by its repr, cut at that length."""
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        shown = dict(error)
        shown["message"] = error["message"][:MAX_RPC_MESSAGE_CHARS]
        shown.pop("data", None)
        return one_line(repr(shown)[: MAX_RPC_MESSAGE_CHARS + 60])
    return one_line(repr(error)[:MAX_RPC_MESSAGE_CHARS])


class Rpc:
    """A JSON-RPC endpoint. Every failure to read it is an RpcError naming the RPC (its origin), the method
    and the cause: down, an HTTP error, no whole answer (headers and body) within `timeout_s` seconds
    (a node that drips its answer is cut off like one that never answers), an answer of more than
    MAX_RPC_ANSWER_BYTES, not JSON-RPC, a refusal, or a result of the wrong shape (with its JSON path)."""

    def __init__(self, url: str, timeout_s: float = DEFAULT_RPC_TIMEOUT_S):
        require_http_url(url)
        self.url, self.headers = credentials_to_header(url)
        self.timeout_s = timeout_s
        self.n = 0
        self.where = f"cannot read rpc {rpc_label(url)}"

    def _fetch(self, method: str, req: urllib.request.Request) -> bytes:
        """The answer's bytes, read whole within timeout_s: urlopen's timeout bounds each socket read only,
        so the request runs on a daemon thread abandoned at the deadline (the run then ends)."""
        box: dict = {}

        def fetch() -> None:
            try:
                with urllib.request.urlopen(req, timeout=self.timeout_s) as res:
                    box["raw"] = res.read(MAX_RPC_ANSWER_BYTES + 1)
            except BaseException as e:  # handed to the caller's thread
                box["error"] = e

        worker = threading.Thread(target=fetch, name=f"rpc {method}", daemon=True)
        worker.start()
        worker.join(self.timeout_s)
        where = self.where
        if worker.is_alive():
            raise RpcError(f"{where}: {method}: the answer did not arrive in full within {self.timeout_s:g} s (headers and body)")
        e = box.get("error")
        if isinstance(e, urllib.error.HTTPError):
            raise RpcError(f"{where}: HTTP {e.code} to {method}")
        if isinstance(e, urllib.error.URLError):
            reason = e.reason
            cause = reason.strerror if isinstance(reason, OSError) and reason.strerror else str(reason)
            raise RpcError(f"{where}: {method}: {cause.lower()}")
        if isinstance(e, TimeoutError):
            raise RpcError(f"{where}: {method}: the answer did not arrive in full within {self.timeout_s:g} s (headers and body)")
        if isinstance(e, (OSError, ValueError, http.client.HTTPException)):
            raise RpcError(f"{where}: {method}: {type(e).__name__} {e}")
        if e is not None:
            raise e
        raw = box["raw"]
        if len(raw) > MAX_RPC_ANSWER_BYTES:
            raise RpcError(f"{where}: the answer to {method} is more than {MAX_RPC_ANSWER_BYTES} bytes (64 MiB, the limit)")
        return raw

    def call(self, method: str, params: list):
        self.n += 1
        body = json.dumps({"jsonrpc": "2.0", "id": self.n, "method": method, "params": params}).encode()
        req = urllib.request.Request(self.url, data=body, headers={"content-type": "application/json", **self.headers})
        raw = self._fetch(method, req)
        try:
            doc = json.loads(raw)
        except RecursionError:
            raise RpcError(f"{self.where}: the answer to {method} nests deeper than this Python's JSON parser reads (not a JSON-RPC answer)") from None
        except ValueError:
            raise RpcError(f"{self.where}: the answer to {method} is not JSON (is this a JSON-RPC node?)") from None
        if not isinstance(doc, dict) or ("error" not in doc and "result" not in doc):
            raise RpcError(f"{self.where}: the answer to {method} is not a JSON-RPC answer")
        # an answer with another id answers another request (probe37 B-F2; the verifier's checkedRpcFetch); an
        # error with id null is the RPC's refusal of a request whose id it could not read (JSON-RPC 2.0 section 5)
        answer_id = doc.get("id")
        if (isinstance(answer_id, bool) or answer_id != self.n) and not (answer_id is None and doc.get("error") is not None):
            raise RpcError(
                f"{self.where}: {method}: the answer is not an answer to this {method} request "
                f"($.id: is {_shown(answer_id)}, the request's is {self.n})"
            )
        # an `"error": null` beside the result is no refusal (some gateways send it; the verifier reads it too,
        # probe35 B-F5); a refusal is quoted whole up to 300 characters, as the verifier does (probe35 B-N2)
        if doc.get("error") is not None:
            raise RpcError(f"{self.where}: {method} refused: {_refusal(doc['error'])}")
        if "result" not in doc:
            raise RpcError(f"{self.where}: the answer to {method} is not a JSON-RPC answer")
        return doc["result"]

    def _wrong(self, method: str, path: str, wanted: str, v) -> RpcError:
        return RpcError(f"{self.where}: {method}: the answer is not {wanted} ({path}: found {_shown(v)})")

    def quantity(self, method: str, params: list) -> int:
        """A hex quantity answer (eth_chainId), as an integer."""
        out = self.call(method, params)
        if not isinstance(out, str) or not _QUANTITY.fullmatch(out):
            raise self._wrong(method, "$.result", "a hex quantity", out)
        return int(out, 16)

    def not_abi(self, signature: str, to: str, why: str) -> RpcError:
        """An eth_call answer that is hex data of enough words but not the ABI value of `signature`'s outputs (a
        tuple offset other than 0x20, an address word with its upper 12 bytes set, an integer past its type's
        width, a malformed array): the RPC cannot be read, as an answer of the wrong shape (probe39 B-F1)."""
        return RpcError(f"{self.where}: eth_call {signature} to {to}: the answer is not the function's ABI value ($.result: {why})")

    def eth_call(self, to: str, signature: str, *words: bytes) -> bytes:
        data = keccak256(signature.encode())[:4] + b"".join(words)
        out = self.call("eth_call", [{"to": to, "data": hx(data)}, "latest"])
        if not isinstance(out, str) or not _DATA.fullmatch(out):
            raise self._wrong(f"eth_call {signature}", "$.result", "hex data", out)
        return bytes.fromhex(out[2:])

    def code(self, address: str) -> str:
        """eth_getCode(address, latest): the runtime code as lowercase hex data, "0x" when there is none."""
        out = self.call("eth_getCode", [address, "latest"])
        if not isinstance(out, str) or not _DATA.fullmatch(out):
            raise self._wrong("eth_getCode", "$.result", "contract code (hex data)", out)
        return out.lower()

    def tx_receipt(self, tx: str) -> dict | None:
        """eth_getTransactionReceipt: null (not mined) or {status, blockNumber, logs: [{address, topics, data}]}
        with hex values (quantities as integers, data as bytes, addresses and topics lowercase). A receipt of
        another transaction, or one whose log states another transaction, block number or block hash than the
        receipt, or a log a reorg removed, is no evidence of `tx`: an RPC that cannot be read (probe37 B-F2,
        as the verifier's receiptContradiction)."""
        method = "eth_getTransactionReceipt"
        out = self.call(method, [tx])
        if out is None:
            return None
        if not isinstance(out, dict):
            raise self._wrong(method, "$.result", "a transaction receipt", out)
        receipt = {}
        for key in ("status", "blockNumber"):
            v = out.get(key)
            if not isinstance(v, str) or not _QUANTITY.fullmatch(v):
                raise self._wrong(method, f"$.result.{key}", "a transaction receipt (a hex quantity)", v)
            receipt[key] = int(v, 16)
        # a status is 0x0 (reverted) or 0x1 (success), as the verifier reads it (probe37 V-F3: 0x2 was taken as
        # a failed transaction, the honest award blamed on the pack, exit 1, where the verifier exits 3)
        if out["status"].lower() not in ("0x0", "0x1"):
            raise self._wrong(method, "$.result.status", "a transaction receipt (status 0x0 or 0x1)", out["status"])
        tx_hash = out.get("transactionHash")
        if not isinstance(tx_hash, str) or not _WORD.fullmatch(tx_hash):
            raise self._wrong(method, "$.result.transactionHash", "a transaction receipt (a 32-byte hash)", tx_hash)

        def contradiction(path: str, message: str) -> RpcError:
            return RpcError(f"{self.where}: {method}: the answer is not a receipt of transaction {tx} ({path}: {message})")

        if tx_hash.lower() != tx.lower():
            raise contradiction("$.result.transactionHash", f"is {tx_hash}, the transaction asked is {tx}")
        logs = out.get("logs")
        if not isinstance(logs, list):
            raise self._wrong(method, "$.result.logs", "a transaction receipt (an array of logs)", logs)
        receipt["logs"] = []
        for i, lg in enumerate(logs):
            lp = f"$.result.logs[{i}]"
            if not isinstance(lg, dict):
                raise self._wrong(method, lp, "a transaction receipt (a log object)", lg)
            address, topics, data = lg.get("address"), lg.get("topics"), lg.get("data")
            if not isinstance(address, str) or not _ADDRESS.fullmatch(address):
                raise self._wrong(method, f"{lp}.address", "a transaction receipt (an address)", address)
            if not isinstance(topics, list):
                raise self._wrong(method, f"{lp}.topics", "a transaction receipt (an array of topics)", topics)
            for j, t in enumerate(topics):
                if not isinstance(t, str) or not _WORD.fullmatch(t):
                    raise self._wrong(method, f"{lp}.topics[{j}]", "a transaction receipt (a 32-byte topic)", t)
            if not isinstance(data, str) or not _DATA.fullmatch(data):
                raise self._wrong(method, f"{lp}.data", "a transaction receipt (hex data)", data)
            if lg.get("removed") is True:
                raise contradiction(f"{lp}.removed", "the log was removed by a reorg")
            for key in ("transactionHash", "blockNumber", "blockHash"):
                own, receipts = lg.get(key), (tx if key == "transactionHash" else out.get(key))
                if own is not None and receipts is not None and str(own).lower() != str(receipts).lower():
                    raise contradiction(f"{lp}.{key}", f"is {_shown(own)}, the receipt's is {_shown(receipts)}")
            receipt["logs"].append(
                {"address": address.lower(), "topics": [t.lower() for t in topics], "data": bytes.fromhex(data[2:])}
            )
        return receipt


def word_uint(n: int) -> bytes:
    return n.to_bytes(32, "big")


def word_bytes32(h: str) -> bytes:
    return bytes.fromhex(h[2:])


def read_words(data: bytes) -> list[int]:
    return [int.from_bytes(data[i : i + 32], "big") for i in range(0, len(data), 32)]


def abi_word_problem(abi_type: str, w: int) -> str | None:
    """Why the 32-byte word `w` is not an ABI value of the static type `abi_type` (`address`: its upper 12
    bytes zero; `uintN`: below 2^N; `bytes32`: any word), or None."""
    if abi_type == "bytes32":
        return None
    bits = 160 if abi_type == "address" else int(abi_type[4:])
    return None if w < 1 << bits else f"{w:#066x} is not {'an' if abi_type == 'address' else 'a'} {abi_type} (it does not fit {bits} bits)"


# SPEC 1.1 IBenchmarkBounty.Bounty, the tuple getBounty(uint256) returns, member by member in ABI order (its
# Status enum is a uint8); splitsBps is dynamic, so the tuple is encoded after its offset word (0x20): a head
# of 11 words (the static members, then splitsBps's offset from the tuple's start, 0x160, just past the head),
# then splitsBps (its length, one word per element)
BOUNTY_MEMBERS = (
    ("author", "address"),
    ("awarder", "address"),
    ("token", "address"),
    ("pool", "uint256"),
    ("testSetRoot", "bytes32"),
    ("leafCount", "uint32"),
    ("closesAt", "uint64"),
    ("awardDeadline", "uint64"),
    ("thresholdBps", "uint16"),
    ("status", "uint8"),
    ("splitsBps", "uint16[]"),
)
BOUNTY_MIN_WORDS = 1 + len(BOUNTY_MEMBERS) + 1  # the offset, the head, splitsBps's length


def decode_bounty(data: bytes) -> dict[str, int | list[int]] | str:
    """getBounty(uint256)'s answer (at least BOUNTY_MIN_WORDS whole words) as {member: integer, or a list of
    integers for splitsBps}, or why it is not the ABI value of the Bounty tuple, naming the word: the tuple's
    offset other than 0x20, an address word with its upper 12 bytes set, an integer past its type's width
    (uint8 status, uint16 bps, uint32 leafCount, uint64 times), splitsBps's offset other than 0x160 or its
    elements running past the answer (probe39 B-F1: word 0 was skipped unread, so a tuple offset of 0xff..ff
    the verifier refuses passed here)."""

    def word(at: int) -> int:
        return int.from_bytes(data[at : at + 32], "big")

    if word(0) != 0x20:
        return f"word 0, the tuple's offset, is {word(0):#x}, not 0x20"
    out: dict[str, int | list[int]] = {}
    head = 32 * len(BOUNTY_MEMBERS)
    for i, (name, abi_type) in enumerate(BOUNTY_MEMBERS):
        w = word(32 * (1 + i))
        if abi_type != "uint16[]":
            problem = abi_word_problem(abi_type, w)
            if problem is not None:
                return f"word {1 + i}, {name}: {problem}"
            out[name] = w
            continue
        if w != head:
            return f"word {1 + i}, the offset of {name}, is {w:#x}, not {head:#x} (just past the tuple's head)"
        start = 32 + w
        n = word(start)
        if start + 32 + 32 * n > len(data):
            return f"{name} has {n} elements, running past the answer's {len(data)} bytes"
        for j in range(n):
            problem = abi_word_problem("uint16", word(start + 32 * (1 + j)))
            if problem is not None:
                return f"{name}[{j}]: {problem}"
        out[name] = [word(start + 32 * (1 + j)) for j in range(n)]
    return out


# ---------------------------------------------------------------------------------------------------


# SPEC 8: the members a rank row repeats from its run's receipt (SPEC 4)
ROW_FROM_RECEIPT = ("run_id", "agent_id", "score_public", "score_composite", "wall_seconds", "queries_used", "usdc_spent")


def receipt_binding_problems(who: str, rec: dict, owner: dict, b: dict, ts: list, prompt_hashes: list[str]) -> list[str]:
    """SPEC 4 + 8: a receipt (a winner's or a rank row's) is its owner's run (`run_id`, `agent_id`) of this
    benchmark (`benchmark_slug`, `commit_root`), and each task, in ordinal order 0..n-1, is bound to the
    test-set row its `bank_ordinal` names (that row's `prompt_hash` and `visibility`). The problems, each
    starting with `who`."""
    problems = []
    for key, want in (("run_id", owner["run_id"]), ("agent_id", owner["agent_id"]), ("benchmark_slug", b["slug"]), ("commit_root", b["commit_root"])):
        if rec[key] != want:
            problems.append(f"{who}: receipt {key} {_shown(rec[key])} != {_shown(want)}")
    for i, t in enumerate(rec["tasks"]):
        if t["ordinal"] != i:
            problems.append(f"{who}: task at position {i} has ordinal {t['ordinal']} (0..n-1 in order)")
        if t["bank_ordinal"] >= len(ts):
            problems.append(f"{who}: task {t['ordinal']} names bank_ordinal {t['bank_ordinal']}, beyond the test set")
        elif t["prompt_hash"] != prompt_hashes[t["bank_ordinal"]] or t["visibility"] != ts[t["bank_ordinal"]]["visibility"]:
            problems.append(f"{who}: task {t['ordinal']} not bound to test_set[{t['bank_ordinal']}]")
    return problems


def check(pack: dict, rpc_url: str | None, rpc_timeout_s: float = DEFAULT_RPC_TIMEOUT_S) -> list[tuple[str, bool, str]]:
    """Runs the checks on a pack that validate_pack accepted: (name, passed, one line) per check.
    Raises RpcError when the RPC cannot be read."""
    results: list[tuple[str, bool, str]] = []

    def record(name: str, problems: list[str], ok_text: str) -> None:
        results.append((name, not problems, ok_text if not problems else "; ".join(problems[:5])))

    b, ts, winners, rd = pack["benchmark"], pack["test_set"], pack["winners"], pack["rank_derivation"]

    # SPEC 8: pack hash
    body = {"benchmark": b, "test_set": ts, "winners": winners, "rank_derivation": rd}
    ph = hx(keccak256(canonical(body)))
    record("pack_hash", [] if ph == pack["pack_hash"] else [f"recomputed {ph}, pack says {pack['pack_hash']}"], ph)

    # SPEC 3: commitment
    problems, leaves, prompt_hashes = [], [], []
    for i, row in enumerate(ts):
        if row["ordinal"] != i:
            problems.append(f"test_set[{i}].ordinal is {row['ordinal']}")
        prompt_hash = keccak256(row["prompt"].encode()).hex()
        gold_leaf = keccak256(canonical(row["gold"]) + row["salt"].encode()).hex()
        prompt_hashes.append(prompt_hash)
        leaves.append(keccak256(canonical({"ordinal": i, "prompt_hash": prompt_hash, "gold_leaf": gold_leaf})))
    level = leaves
    while len(level) > 1:
        if len(level) % 2:
            level = level + [level[-1]]
        level = [keccak256(level[j] + level[j + 1]) for j in range(0, len(level), 2)]
    root = hx(level[0]) if level else None
    if root != b["commit_root"]:
        problems.append(f"root {root} != commit_root {b['commit_root']}")
    if len(ts) != b["leaf_count"]:
        problems.append(f"{len(ts)} rows != leaf_count {b['leaf_count']}")
    record("commitment", problems, f"{len(ts)} rows rebuild {root}")

    # SPEC 8: ranking digest
    rdig = hx(keccak256(canonical(rd)))
    record("ranking_digest", [] if rdig == b["ranking_digest"] else [f"{rdig} != {b['ranking_digest']}"], rdig)

    # SPEC 8 + 5: benchmark.grader_types, "the grading semantics above, as text and examples" (probe39 B-N1):
    # each example's gold is a valid gold of its grader (the test set's rule, _validate_gold) and its stated
    # credit is the grade of its answer; the gold_shape and semantics texts are descriptive (bound by the pack
    # hash and the awarder's pack anchor), not checked
    problems, examples = [], 0
    for grader in GRADERS:
        for i, ex in enumerate(b["grader_types"][grader]["examples"]):
            examples += 1
            xp = f"$.benchmark.grader_types.{grader}.examples[{i}]"
            gp = _step(xp, "gold")
            try:
                _validate_gold(_Reader(), grader, ex["gold"], gp)
            except PackError as e:
                problems.append(str(e))
                continue
            long = long_run_problem(
                gold_norm_texts(grader, ex["gold"], gp) + answer_norm_texts(grader, ex["answer"], _step(xp, "answer"))
            )
            if long is not None:
                problems.append(long)
                continue
            c = grade(grader, ex["gold"], ex["answer"])
            if ex["credit"] != f"{c.numerator}/{c.denominator}":
                problems.append(
                    f"{xp}.credit: the example states credit {ex['credit']}, grading its answer {_shown(ex['answer'])} "
                    f"against its gold with the {grader} grader gives {c.numerator}/{c.denominator}"
                )
    record(
        "grader_examples",
        problems,
        f"{examples} examples regrade to their stated credits from valid golds (gold_shape and semantics texts are not checked)",
    )

    # SPEC 4 + 5 + 6: winners' receipts, answers, regrade
    problems = []
    has_private = any(r["visibility"] == "private" for r in ts)
    rows_by_run = {}
    for r in rd["rows"]:  # the first row of a run id, as the verifier's rowByRun (a second fails `ordering`)
        rows_by_run.setdefault(r["run_id"], r)
    graded = 0
    for wi, w in enumerate(winners):
        rec = w["receipt"]
        who = f"winner {w['place']}"
        rh = hx(keccak256(canonical(rec)))
        if rh != w["receipt_hash"]:
            problems.append(f"{who}: receipt hashes to {rh}")
        problems += receipt_binding_problems(who, rec, w, b, ts, prompt_hashes)
        tasks = rec["tasks"]
        answers: dict[int, dict] = {}
        answer_at: dict[int, int] = {}
        for j, a in enumerate(w["answers"]):  # SPEC 4: one revealed answer per answered task of the receipt
            if a["ordinal"] in answers or not 0 <= a["ordinal"] < len(tasks):
                problems.append(f"{who}: answer for task {a['ordinal']} is a second one or names no task of its receipt")
            answers.setdefault(a["ordinal"], a)
            answer_at.setdefault(a["ordinal"], j)
        credits: dict[int, Fraction] = {}
        ungraded = False

        def graded_credit(ti: int, t: dict, c: Fraction) -> None:
            """SPEC 4 + 6: a graded credit the receipt states is the reduced fraction the regrade gives (probe37
            B-F5, as the verifier's regrade); null (the benchmark open at finalize) states none."""
            credits[t["ordinal"]] = c
            if t["credit"] is not None and t["credit"] != f"{c.numerator}/{c.denominator}":
                problems.append(
                    f"{who}: $.winners[{wi}].receipt.tasks[{ti}].credit is {t['credit']}, "
                    f"regrading gives {c.numerator}/{c.denominator}"
                )

        for ti, t in enumerate(tasks):
            if t["bank_ordinal"] >= len(ts):  # named by receipt_binding_problems
                credits[t["ordinal"]] = Fraction(0)
                continue
            bank = ts[t["bank_ordinal"]]
            a = answers.get(t["ordinal"])
            if a is None:
                if t["answer_digest"] is not None:
                    problems.append(f"{who}: task {t['ordinal']} has a digest but no revealed answer")
                graded_credit(ti, t, Fraction(0))
                continue
            digest = hx(keccak256(a["answer_text"].encode("utf-8") + bytes.fromhex(w["answer_salt"])))
            if digest != t["answer_digest"] or a["bank_ordinal"] != t["bank_ordinal"]:
                problems.append(f"{who}: answer {t['ordinal']} does not match its digest")
            # never NFKC a long run of combining marks (probe36 A-F9): the task is not graded
            long = long_run_problem(
                answer_norm_texts(
                    bank["grader_type"],
                    a["answer_text"],
                    f"$.winners[{wi}].answers[{answer_at[t['ordinal']]}].answer_text",
                )
                + gold_norm_texts(bank["grader_type"], bank["gold"], f"$.test_set[{t['bank_ordinal']}].gold")
            )
            if long is not None:
                problems.append(f"{who}: {long}")
                ungraded = True
                continue
            graded_credit(ti, t, grade(bank["grader_type"], bank["gold"], a["answer_text"]))
            graded += 1
        if ungraded:
            problems.append(f"{who}: rank_accuracy cannot be recomputed (see the problems above)")
            continue
        ranked = [t for t in tasks if t["visibility"] == ("private" if has_private else "public")]
        public = [t for t in tasks if t["visibility"] == "public"]
        if not ranked:  # SPEC 6: the accuracy is over the run's private tasks when the bank has any
            problems.append(f"{who}: the receipt has no {'private' if has_private else 'public'} task to rank on")
            continue
        acc = half_up_4(sum((credits[t["ordinal"]] for t in ranked), Fraction(0)) / len(ranked))
        pub = half_up_4(sum((credits[t["ordinal"]] for t in public), Fraction(0)) / len(public)) if public else None
        row = rows_by_run.get(w["run_id"])
        if row is None:
            problems.append(f"{who}: run {w['run_id']} is not a rank_derivation row")
        else:
            if row["receipt_hash"] != w["receipt_hash"]:
                problems.append(f"{who}: receipt_hash differs from its row's {row['receipt_hash']}")
            if row["rank_accuracy"] != acc:
                problems.append(f"{who}: regraded accuracy {acc} != row {row['rank_accuracy']}")
            if pub is not None and rec["score_public"] != pub:
                problems.append(f"{who}: regraded public score {pub} != receipt {rec['score_public']}")
    record("winners_regraded", problems, f"{graded} answers of {len(winners)} winners: digests, receipt hashes, accuracy")

    # SPEC 6: composites; SPEC 4 + 8: a row repeats its receipt's (the row's own, else its winner's). A row
    # with neither (SPEC 8: its receipt is optional) states its scores and usage on the awarder's word alone,
    # which nothing here can check: not passed (probe37 C-F1, as the verifier's composite is unverified)
    problems = []
    winner_receipts = {w["run_id"]: w["receipt"] for w in winners}
    carried = 0
    unchecked = []
    for i, row in enumerate(rd["rows"]):
        c = composite(rd, row)
        if c != row["score_composite"]:
            problems.append(f"{row['agent_id']}: composite {c} != {row['score_composite']}")
        rec = row.get("receipt")
        if rec is not None:
            carried += 1
            who = f"rank_derivation.rows[{i}] ({row['agent_id']})"
            rh = hx(keccak256(canonical(rec)))
            if rh != row["receipt_hash"]:
                problems.append(f"{who}: its receipt hashes to {rh}, the row says {row['receipt_hash']}")
            problems += receipt_binding_problems(who, rec, row, b, ts, prompt_hashes)
            problems += stated_credit_problems(who, rec, row, has_private)
        else:
            rec = winner_receipts.get(row["run_id"])
            if rec is None:
                unchecked.append(f"rank_derivation.rows[{i}] ({row['agent_id']})")
        if rec is not None:
            for key in ROW_FROM_RECEIPT:
                if row[key] != rec[key]:
                    problems.append(f"{row['agent_id']}: row {key} {_shown(row[key])} != its receipt's {_shown(rec[key])}")
            # SPEC 7.1's tie-break achieved_at is when the run was finalized, its receipt's finalized_at (probe37
            # B-F4, as the verifier's composite): else the awarder orders tied rows, and so chooses who is paid
            if row["achieved_at"] != rec["finalized_at"]:
                problems.append(
                    f"{row['agent_id']}: $.rank_derivation.rows[{i}].achieved_at {_shown(row['achieved_at'])} "
                    f"!= its receipt's finalized_at {_shown(rec['finalized_at'])}"
                )
            # SPEC 7.1: attempts_used counts the agent's attempts, this run's included
            if row["attempts_used"] < rec["attempt"]:
                problems.append(f"{row['agent_id']}: attempts_used {row['attempts_used']} is below its receipt's attempt {rec['attempt']}")
    if unchecked:
        problems.insert(0, (
            f"{len(unchecked)} row(s) carry no receipt and are no winner's ({', '.join(unchecked[:5])}"
            f"{', ...' if len(unchecked) > 5 else ''}): their rank_accuracy, score_public, score_composite, wall_seconds, "
            "queries_used, usdc_spent, achieved_at and attempts_used are the awarder's word, checked against no receipt"
        ))
    record("composites", problems, f"{len(rd['rows'])} composites recomputed; {carried} row receipts hash to their rows and agree with them")

    # SPEC 7.1: order
    rows = rd["rows"]
    key = lambda r: (
        -dec(r["score_composite"]),
        -dec(r["score_public"]),
        r["queries_used"],
        dec(r["wall_seconds"]),
        instant(r["achieved_at"]),
        r["run_id"],
    )
    order = sorted(rows, key=key)
    problems = []
    if [r["run_id"] for r in order] != [r["run_id"] for r in rows]:
        problems.append("rows are not in SPEC 7.1 order")
    if [r["rank"] for r in rows] != list(range(1, len(rows) + 1)):
        problems.append("ranks are not 1..n")
    if len({r["agent_id"] for r in rows}) != len(rows):
        problems.append("an agent has two rows")
    # SPEC 4 + 7.1: a run is one agent's attempt and run_id is the last tie-break, so one row per run; a
    # receipt hash names one run, so one row per receipt hash (probe37 V-F2: a loser's row naming a winner's run)
    for field, what in (("run_id", "run"), ("receipt_hash", "receipt hash")):
        first: dict[str, int] = {}
        for i, r in enumerate(rows):
            k = r[field].lower() if field == "receipt_hash" else r[field]
            if k in first:
                problems.append(
                    f"$.rank_derivation.rows[{i}].{field}: {what} {json.dumps(r[field])} already has row {first[k]} "
                    f"($.rank_derivation.rows[{first[k]}]): one row per {what}"
                )
            else:
                first[k] = i
    record("ordering", problems, f"{len(rows)} rows in order")

    # SPEC 7.2 + 7.3: selection and payouts
    splits = rd["splits_bps"]
    eligible = [
        r for r in rows if dec(r["score_composite"]) * 10000 >= rd["threshold_bps"] and not r["is_author_agent"]
    ]
    chosen = eligible[: len(splits)]
    k = len(chosen)
    pool = int(rd["pool_base_units"])
    amounts = []
    if k:
        s = sum(splits[:k])
        amounts = [pool * splits[i] // s for i in range(k)]
        amounts[0] += pool - sum(amounts)
    reason = None
    if k == 0:
        reason = (
            "no_runs"
            if not rows
            else "none_at_or_above_threshold"
            if not any(dec(r["score_composite"]) * 10000 >= rd["threshold_bps"] for r in rows)
            else "only_author_agents"
        )
    problems = []
    if [r["agent_id"] for r in chosen] != [w["agent_id"] for w in winners]:
        problems.append(f"winners should be {[r['agent_id'] for r in chosen]}")
    if [str(a) for a in amounts] != rd["place_amounts_base_units"]:
        problems.append(f"place amounts should be {amounts}")
    if [str(a) for a in amounts] != [w["amount_base_units"] for w in winners]:
        problems.append("winner amounts differ from the place amounts")
    if [w["place"] for w in winners] != list(range(1, k + 1)):
        problems.append("winner places are not 1..k")
    if reason != rd["zero_winner_reason"]:
        problems.append(f"zero_winner_reason should be {reason}")
    # SPEC 1: splits non-increasing, summing to 10000, the named rules' own; SPEC 8: one pool, stated twice
    if sum(splits) != 10000 or any(later > earlier for earlier, later in zip(splits, splits[1:])):
        problems.append(f"splits_bps {splits} are not non-increasing summing to 10000")
    named = PAYOUT_RULES.get(rd["payout_rule"])
    if named is not None and splits != named:
        problems.append(f"payout_rule {rd['payout_rule']} means {named}, splits_bps is {splits}")
    # SPEC 7.2 "author agents rank but take no money", read as spec/README.md's implementation notes do: a
    # winner paid at the address that locked the bounty (benchmark.author) is the author's
    for w in winners:
        if w["withdrawal_address"].lower() == b["author"].lower():
            problems.append(f"winner {w['place']} ({w['agent_id']}) is paid at benchmark.author {b['author']}: the author's wallet takes no prize")
    if rd["pool_base_units"] != b["pool_base_units"]:
        problems.append(f"rank_derivation.pool_base_units {rd['pool_base_units']} != benchmark.pool_base_units {b['pool_base_units']}")
    record("selection_and_payouts", problems, f"{k} winners, amounts {amounts}")

    if rpc_url is None:
        return results

    # SPEC 1 + 9: the chain. An answer of the wrong shape is an RPC that cannot be read (RpcError); hex data
    # that does not decode as the ABI value (0x from an address without code) fails that check.
    rpc = Rpc(rpc_url, rpc_timeout_s)
    bounty, bid = b["bounty_contract"].lower(), int(b["bounty_id"])
    chain_id = rpc.quantity("eth_chainId", [])
    record("chain_id", [] if chain_id == b["chain_id"] else [f"RPC serves {chain_id}"], str(chain_id))

    def call_words(to: str, signature: str, at_least: int, *args: bytes) -> tuple[bytes, list[int]] | None:
        """The answer and its 32-byte words, or None (a problem recorded) when it is shorter than at_least words."""
        data = rpc.eth_call(to, signature, *args)
        if len(data) < 32 * at_least:
            problems.append(f"{signature} at {to} answered {len(data)} bytes, not an ABI value (no contract there?)")
            return None
        return data, read_words(data[: 32 * (len(data) // 32)])

    problems: list[str] = []
    # no code at the bounty contract: its views' answers are no contract's (the verifier fails every bounty
    # fact, "no contract at ..."; probe37 B-F2: they passed here when the RPC answered the calls all the same)
    no_bounty_code = (
        [f"no contract at $.benchmark.bounty_contract {bounty} on chain {chain_id} (eth_getCode answered 0x)"]
        if rpc.code(bounty) == "0x"
        else []
    )
    problems += no_bounty_code
    author = int(b["author"], 16)
    root = call_words(bounty, "testSetRoots(uint256)", 1, word_uint(bid))
    count = call_words(bounty, "leafCountOf(uint256)", 1, word_uint(bid))
    # SPEC v1.1: the root is burned per author, rootBurned(author, root), with author = getBounty(id).author
    burned = call_words(bounty, "rootBurned(address,bytes32)", 1, word_uint(author), word_bytes32(b["commit_root"]))
    # getBounty returns a tuple with a dynamic array, read as its ABI value (decode_bounty); hex data that is not
    # is an RPC that cannot be read (probe39 B-F1: a tuple offset of 0xff..ff passed here, the verifier refused it)
    got = call_words(bounty, "getBounty(uint256)", BOUNTY_MIN_WORDS, word_uint(bid))
    on_bounty = decode_bounty(got[0]) if got else None
    if isinstance(on_bounty, str):
        raise rpc.not_abi("getBounty(uint256)", bounty, on_bounty)
    # the pack's anchor binds its text only when the awarder made it (probe31 C-F1)
    onchain_awarder = on_bounty["awarder"] if on_bounty is not None else None
    if on_bounty is not None and on_bounty["author"] != author:
        problems.append(f"getBounty({bid}).author is {on_bounty['author']:#042x}, not benchmark.author")
    if root and hx(root[0][:32]) != b["commit_root"].lower():
        problems.append(f"testSetRoots = {hx(root[0][:32])}")
    if count and count[1][0] != b["leaf_count"]:
        problems.append(f"leafCountOf = {count[1][0]}")
    if burned and burned[1][0] != 1:
        problems.append("root not burned")
    leaf_text = count[1][0] if count else "?"
    record("onchain_commitment", problems, f"testSetRoots, leafCountOf ({leaf_text}), getBounty.author and rootBurned(author, root) agree")

    receipt = rpc.tx_receipt(b["award_tx"])
    topic0 = hx(keccak256(b"Awarded(uint256,bytes32,address[],uint256[],uint256,bytes32)"))
    logs = [
        lg
        for lg in (receipt or {}).get("logs", [])
        if lg["address"] == bounty and len(lg["topics"]) == 3 and lg["topics"][0] == topic0 and int(lg["topics"][1], 16) == bid
    ]
    problems = list(no_bounty_code)
    awarded = decode_awarded(logs[0]["data"]) if receipt and len(logs) == 1 else None
    if receipt is None or receipt["status"] != 1 or len(logs) != 1:
        problems.append("no single successful Awarded log of this bounty in award_tx")
    elif awarded is None:
        problems.append("the Awarded log's data does not decode as (address[], uint256[], uint256, bytes32)")
    else:
        ws, am, remainder, digest = awarded
        if int(logs[0]["topics"][2], 16) != int(b["commit_root"], 16):
            problems.append("Awarded root differs")
        if receipt["blockNumber"] != b["award_block"]:
            problems.append("award_block differs")
        if ws != [w["withdrawal_address"] for w in winners]:
            problems.append(f"Awarded winners {ws}")
        if am != [w["amount_base_units"] for w in winners]:
            problems.append(f"Awarded amounts {am}")
        if digest != b["ranking_digest"]:
            problems.append(f"Awarded ranking digest {digest}")
        expected_remainder = int(b["pool_base_units"]) - sum(int(a) for a in am)
        if remainder != expected_remainder:
            problems.append(f"author remainder {remainder}, expected {expected_remainder}")
    record("award_log", problems, "winners, amounts, remainder and ranking digest as in the pack")

    kind = lambda name: hx(keccak256(f"bench-bounty.anchor.{name}".encode()))
    problems = []
    anchor = b["commitment_anchor"]
    if anchor is None:
        problems.append("the pack has no commitment_anchor")
        record("anchors", problems, "")
        return results
    registry = anchor["registry_address"]
    # no code at the registry: its anchorOf answers are no contract's (the verifier fails the anchor facts)
    if rpc.code(registry) == "0x":
        problems.append(f"no contract at $.benchmark.commitment_anchor.registry_address {registry} on chain {chain_id} (eth_getCode answered 0x)")

    def anchor_of(digest: str) -> tuple[int, str, int] | None:
        """(block, kind, anchorer) of anchorOf(digest), or None (a problem recorded)."""
        got = call_words(registry, "anchorOf(bytes32)", 4, word_bytes32(digest))
        if got is None:
            return None
        # (address anchorer, uint64 blockNumber, uint64 timestamp, bytes32 kind): each word its type's (probe39 B-F1)
        for i, (name, abi_type) in enumerate((("anchorer", "address"), ("blockNumber", "uint64"), ("timestamp", "uint64"))):
            problem = abi_word_problem(abi_type, got[1][i])
            if problem is not None:
                raise rpc.not_abi("anchorOf(bytes32)", registry, f"word {i}, {name}: {problem}")
        return (got[1][1], hx(got[0][96:128]), got[1][0])

    anchored_topic = hx(keccak256(b"Anchored(bytes32,bytes32,address)"))

    def anchor_tx_problem(what: str, a: dict, digest: str, kind_word: str) -> str | None:
        """The anchor's own transaction (probe30 B-F6: its tx_hash was never read): mined successfully in
        the anchor's block, with the registry's Anchored(digest, kind) log."""
        receipt = rpc.tx_receipt(a["tx_hash"])
        if receipt is None:
            return f"{what} anchor transaction {a['tx_hash']} is not mined"
        if receipt["status"] != 1 or receipt["blockNumber"] != a["anchor_block"]:
            return f"{what} anchor transaction {a['tx_hash']} has status {receipt['status']} in block {receipt['blockNumber']}, not a success in block {a['anchor_block']}"
        for lg in receipt["logs"]:
            if lg["address"] == a["registry_address"].lower() and lg["topics"][:3] == [anchored_topic, digest.lower(), kind_word]:
                return None
        return f"{what} anchor transaction {a['tx_hash']} has no Anchored log of {digest} (kind {what}) from {a['registry_address']}"

    got = anchor_of(b["commit_root"])
    if got and (got[0] != anchor["anchor_block"] or got[1] != kind("commitment")):
        problems.append(f"commitment anchored at block {got[0]} kind {got[1]}")
    problem = anchor_tx_problem("commitment", anchor, b["commit_root"], kind("commitment"))
    if problem:
        problems.append(problem)
    if pack.get("pack_anchor"):
        got = anchor_of(pack["pack_hash"])
        if got and (got[0] != pack["pack_anchor"]["anchor_block"] or got[1] != kind("pack")):
            problems.append(f"pack anchored at block {got[0]} kind {got[1]}")
        # anyone may anchor a digest: only the awarder's anchor binds the pack's title and grader_types
        if got and onchain_awarder is not None and got[2] != onchain_awarder:
            problems.append(f"pack anchored by {got[2]:#042x}, not by the awarder getBounty({bid}).awarder {onchain_awarder:#042x}")
        if got and onchain_awarder is None:
            problems.append(f"the awarder cannot be read (getBounty({bid}) answered no ABI value) to check who anchored the pack")
        problem = anchor_tx_problem("pack", pack["pack_anchor"], pack["pack_hash"], kind("pack"))
        if problem:
            problems.append(problem)
    else:
        problems.append("the pack has no pack_anchor")
    # a receipt anchored first by anyone with another kind (a front-run of the platform's anchor) counts:
    # SPEC 9 asks only that it be anchored at or before the award block (probe35 C-F2)
    for r in rows:
        got = anchor_of(r["receipt_hash"])
        if got and (got[0] == 0 or got[0] > b["award_block"]):
            problems.append(f"receipt of {r['agent_id']} anchored at block {got[0]} kind {got[1]}")
    record("anchors", problems, f"commitment, pack and {len(rows)} receipt anchors (at or before the award)")
    return results


def decode_awarded(data: bytes) -> tuple[list[str], list[str], int, str] | None:
    """The Awarded event's data (address[] winners, uint256[] amounts, uint256 remainder, bytes32 digest) as
    (lowercase addresses, amount strings, remainder, 0x digest), or None when it does not decode."""
    if len(data) % 32 or len(data) < 128:
        return None
    words = read_words(data)

    def array(offset: int) -> list[int] | None:
        if offset % 32 or offset // 32 >= len(words):
            return None
        at = offset // 32
        n = words[at]
        return words[at + 1 : at + 1 + n] if at + 1 + n <= len(words) else None

    ws, am = array(words[0]), array(words[1])
    if ws is None or am is None or any(w >= 1 << 160 for w in ws):
        return None
    return ["0x%040x" % w for w in ws], [str(a) for a in am], words[2], hx(data[96:128])


EXIT_PASSED, EXIT_FAILED, EXIT_INPUT, EXIT_IO, EXIT_INTERNAL = 0, 1, 2, 3, 4
DEFAULT_DEADLINE_S = 1800.0  # the verifier's --deadline default (30 minutes)
WORKER_STACK_BYTES = 64 * 1024 * 1024  # Python's JSON parser and encoder recurse once per level (10,000)
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def one_line(s: str) -> str:
    """A line as printed: control, line-separator and bidi characters (from a pack's agent ids, an RPC's
    answer, a path) escaped, so every message stays one line on a terminal."""
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", s)


def _seconds(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        v = math.nan
    if not (0 < v <= 10**7):
        raise argparse.ArgumentTypeError(f"expected seconds, a number above 0 and at most 10000000, got {text!r}")
    return v


class _Once(argparse.Action):
    """A single-valued option given twice is refused (argparse keeps the last), as every command line of the
    project does (probe33 B-F8); its values are not printed (a URL may carry a key)."""

    def __call__(self, parser, namespace, values, option_string=None):
        if getattr(namespace, self.dest, None) is not None:
            parser.error(f"{option_string} is given twice: give it once (a single-valued option is never read as its last value)")
        setattr(namespace, self.dest, values)


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The options (argparse: a bad one prints the usage and its error, exit 2)."""
    p = argparse.ArgumentParser(
        prog="check_pack.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    p.add_argument("pack", metavar="PACK.json", help="the evidence pack (a file or a pipe)")
    p.add_argument(
        "--rpc",
        metavar="URL",
        action=_Once,
        help="a JSON-RPC node of the pack's chain: also check the chain (credentials in the URL are sent as HTTP Basic)",
    )
    p.add_argument(
        "--rpc-timeout",
        type=_seconds,
        default=DEFAULT_RPC_TIMEOUT_S,
        metavar="SECONDS",
        help=f"most seconds for one RPC answer, from the request to its last byte (default {DEFAULT_RPC_TIMEOUT_S:g})",
    )
    p.add_argument(
        "--deadline",
        type=_seconds,
        default=DEFAULT_DEADLINE_S,
        metavar="SECONDS",
        help=f"most seconds for the whole check, reading the pack included (default {DEFAULT_DEADLINE_S:g})",
    )
    return p.parse_args(argv)


def _run(args: argparse.Namespace) -> tuple[int, list[str], list[str]]:
    """Reads and checks the pack on a thread with a deep enough stack, within args.deadline:
    (exit code, stdout lines, stderr lines)."""
    outcome: dict = {}

    def work() -> None:
        try:
            outcome["results"] = check(read_pack(args.pack), args.rpc, args.rpc_timeout)
        except BaseException as e:  # handed to the main thread, which names it
            outcome["error"] = e
            outcome["trace"] = traceback.format_exc()

    sys.setrecursionlimit(max(sys.getrecursionlimit(), MAX_DEPTH + 1000))
    threading.stack_size(WORKER_STACK_BYTES)
    worker = threading.Thread(target=work, name="check", daemon=True)
    worker.start()
    threading.stack_size(0)
    worker.join(args.deadline)
    if worker.is_alive():  # a pipe that never ends, a slow RPC answering many calls
        return EXIT_IO, [], [f"check_pack: deadline: the check did not finish within {args.deadline:g} s (--deadline)"]
    e = outcome.get("error")
    if isinstance(e, InputError):
        return EXIT_INPUT, [], [f"check_pack: {e}"]
    if isinstance(e, PackError):
        return EXIT_INPUT, [], [f"check_pack: malformed pack: {e}"]
    if isinstance(e, RpcError):
        return EXIT_IO, [], [f"check_pack: {e}"]
    if isinstance(e, MemoryError):
        return EXIT_IO, [], ["check_pack: out of memory while checking the pack"]
    if e is not None:
        lines = [f"check_pack: internal error: {type(e).__name__}: {str(e)[:300]} (a bug in check_pack.py; CHECK_PACK_DEBUG=1 prints the traceback)"]
        if os.environ.get("CHECK_PACK_DEBUG") == "1":
            lines += outcome["trace"].rstrip("\n").split("\n")
        return EXIT_INTERNAL, [], lines
    results = outcome["results"]
    out = [f"{'ok  ' if ok else 'FAIL'} {name:22} {text}" for name, ok, text in results]
    failed = [n for n, ok, _ in results if not ok]
    out.append(f"independent check: {len(results) - len(failed)}/{len(results)} passed" + (f", FAILED: {', '.join(failed)}" if failed else ""))
    return (EXIT_FAILED if failed else EXIT_PASSED), out, []


def main(argv: list[str]) -> int:
    """The command line: prints one line per check (stdout) or one line naming what stopped it (stderr),
    and returns the exit code (0 passed, 1 a check failed, 2 unreadable input or a bad option, 3 the RPC
    could not be read, the deadline passed or standard output could not be written, 4 internal error)."""
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(errors="backslashreplace")
    try:
        args = parse_args(argv)
    except SystemExit as e:  # argparse: --help (0) or a bad option (2, usage printed)
        return e.code if isinstance(e.code, int) else EXIT_INPUT
    if args.rpc is not None:
        try:
            require_http_url(args.rpc)
        except RpcError as e:
            print(one_line(f"check_pack: {e}"), file=sys.stderr)
            return EXIT_INPUT
    try:
        code, out, err = _run(args)
    except KeyboardInterrupt:
        print("check_pack: interrupted", file=sys.stderr)
        return 130
    for line in err:
        print(one_line(line), file=sys.stderr)
    try:
        for line in out:
            print(one_line(line))
        sys.stdout.flush()
    except BrokenPipeError:  # `| head -1`: the reader has gone; end quietly with the checks' code
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except OSError as e:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print(f"check_pack: cannot write standard output: {e.strerror or e}", file=sys.stderr)
        return EXIT_IO
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
