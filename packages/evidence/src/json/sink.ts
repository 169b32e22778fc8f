/**
 * Where the canonical serializer writes: a string (`canonicalJsonString`) or UTF-8
 * bytes (`canonicalJson`, the hashes). The serializer hands over tokens already
 * rendered and checked (a string with nothing to escape and no unpaired surrogate,
 * a number's digits, a pre-rendered `"key":`), so a sink only appends.
 * @packageDocumentation
 */
import { Buffer } from "node:buffer";

/** A pre-rendered token: its text and its UTF-8 bytes (object keys, rendered once per shape). */
export interface Token {
  text: string;
  bytes: Uint8Array;
}

/** What the serializer writes to. */
export interface Sink {
  /** One ASCII character, by code. */
  byte(c: number): void;
  /** ASCII text (digits, `true`, a float repr). */
  ascii(s: string): void;
  /** Any well-formed text, written as UTF-8 (for bytes). */
  text(s: string): void;
  /** A pre-rendered token. */
  token(t: Token): void;
  /** A non-negative safe integer's decimal digits. */
  uint(v: number): void;
}

/** The one-character strings of the ASCII codes. */
const ASCII_CHARS = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));

/** Tokens concatenated into one string (V8 ropes beat collecting parts and joining them). */
export class StringSink implements Sink {
  out = "";
  byte(c: number): void {
    this.out += ASCII_CHARS[c] as string;
  }
  ascii(s: string): void {
    this.out += s;
  }
  text(s: string): void {
    this.out += s;
  }
  token(t: Token): void {
    this.out += t.text;
  }
  uint(v: number): void {
    this.out += String(v);
  }
}

/** Largest buffer kept for the next serialization (bytes); a larger one is left to the GC. */
const MAX_RETAINED = 32 << 20;
/** The buffer of the last finished {@link ByteSink}, reused by the next one (serializing is synchronous). */
let spare: Buffer | null = null;

/**
 * Tokens written as UTF-8 straight into a growing byte buffer: no rope of millions of
 * pieces, no second pass to encode. The buffer is taken from the previous sink when
 * that one was released (so a run of hashes does not allocate and grow a buffer each
 * time); a sink created while another is still writing (a getter that serializes)
 * simply gets its own.
 */
export class ByteSink implements Sink {
  buf: Buffer;
  pos = 0;
  constructor() {
    if (spare !== null) {
      this.buf = spare;
      spare = null;
    } else {
      this.buf = Buffer.allocUnsafeSlow(1 << 16);
    }
  }

  /** Make room for `extra` more bytes. */
  private ensure(extra: number): void {
    if (this.pos + extra > this.buf.length) this.grow(extra);
  }
  private grow(extra: number): void {
    let size = this.buf.length * 2;
    while (size < this.pos + extra) size *= 2;
    const next = Buffer.allocUnsafeSlow(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  byte(c: number): void {
    if (this.pos === this.buf.length) this.grow(1);
    this.buf[this.pos++] = c;
  }
  ascii(s: string): void {
    const n = s.length;
    this.ensure(n);
    const buf = this.buf;
    let pos = this.pos;
    for (let i = 0; i < n; i++) buf[pos++] = s.charCodeAt(i);
    this.pos = pos;
  }
  text(s: string): void {
    // a UTF-16 code unit is at most 3 UTF-8 bytes (a surrogate pair, 2 units, is 4)
    this.ensure(s.length * 3);
    this.pos += this.buf.write(s, this.pos);
  }
  /**
   * Write `s` when it is 64 lowercase hex characters (a salt), checking each character as it
   * is copied; false (and nothing written) for anything else.
   */
  hex64(s: string): boolean {
    if (s.length !== 64) return false;
    this.ensure(64);
    const buf = this.buf;
    const at = this.pos;
    for (let i = 0; i < 64; i++) {
      const c = s.charCodeAt(i);
      if ((c < 0x30 || c > 0x39) && (c < 0x61 || c > 0x66)) return false;
      buf[at + i] = c;
    }
    this.pos = at + 64;
    return true;
  }
  token(t: Token): void {
    const b = t.bytes;
    const n = b.length;
    this.ensure(n);
    const buf = this.buf;
    let pos = this.pos;
    for (let i = 0; i < n; i++) buf[pos++] = b[i] as number;
    this.pos = pos;
  }
  uint(v: number): void {
    if (v < 10) {
      this.byte(0x30 + v);
      return;
    }
    if (v > 0x7fffffff) {
      this.ascii(String(v));
      return;
    }
    // a small integer (ordinals, counts): digits written from the right with int32 arithmetic
    const digits =
      v < 100
        ? 2
        : v < 1000
          ? 3
          : v < 10000
            ? 4
            : v < 100000
              ? 5
              : v < 1000000
                ? 6
                : v < 1e7
                  ? 7
                  : v < 1e8
                    ? 8
                    : v < 1e9
                      ? 9
                      : 10;
    this.ensure(digits);
    const buf = this.buf;
    let at = this.pos + digits;
    this.pos = at;
    let t = v | 0;
    while (t >= 10) {
      const q = (t / 10) | 0;
      buf[--at] = 0x30 + t - q * 10;
      t = q;
    }
    buf[at - 1] = 0x30 + t;
  }

  /** The bytes written so far (a view into the buffer: valid until {@link release}). */
  view(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
  /** The bytes written, copied into an array of exactly that length. */
  copy(): Uint8Array {
    return new Uint8Array(this.buf.subarray(0, this.pos));
  }
  /** Done with this sink: its buffer may serve the next one (any {@link view} is then invalid). */
  release(): void {
    if (this.buf.length <= MAX_RETAINED) spare = this.buf;
  }
}
