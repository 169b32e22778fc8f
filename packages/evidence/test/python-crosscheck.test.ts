/**
 * Cross-check of the canonical serializer against Python itself (SPEC 2):
 * thousands of random JSON documents, written in deliberately non-canonical
 * ways (random whitespace and key order, \u escapes in either case, surrogate
 * pair escapes, floats in every notation and exponent range), are parsed and
 * serialized here and by
 * `python3 -c json.dumps(json.loads(t), sort_keys=True, separators=(",", ":"), ensure_ascii=False)`,
 * and the UTF-8 bytes must be identical. Python runs once, on the whole batch.
 *
 * Seeded: set EVIDENCE_CROSSCHECK_SEED to replay, EVIDENCE_CROSSCHECK_DOCS to change the count,
 * EVIDENCE_CROSSCHECK_DUMP=<file> to write the batch (one JSON-encoded document per line).
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { canonicalJson, parseJson } from "../src/index.js";

const SEED = Number(process.env.EVIDENCE_CROSSCHECK_SEED ?? 20260301);
const DOCS = Math.max(2000, Number(process.env.EVIDENCE_CROSSCHECK_DOCS ?? 2500));

const python = spawnSync("python3", ["-c", "import sys; print(sys.version_info[0])"], { encoding: "utf8" });
const hasPython = python.status === 0 && python.stdout.trim() === "3";
if (!hasPython) {
  console.warn(
    "\n*** SKIPPED: python3 is not available, the Python cross-check of canonical JSON did not run ***\n",
  );
}

class Gen {
  readonly r: () => number;
  constructor(seed: number) {
    this.r = rng(seed);
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.r() * xs.length)] as T;
  }
  chance(p: number): boolean {
    return this.r() < p;
  }
  digits(n: number, leadingNonZero = true): string {
    let s = leadingNonZero ? String(this.int(1, 9)) : String(this.int(0, 9));
    for (let i = 1; i < n; i++) s += String(this.int(0, 9));
    return s;
  }

  /** One code point from a mix of hard ranges. */
  codePoint(): number {
    switch (this.int(0, 13)) {
      case 0:
        return this.int(0x00, 0x1f); // C0 controls
      case 1:
        return this.pick([0x22, 0x5c, 0x2f, 0x7f, 0x2028, 0x2029, 0xfeff, 0xfffe, 0xffff, 0x85, 0xa0]);
      case 2:
        return this.int(0xe000, 0xf8ff); // BMP private use
      case 3:
        return this.int(0xf0000, 0xffffd); // astral private use
      case 4:
        return this.int(0x1f300, 0x1faff); // emoji
      case 5:
        return this.int(0x10000, 0x10ffff); // any astral
      case 6:
        return this.int(0x4e00, 0x9fff); // CJK
      case 7:
        return this.int(0x80, 0x7ff); // 2-byte UTF-8
      case 8:
        return this.pick([0xd7ff, 0xe000, 0xfb01, 0x212a, 0x0130, 0x1e9e, 0x0301, 0x3000, 0xff21]);
      default:
        return this.int(0x20, 0x7e); // printable ASCII
    }
  }

  string(maxLen = 10): string {
    const n = this.chance(0.05) ? 0 : this.int(1, maxLen);
    let s = "";
    for (let i = 0; i < n; i++) s += String.fromCodePoint(this.codePoint());
    return s;
  }

  /** Write a string as JSON text, choosing per character among raw, short and \u escapes. */
  writeString(s: string): string {
    let out = '"';
    for (const ch of s) {
      const cp = ch.codePointAt(0) as number;
      const u = (c: number): string => {
        const h = c.toString(16).padStart(4, "0");
        return `\\u${this.chance(0.5) ? h : h.toUpperCase()}`;
      };
      const short: Record<number, string> = {
        0x22: '\\"',
        0x5c: "\\\\",
        0x08: "\\b",
        0x0c: "\\f",
        0x0a: "\\n",
        0x0d: "\\r",
        0x09: "\\t",
      };
      if (cp === 0x22 || cp === 0x5c || cp < 0x20) {
        out += short[cp] !== undefined && this.chance(0.6) ? short[cp] : u(cp);
      } else if (cp === 0x2f && this.chance(0.3)) {
        out += "\\/";
      } else if (this.chance(0.25)) {
        if (cp > 0xffff) {
          const c = cp - 0x10000;
          out += u(0xd800 + (c >> 10)) + u(0xdc00 + (c & 0x3ff));
        } else {
          out += u(cp);
        }
      } else {
        out += ch;
      }
    }
    return `${out}"`;
  }

  integer(): string {
    switch (this.int(0, 6)) {
      case 0:
        return this.pick([
          "0",
          "-0",
          "1",
          "-1",
          "9007199254740991",
          "9007199254740992",
          "9007199254740993",
          "-9007199254740993",
          "18446744073709551616",
        ]);
      case 1:
        return (this.chance(0.3) ? "-" : "") + this.digits(this.int(16, 78)); // big, up to 78 digits
      case 2:
        return ((1n << 256n) - 1n - BigInt(this.int(0, 1000))).toString();
      default:
        return (this.chance(0.3) ? "-" : "") + this.digits(this.int(1, 15));
    }
  }

  /** A float lexeme from every exponent range and notation (finite after rounding). */
  float(): string {
    for (;;) {
      let s: string;
      switch (this.int(0, 6)) {
        case 0: {
          // random bits -> a finite double, written with toString / toExponential / toPrecision(17)
          const buf = new DataView(new ArrayBuffer(8));
          buf.setUint32(0, Math.floor(this.r() * 2 ** 32));
          buf.setUint32(4, Math.floor(this.r() * 2 ** 32));
          const x = buf.getFloat64(0);
          if (!Number.isFinite(x)) continue;
          const t = this.pick([
            x.toString(),
            x.toExponential(),
            x.toPrecision(17),
            x.toExponential(this.int(0, 20)),
          ]);
          s = /[.eE]/.test(t) ? t : `${t}.0`;
          break;
        }
        case 1: {
          // mantissa digits, exponent anywhere in [-340, 320]
          const len = this.int(1, 25);
          const dot = this.int(1, len);
          // no leading zero before a multi-digit integer part (strict JSON)
          const m = this.digits(len, dot > 1 || this.chance(0.5));
          const mant = dot < m.length ? `${m.slice(0, dot)}.${m.slice(dot)}` : m;
          const e = this.int(-340, 320);
          s = `${this.chance(0.3) ? "-" : ""}${mant}${this.pick(["e", "E"])}${e < 0 ? "-" : this.pick(["", "+"])}${Math.abs(e)}`;
          break;
        }
        case 2: {
          // fixed notation around the repr switch points (1e-4, 1e-5, 1e15, 1e16, 1e17)
          const k = this.int(-7, 18);
          const m = this.digits(this.int(1, 18));
          s =
            k >= 0 ? `${m.slice(0, 1)}${"0".repeat(k)}.${m.slice(1) || "0"}` : `0.${"0".repeat(-k - 1)}${m}`;
          if (this.chance(0.3)) s = `-${s}`;
          break;
        }
        case 3:
          s = this.pick([
            "1.0",
            "-0.0",
            "0.0",
            "1e-7",
            "1E2",
            "5e-324",
            "4.9e-324",
            "2.2250738585072014e-308",
            "1.7976931348623157e308",
            "1e-400",
            "0.1",
            "0.30000000000000004",
            "1e16",
            "1e22",
            "123.456e5",
            "100.0",
          ]);
          break;
        default: {
          const m = this.digits(this.int(1, 17), false);
          s = `${this.chance(0.3) ? "-" : ""}${this.int(0, 999)}.${m}`;
        }
      }
      if (Number.isFinite(Number(s))) return s;
    }
  }

  ws(): string {
    if (this.chance(0.6)) return "";
    let s = "";
    for (let i = this.int(1, 3); i > 0; i--) s += this.pick([" ", "\t", "\n", "\r"]);
    return s;
  }

  /** A JSON document as text. */
  value(depth: number): string {
    const leaf = depth <= 0 || this.chance(0.35);
    if (leaf) {
      switch (this.int(0, 6)) {
        case 0:
          return this.pick(["true", "false", "null"]);
        case 1:
        case 2:
          return this.integer();
        case 3:
        case 4:
          return this.float();
        default:
          return this.writeString(this.string());
      }
    }
    if (this.chance(0.5)) {
      const n = this.int(0, 6);
      const items: string[] = [];
      for (let i = 0; i < n; i++) items.push(this.ws() + this.value(depth - 1) + this.ws());
      return `[${items.join(",") || this.ws()}]`;
    }
    const n = this.int(0, 6);
    const keys = new Set<string>();
    const items: string[] = [];
    for (let i = 0; i < n; i++) {
      const k = this.string(6);
      if (keys.has(k)) continue;
      keys.add(k);
      items.push(
        `${this.ws()}${this.writeString(k)}${this.ws()}:${this.ws()}${this.value(depth - 1)}${this.ws()}`,
      );
    }
    return `{${items.join(",") || this.ws()}}`;
  }

  /** A deeply nested chain of arrays and objects around a random leaf. */
  deep(): string {
    const d = this.int(50, 400);
    let open = "";
    let close = "";
    for (let i = 0; i < d; i++) {
      if (this.chance(0.5)) {
        open += "[";
        close = `]${close}`;
      } else {
        const k = this.writeString(this.string(3));
        open += `{${k}:`;
        close = `}${close}`;
      }
    }
    return open + this.value(2) + close;
  }
}

