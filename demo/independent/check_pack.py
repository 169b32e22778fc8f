#!/usr/bin/env python3
"""An independent check of a bench-bounty award evidence pack, written from spec/SPEC.md alone.

Python standard library only (Keccak-256 is implemented below from FIPS 202 with the original Keccak
padding); nothing is shared with the TypeScript packages, so agreement between this script and
`@bench-bounty/verifier` is agreement between two implementations of the protocol.

    python3 demo/independent/check_pack.py out/pack.json [--rpc http://127.0.0.1:8545]

Checks (SPEC section): pack hash (8); commitment root and leaf count from the revealed rows (3);
ranking digest (8); receipt hashes and answer digests of the winners (4); regrade of the winners'
answers (all four graders) and their accuracy and public score (5, 6); every row's composite (6);
row order (7.1); winner selection (7.2); place amounts and winner amounts (7.3). With --rpc also:
chain id, testSetRoots, leafCountOf, rootBurned, the Awarded log of award_tx (winners, amounts,
remainder, ranking digest), and the anchors of the commitment, the pack and the winners' receipts
(AnchorRegistry.anchorOf, kinds, receipts at or before the award block) (1, 9).

Prints one line per check; exits 0 when every check passes, 1 when one fails, 2 on unreadable input
(a pack that cannot be read or parsed, or an --rpc that is not an http(s) URL or does not answer:
one line naming it and the cause, no traceback).
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime
from decimal import Decimal
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


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def grade(grader: str, gold: dict, answer: str) -> Fraction:
    """SPEC 5: the credit of one answer."""
    if grader == "exact":
        wanted = {norm(gold["value"])} | {norm(a) for a in gold.get("alternatives", [])}
        return Fraction(1) if norm(answer) in wanted else Fraction(0)
    if grader == "numeric":
        text = _trim_ws(answer)
        if not _NUMBER.match(text):
            return Fraction(0)
        tol = _gold_decimal(gold.get("tolerance", 0))
        return Fraction(1) if abs(Decimal(text) - _gold_decimal(gold["value"])) <= tol else Fraction(0)
    if grader == "contains_all":
        a = norm(answer)
        return Fraction(1) if all(norm(t) in a for t in gold["terms"]) else Fraction(0)
    if grader == "json_fields":
        try:
            exact = json.loads(
                answer,
                object_pairs_hook=_no_duplicates,
                parse_float=Decimal,
                parse_int=Decimal,
                parse_constant=_refuse_constant,
            )
            plain = json.loads(answer, object_pairs_hook=_no_duplicates, parse_constant=_refuse_constant)
        except ValueError:
            return Fraction(0)
        if not isinstance(exact, dict):
            return Fraction(0)
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


def dec(s: str) -> Fraction:
    return Fraction(Decimal(s))


def clamp(x: Fraction, lo: Fraction, hi: Fraction) -> Fraction:
    return max(lo, min(hi, x))


def composite(rd: dict, row: dict) -> str:
    sw = dec(rd["speed_weight"])
    cw = dec(rd["cost_weight"]) if rd["cost_budget_usdc"] is not None else Fraction(0)
    acc = dec(row["rank_accuracy"])
    speed = clamp(1 - dec(row["wall_seconds"]) / Fraction(rd["time_budget_seconds"]), Fraction(0), Fraction(1))
    cost = Fraction(0)
    if rd["cost_budget_usdc"] is not None:
        cost = clamp(1 - dec(row["usdc_spent"]) / dec(rd["cost_budget_usdc"]), Fraction(0), Fraction(1))
    return half_up_4(clamp((1 - sw - cw) * acc + sw * speed + cw * cost, Fraction(0), Fraction(1)))


def instant(iso: str) -> datetime:
    return datetime.fromisoformat(iso.replace("Z", "+00:00"))


# ---------------------------------------------------------------------------------------------------
# JSON-RPC (with --rpc)


class RpcError(Exception):
    """The RPC could not be read: the message names the URL (its origin when it carries more) and the cause."""


def rpc_label(url: str) -> str:
    """The URL as printed: as given when it is a bare origin, else its origin (a path or query may hold a key)."""
    try:
        u = urllib.parse.urlsplit(url)
        if u.scheme and u.hostname and (u.username or u.password or u.path not in ("", "/") or u.query or u.fragment):
            port = f":{u.port}" if u.port else ""
            return f"{u.scheme}://{u.hostname}{port} (path not shown)"
    except ValueError:
        pass
    return url


def require_http_url(url: str) -> None:
    """Refuses (RpcError) an --rpc that is not an http(s) URL with a host."""
    try:
        u = urllib.parse.urlsplit(url)
        ok = u.scheme in ("http", "https") and bool(u.hostname)
    except ValueError:
        ok = False
    if not ok:
        raise RpcError(f"--rpc must be an http(s) URL like http://127.0.0.1:8545, got {url!r}")


class Rpc:
    def __init__(self, url: str):
        require_http_url(url)
        self.url = url
        self.n = 0

    def call(self, method: str, params: list):
        self.n += 1
        body = json.dumps({"jsonrpc": "2.0", "id": self.n, "method": method, "params": params}).encode()
        req = urllib.request.Request(self.url, data=body, headers={"content-type": "application/json"})
        where = f"cannot read rpc {rpc_label(self.url)}"
        try:
            with urllib.request.urlopen(req, timeout=30) as res:
                raw = res.read(64 * 1024 * 1024 + 1)
        except urllib.error.HTTPError as e:
            raise RpcError(f"{where}: HTTP {e.code} to {method}") from None
        except urllib.error.URLError as e:
            reason = e.reason
            cause = reason.strerror if isinstance(reason, OSError) and reason.strerror else str(reason)
            raise RpcError(f"{where}: {cause.lower()}") from None
        except TimeoutError:
            raise RpcError(f"{where}: no answer to {method} within 30 s") from None
        except (OSError, ValueError) as e:
            raise RpcError(f"{where}: {e}") from None
        if len(raw) > 64 * 1024 * 1024:
            raise RpcError(f"{where}: the answer to {method} is more than 64 MiB")
        try:
            doc = json.loads(raw)
        except ValueError:
            raise RpcError(f"{where}: the answer to {method} is not JSON (is this a JSON-RPC node?)") from None
        if not isinstance(doc, dict) or ("error" not in doc and "result" not in doc):
            raise RpcError(f"{where}: the answer to {method} is not a JSON-RPC answer")
        if "error" in doc:
            raise RpcError(f"{where}: {method} refused: {str(doc['error'])[:200]!r}")
        return doc["result"]

    def eth_call(self, to: str, signature: str, *words: bytes) -> bytes:
        data = keccak256(signature.encode())[:4] + b"".join(words)
        out = self.call("eth_call", [{"to": to, "data": hx(data)}, "latest"])
        if not isinstance(out, str) or not re.fullmatch(r"0x(?:[0-9a-fA-F]{2})*", out):
            raise RpcError(f"cannot read rpc {rpc_label(self.url)}: eth_call answered {str(out)[:80]!r}, not hex data")
        return bytes.fromhex(out[2:])


def word_uint(n: int) -> bytes:
    return n.to_bytes(32, "big")


def word_bytes32(h: str) -> bytes:
    return bytes.fromhex(h[2:])


def read_words(data: bytes) -> list[int]:
    return [int.from_bytes(data[i : i + 32], "big") for i in range(0, len(data), 32)]


# ---------------------------------------------------------------------------------------------------


def check(pack: dict, rpc_url: str | None) -> list[tuple[str, bool, str]]:
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

    # SPEC 4 + 5 + 6: winners' receipts, answers, regrade
    problems = []
    has_private = any(r["visibility"] == "private" for r in ts)
    rows_by_run = {r["run_id"]: r for r in rd["rows"]}
    graded = 0
    for w in winners:
        rec = w["receipt"]
        rh = hx(keccak256(canonical(rec)))
        if rh != w["receipt_hash"]:
            problems.append(f"winner {w['place']}: receipt hashes to {rh}")
        if rec["commit_root"] != b["commit_root"]:
            problems.append(f"winner {w['place']}: receipt commit_root differs")
        tasks = rec["tasks"]
        answers = {a["ordinal"]: a for a in w["answers"]}
        credits: dict[int, Fraction] = {}
        for t in tasks:
            bank = ts[t["bank_ordinal"]]
            if t["prompt_hash"] != prompt_hashes[t["bank_ordinal"]] or t["visibility"] != bank["visibility"]:
                problems.append(f"winner {w['place']}: task {t['ordinal']} not bound to test_set[{t['bank_ordinal']}]")
            a = answers.get(t["ordinal"])
            if a is None:
                if t["answer_digest"] is not None:
                    problems.append(f"winner {w['place']}: task {t['ordinal']} has a digest but no revealed answer")
                credits[t["ordinal"]] = Fraction(0)
                continue
            digest = hx(keccak256(a["answer_text"].encode() + bytes.fromhex(w["answer_salt"])))
            if digest != t["answer_digest"] or a["bank_ordinal"] != t["bank_ordinal"]:
                problems.append(f"winner {w['place']}: answer {t['ordinal']} does not match its digest")
            credits[t["ordinal"]] = grade(bank["grader_type"], bank["gold"], a["answer_text"])
            graded += 1
        ranked = [t for t in tasks if t["visibility"] == ("private" if has_private else "public")]
        public = [t for t in tasks if t["visibility"] == "public"]
        acc = half_up_4(sum((credits[t["ordinal"]] for t in ranked), Fraction(0)) / len(ranked))
        pub = half_up_4(sum((credits[t["ordinal"]] for t in public), Fraction(0)) / len(public)) if public else None
        row = rows_by_run.get(w["run_id"])
        if row is None:
            problems.append(f"winner {w['place']}: run {w['run_id']} is not a rank_derivation row")
        else:
            if row["rank_accuracy"] != acc:
                problems.append(f"winner {w['place']}: regraded accuracy {acc} != row {row['rank_accuracy']}")
            if pub is not None and rec["score_public"] != pub:
                problems.append(f"winner {w['place']}: regraded public score {pub} != receipt {rec['score_public']}")
    record("winners_regraded", problems, f"{graded} answers of {len(winners)} winners: digests, receipt hashes, accuracy")

    # SPEC 6: composites
    problems = []
    for row in rd["rows"]:
        c = composite(rd, row)
        if c != row["score_composite"]:
            problems.append(f"{row['agent_id']}: composite {c} != {row['score_composite']}")
        if "receipt" in row and row["receipt"] is not None:
            if row["receipt"]["score_composite"] != row["score_composite"]:
                problems.append(f"{row['agent_id']}: row and receipt composites differ")
    record("composites", problems, f"{len(rd['rows'])} composites recomputed")

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
    record("selection_and_payouts", problems, f"{k} winners, amounts {amounts}")

    if rpc_url is None:
        return results

    # SPEC 1 + 9: the chain
    rpc = Rpc(rpc_url)
    bounty, bid = b["bounty_contract"], int(b["bounty_id"])
    chain_id = int(rpc.call("eth_chainId", []), 16)
    record("chain_id", [] if chain_id == b["chain_id"] else [f"RPC serves {chain_id}"], str(chain_id))
    onchain_root = hx(rpc.eth_call(bounty, "testSetRoots(uint256)", word_uint(bid)))
    leaf_count = read_words(rpc.eth_call(bounty, "leafCountOf(uint256)", word_uint(bid)))[0]
    # SPEC v1.1: the root is burned per author, rootBurned(author, root), with author = getBounty(id).author
    author = int(b["author"], 16)
    burned = read_words(
        rpc.eth_call(bounty, "rootBurned(address,bytes32)", word_uint(author) + word_bytes32(b["commit_root"]))
    )[0]
    # getBounty returns a tuple with a dynamic array: word 0 is its offset, word 1 the author
    onchain_author = read_words(rpc.eth_call(bounty, "getBounty(uint256)", word_uint(bid)))[1]
    problems = []
    if onchain_author != author:
        problems.append(f"getBounty({bid}).author is {onchain_author:#042x}, not benchmark.author")
    if onchain_root != b["commit_root"]:
        problems.append(f"testSetRoots = {onchain_root}")
    if leaf_count != b["leaf_count"]:
        problems.append(f"leafCountOf = {leaf_count}")
    if burned != 1:
        problems.append("root not burned")
    record("onchain_commitment", problems, f"testSetRoots, leafCountOf ({leaf_count}), getBounty.author and rootBurned(author, root) agree")

    receipt = rpc.call("eth_getTransactionReceipt", [b["award_tx"]])
    topic0 = hx(keccak256(b"Awarded(uint256,bytes32,address[],uint256[],uint256,bytes32)"))
    logs = [
        lg
        for lg in (receipt or {}).get("logs", [])
        if lg["address"].lower() == bounty and lg["topics"][0] == topic0 and int(lg["topics"][1], 16) == bid
    ]
    problems = []
    if receipt is None or receipt["status"] != "0x1" or len(logs) != 1:
        problems.append("no single successful Awarded log of this bounty in award_tx")
    else:
        lg = logs[0]
        data = bytes.fromhex(lg["data"][2:])
        words = read_words(data)
        off_w, off_a, remainder, digest = words[0] // 32, words[1] // 32, words[2], hx(data[96:128])
        ws = ["0x%040x" % words[off_w + 1 + i] for i in range(words[off_w])]
        am = [str(words[off_a + 1 + i]) for i in range(words[off_a])]
        if lg["topics"][2] != b["commit_root"]:
            problems.append("Awarded root differs")
        if int(receipt["blockNumber"], 16) != b["award_block"]:
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

    registry = b["commitment_anchor"]["registry_address"]

    def anchor_of(digest: str) -> tuple[int, str]:
        w = rpc.eth_call(registry, "anchorOf(bytes32)", word_bytes32(digest))
        return read_words(w)[1], hx(w[96:128])

    kind = lambda name: hx(keccak256(f"bench-bounty.anchor.{name}".encode()))
    problems = []
    block, k_ = anchor_of(b["commit_root"])
    if block != b["commitment_anchor"]["anchor_block"] or k_ != kind("commitment"):
        problems.append(f"commitment anchored at block {block} kind {k_}")
    if pack.get("pack_anchor"):
        block, k_ = anchor_of(pack["pack_hash"])
        if block != pack["pack_anchor"]["anchor_block"] or k_ != kind("pack"):
            problems.append(f"pack anchored at block {block} kind {k_}")
    else:
        problems.append("the pack has no pack_anchor")
    for r in rows:
        block, k_ = anchor_of(r["receipt_hash"])
        if block == 0 or block > b["award_block"] or k_ != kind("receipt"):
            problems.append(f"receipt of {r['agent_id']} anchored at block {block} kind {k_}")
    record("anchors", problems, f"commitment, pack and {len(rows)} receipt anchors (at or before the award)")
    return results


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    path, rpc = argv[0], None
    if len(argv) == 3 and argv[1] == "--rpc":
        rpc = argv[2]
    elif len(argv) != 1:
        print("usage: check_pack.py PACK.json [--rpc URL]", file=sys.stderr)
        return 2
    if rpc is not None:
        try:
            require_http_url(rpc)
        except RpcError as e:
            print(f"check_pack: {e}", file=sys.stderr)
            return 2
    try:
        with open(path, "rb") as f:
            pack = json.loads(f.read().decode("utf-8"), object_pairs_hook=_no_duplicates)
    except (OSError, ValueError) as e:
        print(f"check_pack: cannot read {path}: {e}", file=sys.stderr)
        return 2
    try:
        results = check(pack, rpc)
    except RpcError as e:
        print(f"check_pack: {e}", file=sys.stderr)
        return 2
    except (KeyError, TypeError, IndexError) as e:
        print(f"check_pack: malformed pack: {type(e).__name__} {e}", file=sys.stderr)
        return 2
    for name, ok, text in results:
        print(f"{'ok  ' if ok else 'FAIL'} {name:22} {text}")
    failed = [n for n, ok, _ in results if not ok]
    print(f"independent check: {len(results) - len(failed)}/{len(results)} passed" + (f", FAILED: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
