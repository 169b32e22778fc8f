import { spawnSync } from "node:child_process";
import { writeFileSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { keccak_256 } from "@noble/hashes/sha3";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import {
  commitTestSet,
  keccak256,
  keccak256Hex,
  keccakBackend,
  nativeKeccakUnavailableReason,
  setKeccakBackend,
  setNativeKeccakGate,
} from "../src/index.js";
import { vector } from "./vectors.js";

const requested = process.env.BENCH_BOUNTY_KECCAK ?? "auto";
const nativeReason = nativeKeccakUnavailableReason();
if (nativeReason !== null)
  console.log(`*** SKIPPED *** native Keccak-256 comparisons: ${nativeReason} (the js backend is in use)`);

const hexOf = (b: Uint8Array): string => Buffer.from(b).toString("hex");

describe("Keccak-256 backend", () => {
  const initial = keccakBackend();
  afterAll(() => {
    setKeccakBackend(initial);
  });

  it("uses the backend the environment asks for", () => {
    if (requested === "js") expect(initial).toBe("js");
    else expect(initial).toBe(nativeReason === null ? "native" : "js");
  });

  it("Ethereum Keccak-256 known answers (not NIST SHA3-256)", () => {
    expect(keccak256Hex("")).toBe("0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
    expect(keccak256Hex("abc")).toBe("0x4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45");
    // SHA3-256("abc") would be 3a985da7...; the padding byte differs
    expect(keccak256Hex("abc")).not.toBe(
      "0x3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532",
    );
  });

  it("returns a plain 32-byte Uint8Array, not a Buffer", () => {
    const d = keccak256(new Uint8Array([1, 2, 3]));
    expect(d.constructor).toBe(Uint8Array);
    expect(d.length).toBe(32);
  });

  it.skipIf(nativeReason !== null)(
    "native and js agree on random inputs (0..700 bytes) and subarrays",
    () => {
      fc.assert(
        fc.property(fc.uint8Array({ minLength: 0, maxLength: 700 }), fc.nat(40), (bytes, cut) => {
          const view = bytes.subarray(Math.min(cut, bytes.length));
          setKeccakBackend("native");
          const n = [hexOf(keccak256(bytes)), hexOf(keccak256(view))];
          setKeccakBackend("js");
          const j = [hexOf(keccak256(bytes)), hexOf(keccak256(view))];
          expect(n).toEqual(j);
          expect(j[0]).toBe(hexOf(keccak_256(bytes)));
        }),
        { numRuns: 2000, seed: 5 },
      );
    },
  );

  it.skipIf(nativeReason !== null)("native and js agree on a 5 MiB input and on every rate boundary", () => {
    const big = new Uint8Array(5 * 1024 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7919) & 0xff;
    for (const len of [135, 136, 137, 272, big.length]) {
      const input = big.subarray(0, len);
      setKeccakBackend("native");
      const n = keccak256Hex(input);
      setKeccakBackend("js");
      expect(keccak256Hex(input)).toBe(n);
    }
  });

  it.skipIf(nativeReason !== null)(
    "a native gate marks each native hash and may refuse it; the js backend is never gated (probe31 A-F6)",
    () => {
      const marks: string[] = [];
      let refuse = false;
      setNativeKeccakGate({
        enter() {
          marks.push("enter");
          if (refuse) throw new Error("stopping");
        },
        leave() {
          marks.push("leave");
        },
      });
      try {
        setKeccakBackend("native");
        expect(hexOf(keccak256(new Uint8Array(0)))).toBe(
          "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
        );
        expect(marks).toEqual(["enter", "leave"]);
        refuse = true;
        expect(() => keccak256(new Uint8Array([1]))).toThrow("stopping");
        expect(marks).toEqual(["enter", "leave", "enter"]);
        setKeccakBackend("js");
        marks.length = 0;
        keccak256(new Uint8Array([1]));
        expect(marks).toEqual([]);
      } finally {
        setNativeKeccakGate(null);
        setKeccakBackend(initial);
      }
    },
  );

  it("rejects an unknown backend name and keeps the active one", () => {
    const before = keccakBackend();
    expect(() => setKeccakBackend("sha3" as never)).toThrow(/"native", "js" or "auto"/);
    expect(keccakBackend()).toBe(before);
  });

  it("falls back to js when the native binding cannot load (auto), and says why", () => {
    // A child process in which require("keccak/bindings.js") throws, as on a machine
    // without a prebuilt binary or a compiler.
    const dir = mkdtempSync(path.join(os.tmpdir(), "evidence-keccak-"));
    const blocker = path.join(dir, "block-native.cjs");
    writeFileSync(
      blocker,
      `const Module = require("node:module");
const load = Module._load;
Module._load = function (request, ...rest) {
  if (/keccak[\\\\/]bindings/.test(request)) throw new Error("no native keccak here (test)");
  return load.call(this, request, ...rest);
};`,
    );
    const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "src", "index.ts");
    const rows = vector("commitment.json").test_sets[0];
    const script = `
      const E = await import(${JSON.stringify(src)});
      const rows = JSON.parse(process.env.ROWS);
      let forced = "";
      try { E.setKeccakBackend("native"); } catch (e) { forced = e.message; }
      console.log(JSON.stringify({ backend: E.keccakBackend(), reason: E.nativeKeccakUnavailableReason(), forced, root: E.commitTestSet(rows).root }));`;
    const r = spawnSync(
      process.execPath,
      ["-r", blocker, "--import", "tsx", "--input-type=module", "-e", script],
      {
        env: { ...process.env, BENCH_BOUNTY_KECCAK: "auto", ROWS: JSON.stringify(rows.rows) },
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    expect(r.stderr).toBe("");
    const out = JSON.parse(r.stdout.trim().split("\n").pop() as string);
    expect(out.backend).toBe("js");
    expect(out.reason).toMatch(/did not load: no native keccak here \(test\)/);
    expect(out.forced).toMatch(/"native" requested but unavailable/);
    expect(out.root).toBe(rows.root);
    expect(commitTestSet(rows.rows).root).toBe(rows.root);
  }, 60_000);
});