function generate(seed: number, count: number): string[] {
  const g = new Gen(seed);
  const docs: string[] = [];
  for (let i = 0; i < count; i++) {
    const doc = i % 25 === 0 ? g.deep() : g.value(g.int(0, 6));
    docs.push(g.ws() + doc + g.ws());
  }
  return docs;
}

const PY = String.raw`
import sys, json
sys.setrecursionlimit(100000)
out = []
for line in sys.stdin.buffer.read().split(b"\n"):
    if not line:
        continue
    text = json.loads(line.decode("utf-8"))
    value = json.loads(text)
    out.append(json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8").hex())
sys.stdout.write("\n".join(out))
`;
import { rng } from "./rng.js";

describe("Python cross-check of canonical JSON (SPEC 2)", () => {
  it.skipIf(!hasPython)(
    `${DOCS} random documents serialize byte-identically to python3 json.dumps (seed ${SEED})`,
    { timeout: 120_000 },
    () => {
      const docs = generate(SEED, DOCS);
      const input = docs.map((d) => JSON.stringify(d)).join("\n") + "\n";
      if (process.env.EVIDENCE_CROSSCHECK_DUMP) writeFileSync(process.env.EVIDENCE_CROSSCHECK_DUMP, input);
      const py = spawnSync("python3", ["-c", PY], { input, maxBuffer: 1 << 30, encoding: "utf8" });
      expect(py.status, py.stderr).toBe(0);
      const expected = py.stdout.split("\n");
      expect(expected).toHaveLength(docs.length);
      const mismatches: string[] = [];
      docs.forEach((doc, i) => {
        const ours = Buffer.from(canonicalJson(parseJson(doc))).toString("hex");
        if (ours !== expected[i] && mismatches.length < 5) {
          mismatches.push(
            `doc ${i}: ${doc.slice(0, 200)}\n ours:   ${Buffer.from(ours, "hex").toString().slice(0, 200)}\n python: ${Buffer.from(
              expected[i] ?? "",
              "hex",
            )
              .toString()
              .slice(0, 200)}`,
          );
        }
      });
      expect(mismatches).toEqual([]);
    },
  );

  it("the generator covers the hard cases it claims to", () => {
    const docs = generate(SEED, DOCS).join("\n");
    expect(docs).toMatch(/\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F]/); // surrogate pair escapes
    expect(docs).toMatch(/[\u{f0000}-\u{ffffd}]/u); // astral private use, raw
    expect(docs).toMatch(/[\ue000-\uf8ff]/); // BMP private use, raw
    expect(docs).toMatch(/\u2028|\\u2028/); // line separator
    expect(docs).toMatch(/\\u00[01][0-9a-fA-F]/); // escaped control characters
    expect(docs).toMatch(/\d{40,}/); // big integers
    expect(docs).toMatch(/[eE]-3[0-4]\d/); // subnormal / underflow exponents
    expect(docs).toMatch(/[eE]\+?3[01]\d/); // huge exponents
    expect(docs).toMatch(/(\[|\{"[^"]*":){100}/); // deep nesting
  });
});
