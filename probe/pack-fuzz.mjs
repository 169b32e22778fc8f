// Probe: odd values in a well-formed pack must be bad input (exit 2: VerifierInputError) or facts, never an
// internal error (exit 4). Replaces each field of spec/vectors/packs/small.json (first element of each array),
// one at a time, with odd values and runs verifyPack in-process (what `bench-bounty verify FILE` runs).
// Usage: node probe/pack-fuzz.mjs [pack.json]     (prints every case that would exit 4)
import { readFileSync } from "node:fs";
import { join } from "node:path";
const root = new URL("..", import.meta.url).pathname;
const v = await import(join(root, "packages/verifier/dist/index.js"));
const file = process.argv[2] ?? join(root, "spec/vectors/packs/small.json");
const pack = JSON.parse(readFileSync(file, "utf8"));
const ODD = [
  null, true, 0, -1, 1.5, 1e308, -0, 1e21, "", " ", "0x", "-1", "1e9", "NaN", "Infinity",
  "0".repeat(200), "9".repeat(79), "9".repeat(78), "1/0", "0/0", "-1/2", "1/-2", "\u0000", "１", "٣",
  [], {}, [null], [[]], { "": 1 }, "0x" + "g".repeat(64), "0x" + "f".repeat(63), "0X" + "A".repeat(64),
  "2026-02-30T00:00:00.000Z", "2026-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "+1", "01", "1.", ".5",
  "1e2", "0.00001", "-0", "-0.0000", 2 ** 53, 2 ** 53 - 1, "115792089237316195423570985008687907853269984665640564039457584007913129639936",
];
const paths = [];
(function walk(x, p) {
  paths.push(p);
  if (x && typeof x === "object") for (const k of Object.keys(x)) { walk(x[k], [...p, k]); if (Array.isArray(x)) break; }
})(pack, []);
let n = 0; const codes = {}; const bad = [];
for (const p of paths) {
  if (p.length === 0) continue;
  for (const odd of [...ODD, "DELETE"]) {
    const c = structuredClone(pack);
    let o = c; for (const k of p.slice(0, -1)) o = o[k];
    if (odd === "DELETE") { if (Array.isArray(o)) o.splice(Number(p.at(-1)), 1); else delete o[p.at(-1)]; }
    else o[p.at(-1)] = odd;
    const bytes = new TextEncoder().encode(JSON.stringify(c));
    let code;
    try {
      const rep = await v.verifyPack({ source: bytes, policy: "offline" });
      code = "report";
    } catch (e) {
      if (v.isVerifierInputError(e)) code = 2; else if (v.isVerifierNetworkError(e)) code = 3;
      else { code = 4; bad.push(`${p.join(".")} = ${JSON.stringify(odd)?.slice(0, 40)} -> ${e?.name}: ${String(e?.message).slice(0, 200)}`); }
    }
    n++; codes[code] = (codes[code] ?? 0) + 1;
  }
}
console.log(`cases: ${n}, outcomes: ${JSON.stringify(codes)}`);
for (const b of bad) console.log(b);
