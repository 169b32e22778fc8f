/**
 * `spec/SPEC.md` section 2: Ethereum Keccak-256 (not NIST SHA3-256) and hex helpers.
 * @packageDocumentation
 */
import { Buffer } from "node:buffer";
import { hexToBytes as nobleHexToBytes } from "@noble/hashes/utils";
import { EvidenceError } from "./errors.js";
import { withCanonicalJson } from "./json/serializer.js";
import { keccak256Bytes, keccak256Utf8 } from "./keccak.js";

/** A `0x`-prefixed lowercase hex string (a 32-byte digest unless noted). */
export type Hex = `0x${string}`;

/**
 * Keccak-256 of bytes (a string is hashed as its UTF-8 bytes), with the active backend
 * (native `keccak` binding, else `@noble/hashes`; see `keccak.ts`).
 */
export function keccak256(data: Uint8Array | string): Uint8Array {
  return typeof data === "string" ? keccak256Utf8(data) : keccak256Bytes(data);
}

/** Keccak-256 as `0x` + 64 lowercase hex (a string is hashed as its UTF-8 bytes). */
export function keccak256Hex(data: Uint8Array | string): Hex {
  return `0x${toBareHex(keccak256(data))}`;
}

/** `0x` + hex(keccak256(canonical_json(value))): the hash of a JSON block (receipts, rank_derivation, packs). */
export function canonicalHash(value: unknown): Hex {
  return withCanonicalJson(value, keccak256Hex);
}

/** Lowercase hex of bytes with a `0x` prefix. */
export function toHex(bytes: Uint8Array): Hex {
  return `0x${toBareHex(bytes)}`;
}

/**
 * Lowercase hex of bytes without prefix (Node's native hex encoder: the same string as
 * `@noble/hashes`' `bytesToHex`, without a string concatenation per byte).
 */
export function toBareHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

const HEX_RE = /^(0x)?([0-9a-fA-F]{2})*$/;

/**
 * Bytes of a hex string (`0x` optional, even length, either case).
 * @throws EvidenceError `schema` for anything else
 */
export function hexToBytes(hex: string, path = "$"): Uint8Array {
  if (!HEX_RE.test(hex))
    throw new EvidenceError("schema", path, `not a hex string: ${JSON.stringify(hex.slice(0, 80))}`);
  return nobleHexToBytes(hex.startsWith("0x") ? hex.slice(2) : hex);
}
