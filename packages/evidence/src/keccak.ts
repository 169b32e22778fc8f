/**
 * The Keccak-256 backend behind every hash of the protocol (`spec/SPEC.md` section 2: Ethereum
 * Keccak-256, padding byte `0x01`, not NIST SHA3-256).
 *
 * Two implementations give the same 32 bytes for the same input:
 * - `native`: the N-API binding of the `keccak` package (the Keccak team's C
 *   code), measured here ~25x faster than pure JS on a 32 MiB input and ~4-5x
 *   on 64-byte ones;
 * - `js`: `@noble/hashes` (pure JS), the fallback wherever the native binding
 *   cannot load (no prebuilt binary and no compiler, another runtime).
 *
 * The backend is chosen once, at the first hash: `native` when it loads and
 * passes a known-answer self-test, else `js`. The environment variable
 * `BENCH_BOUNTY_KECCAK` (`native`, `js` or `auto`) overrides the choice;
 * {@link setKeccakBackend} switches it at run time (tests, benchmarks).
 *
 * Speed: the `keccak` package's public API builds a Node stream per hash
 * (~5 µs), more than hashing 64 bytes costs. So the native path drives the
 * addon's sponge object (`initialize`, `absorb`, `squeeze`: the calls the
 * package's own API makes) directly, reusing one sponge: JS runs one hash at a
 * time, so no call interleaves. If that object is not where `keccak` 3.0.4
 * keeps it, or a self-test digest differs, the public API is used instead; if
 * that fails too, `js`.
 * @packageDocumentation
 */
import { createRequire } from "node:module";
import { keccak_256 as nobleKeccak256 } from "@noble/hashes/sha3";

/** Name of a Keccak-256 implementation: `native` (`keccak` N-API binding) or `js` (`@noble/hashes`). */
export type KeccakBackendName = "native" | "js";

/** Rate and capacity (bits) of Keccak-256 in the sponge's terms. */
const RATE_BITS = 1088;
const CAPACITY_BITS = 512;
const DIGEST_BYTES = 32;

type Hasher = (data: Uint8Array) => Uint8Array;

interface SpongeState {
  initialize(rate: number, capacity: number): void;
  absorb(data: Uint8Array): void;
  squeeze(length: number): Uint8Array;
}

interface StreamHash {
  update(data: Uint8Array): StreamHash;
  digest(): Uint8Array;
}

type CreateKeccak = (algorithm: string) => StreamHash;

const jsHasher: Hasher = (data) => nobleKeccak256(data);

/** Known answers: keccak256 of "" and "abc" (the rate boundaries are checked against `js` below). */
const SELF_TEST: readonly { input: Uint8Array; digest: string }[] = [
  { input: new Uint8Array(0), digest: "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470" },
  {
    input: new Uint8Array([0x61, 0x62, 0x63]),
    digest: "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45",
  },
];

function hexOf(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}

function passesSelfTest(h: Hasher): boolean {
  for (const { input, digest } of SELF_TEST) if (hexOf(h(input)) !== digest) return false;
  // rate boundaries and a multi-block input, against the JS implementation
  for (const len of [1, 32, 64, 135, 136, 137, 271, 272, 273, 1000, 70_000]) {
    const input = new Uint8Array(len);
    for (let i = 0; i < len; i++) input[i] = (i * 131 + len) & 0xff;
    const out = h(input);
    if (!(out instanceof Uint8Array) || out.length !== DIGEST_BYTES) return false;
    if (hexOf(out) !== hexOf(jsHasher(input))) return false;
  }
  // the shared sponge must not carry state from one hash to the next
  return hexOf(h(SELF_TEST[0]!.input)) === SELF_TEST[0]!.digest;
}

function asView(out: Uint8Array): Uint8Array {
  // a plain Uint8Array (not a Buffer), so callers see the same type from either backend
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message.split("\n")[0]! : String(e);
}

/** Load the native hasher, or return why it is unavailable. */
function loadNative(): { hasher: Hasher } | { reason: string } {
  let createKeccak: CreateKeccak;
  try {
    // `keccak/bindings.js` throws when the addon cannot load (the package's
    // main entry would silently fall back to its own, slower, JS code)
    createKeccak = createRequire(import.meta.url)("keccak/bindings.js") as CreateKeccak;
    if (typeof createKeccak !== "function") return { reason: "keccak/bindings.js is not a function" };
  } catch (e) {
    return { reason: `the keccak native binding did not load: ${errorText(e)}` };
  }
  try {
    const probe = createKeccak("keccak256") as unknown as { _state?: { constructor?: unknown } };
    const State = probe._state?.constructor;
    if (typeof State === "function") {
      const sponge = new (State as new () => SpongeState)();
      const direct: Hasher = (data) => {
        sponge.initialize(RATE_BITS, CAPACITY_BITS);
        sponge.absorb(data);
        return asView(sponge.squeeze(DIGEST_BYTES));
      };
      if (passesSelfTest(direct)) return { hasher: direct };
    }
  } catch {
    // A probe whose failure is the answer: whatever the addon's internals throw (they are not a public
    // API), the direct path is unusable and the public API below is tried (and self-tested) instead.
  }
  try {
    const viaStream: Hasher = (data) =>
      asView(
        createKeccak("keccak256")
          .update(Buffer.from(data.buffer, data.byteOffset, data.byteLength))
          .digest(),
      );
    if (passesSelfTest(viaStream)) return { hasher: viaStream };
    return { reason: "the keccak native binding failed the known-answer self-test" };
  } catch (e) {
    return { reason: `the keccak native binding failed: ${errorText(e)}` };
  }
}

