/**
 * API keys (issue 15 item 2): random (32 bytes of `crypto.randomBytes`), shown once, stored only as a
 * SHA-256 hash (a key has 256 bits of entropy, so a fast hash is enough: there is nothing to brute force),
 * listed and revoked by prefix.
 *
 * Format: `bbk_<prefix>_<secret>`, where `<prefix>` is 12 lowercase hex characters (its own random id,
 * the primary key of the stored key) and `<secret>` 43 base64url characters. The byte-static
 * `run-benchmark.sh` (packages/server/assets/scripts) checks the same form in sh (`is_key`: it cannot
 * import this), before a key goes into curl's config; the server's script test holds the two equal.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A newly made key: the text (shown once, `bbk_<12 hex>_<43 base64url>`), its listed prefix and its SHA-256 (hex). */
export interface MintedKey {
  api_key: string;
  key_prefix: string;
  key_hash: string;
}

const KEY_RE = /^bbk_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

/** SHA-256 of a key's text, lowercase hex. */
export function hashKey(apiKey: string): string {
  return createHash("sha256").update(apiKey, "utf8").digest("hex");
}

/** Makes a new random key (`bbk_<12 hex>_<43 base64url>`, 6 + 32 random bytes). */
export function mintKey(): MintedKey {
  const prefix = randomBytes(6).toString("hex");
  const apiKey = `bbk_${prefix}_${randomBytes(32).toString("base64url")}`;
  return { api_key: apiKey, key_prefix: `bbk_${prefix}`, key_hash: hashKey(apiKey) };
}

/** The stored prefix (`bbk_<12 hex>`) of a well-formed key, or null when the text is not a key. */
export function keyPrefixOf(apiKey: string): string | null {
  const m = KEY_RE.exec(apiKey);
  return m ? `bbk_${m[1]}` : null;
}

const PREFIX_RE = /^bbk_[0-9a-f]{12}$/;

/**
 * The key prefix a caller names a key by (`account revoke`, `DELETE /accounts/me/keys/{prefix}`): a
 * prefix as listed (`bbk_<12 hex>`), or a whole key, taken as its prefix (probe19 B-F6: a whole key was
 * refused as an unknown prefix, its secret echoed in the refusal); null for any other text, which must
 * not be echoed (it may be a key mistyped).
 */
export function namedKeyPrefix(text: string): string | null {
  return PREFIX_RE.test(text) ? text : keyPrefixOf(text);
}

/**
 * A key's prefix and whatever of its secret's alphabet follows, anywhere in a longer text: the secret may be
 * whole, cut short (an echo cut to 64 characters) or run on into other characters of its alphabet (probe37
 * V-F4: `<key>x`, `<key>-x`, a key pasted twice came back whole).
 */
const KEY_IN_TEXT_RE = /bbk_([0-9a-f]{12})_[A-Za-z0-9_-]+/g;

/**
 * `text` with every key in it (`bbk_<12 hex>_` and any secret characters after it, whole or cut) cut to
 * its listed prefix and `_...` (probe37 A-N5: a key pasted where a slug or id goes was echoed whole in the
 * refusal, which client logs, CI output and support tickets keep). What is not a key is left as it is.
 */
export function redactKeys(text: string): string {
  return text.includes("bbk_")
    ? text.replace(KEY_IN_TEXT_RE, (_k, prefix: string) => `bbk_${prefix}_...`)
    : text;
}

/** Constant-time comparison of two lowercase hex hashes. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}