let nativeLoad: { hasher: Hasher } | { reason: string } | undefined;
let active: { name: KeccakBackendName; hasher: Hasher } | undefined;

function native(): { hasher: Hasher } | { reason: string } {
  nativeLoad ??= loadNative();
  return nativeLoad;
}

function choose(requested: string): { name: KeccakBackendName; hasher: Hasher } {
  if (requested === "js") return { name: "js", hasher: jsHasher };
  if (requested === "native") {
    const n = native();
    if ("reason" in n) throw new Error(`Keccak-256 backend "native" requested but unavailable: ${n.reason}`);
    return { name: "native", hasher: n.hasher };
  }
  if (requested === "auto" || requested === "") {
    const n = native();
    return "reason" in n ? { name: "js", hasher: jsHasher } : { name: "native", hasher: n.hasher };
  }
  throw new Error(`BENCH_BOUNTY_KECCAK must be "native", "js" or "auto", got ${JSON.stringify(requested)}`);
}

function current(): { name: KeccakBackendName; hasher: Hasher } {
  active ??= choose(process.env.BENCH_BOUNTY_KECCAK ?? "auto");
  return active;
}

/**
 * Keccak-256 of raw bytes with the active backend (32 bytes out, a plain `Uint8Array`).
 * @throws Error only when `BENCH_BOUNTY_KECCAK` is invalid, or `native` and the binding cannot load
 */
export function keccak256Bytes(data: Uint8Array): Uint8Array {
  if (gate === null || active?.name === "js") return (active ?? current()).hasher(data);
  // the native addon, or its loading and self-test: inside the gate
  gate.enter();
  try {
    return current().hasher(data);
  } finally {
    gate.leave();
  }
}

/**
 * Marks the spans of native code ({@link setNativeKeccakGate}): `enter` before the addon is called (it
 * may throw, to refuse the call: the hash then throws that), `leave` after it returns or throws.
 */
export interface NativeKeccakGate {
  enter(): void;
  leave(): void;
}

let gate: NativeKeccakGate | null = null;

/**
 * Wraps every call into the native addon made by {@link keccak256Bytes} (its loading and self-test
 * included) in `g` (null: none), for a worker thread that may be terminated: a thread terminated while
 * inside the addon aborts the whole process (`FATAL ERROR: Error::Error napi_create_reference`, probe31
 * A-F6), so its owner terminates it only outside these spans (the server's dataset worker). The `js`
 * backend is never gated (plain JS may be terminated anywhere).
 */
export function setNativeKeccakGate(g: NativeKeccakGate | null): void {
  gate = g;
}

/**
 * The backend in use (choosing it now if no hash was computed yet).
 * @throws Error as {@link keccak256Bytes}
 */
export function keccakBackend(): KeccakBackendName {
  return current().name;
}

/**
 * Why the native backend is unavailable, or `null` when it loads and passes its self-test.
 */
export function nativeKeccakUnavailableReason(): string | null {
  const n = native();
  return "reason" in n ? n.reason : null;
}

/**
 * Switch the Keccak-256 backend for the rest of the process (tests, benchmarks);
 * `auto` is native when available, else js. Digests are the same either way.
 * @returns the backend now in use
 * @throws Error for `native` when the binding cannot load (the active backend is unchanged)
 */
export function setKeccakBackend(name: KeccakBackendName | "auto"): KeccakBackendName {
  active = choose(name);
  return active.name;
}

/** Scratch for the UTF-8 bytes of short hashed strings (prompts, leaves, answers). */
const SCRATCH = Buffer.alloc(64 * 1024);
const utf8Encoder = new TextEncoder();

/**
 * Keccak-256 of `utf8(text) || suffix`, encoding short inputs into a reused
 * scratch buffer instead of allocating per hash (the hashing is synchronous,
 * so the scratch is never shared by two hashes). Same digest as
 * `keccak256Bytes(concat(utf8(text), suffix))`; lone surrogates encode as
 * U+FFFD, as `TextEncoder.encode` does.
 * @internal used by the commitment, receipt and hash helpers
 */
export function keccak256Utf8(text: string, suffix?: Uint8Array): Uint8Array {
  const extra = suffix === undefined ? 0 : suffix.length;
  if (text.length * 3 + extra <= SCRATCH.length) {
    // Buffer#write encodes like TextEncoder#encodeInto (an unpaired surrogate becomes U+FFFD), ~2x faster per call
    const written = SCRATCH.write(text, 0);
    if (suffix !== undefined) SCRATCH.set(suffix, written);
    return keccak256Bytes(SCRATCH.subarray(0, written + extra));
  }
  const a = utf8Encoder.encode(text);
  if (suffix === undefined) return keccak256Bytes(a);
  const buf = new Uint8Array(a.length + extra);
  buf.set(a, 0);
  buf.set(suffix, a.length);
  return keccak256Bytes(buf);
}
