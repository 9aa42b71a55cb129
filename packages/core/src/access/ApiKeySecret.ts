import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** Recognisable in logs, configs and secret scanners. */
export const API_KEY_PREFIX = 'pst_';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_CHARS = 30; // 30 * log2(62) = 178.6 random bits
const CHECKSUM_CHARS = 6; // 62^6 > 2^32: any CRC-32 fits
const SECRET_LENGTH = API_KEY_PREFIX.length + RANDOM_CHARS + CHECKSUM_CHARS;
const SECRET_SHAPE = /^pst_[0-9A-Za-z]{36}$/;
/** Secrets issued before the checksummed format: 256 random bits in base64url. They keep working. */
const LEGACY_SECRET_SHAPE = /^pst_[A-Za-z0-9_-]{43}$/;
/** The largest multiple of 62 that fits a byte: bytes at or above it are drawn again, so every character is equally likely. */
const UNBIASED_BYTE_LIMIT = 62 * 4;

/** The CRC-32 (ISO-HDLC, as zlib's `crc32`) of `body`, in base62 (`0-9A-Za-z`), left-padded with `0` to 6 characters. */
export function apiKeyChecksum(body: string): string {
  let value = crc32(body);
  let digits = '';
  for (let i = 0; i < CHECKSUM_CHARS; i++) {
    digits = BASE62[value % 62]! + digits;
    value = Math.floor(value / 62);
  }
  return digits;
}

function randomBase62(length: number): string {
  let chars = '';
  while (chars.length < length) {
    for (const byte of randomBytes(length)) {
      if (byte < UNBIASED_BYTE_LIMIT && chars.length < length) chars += BASE62[byte % 62];
    }
  }
  return chars;
}

/** `pst_`, 30 random base62 characters, then the 6-character checksum of those 34 characters. */
export function generateApiKeySecret(): string {
  const body = API_KEY_PREFIX + randomBase62(RANDOM_CHARS);
  return body + apiKeyChecksum(body);
}

/**
 * Keys are high-entropy, so a fast unsalted SHA-256 is enough: it is only the lookup index of the secret. Once per
 * request, hence the one-shot `hash` (no Hash object).
 */
export function hashApiKeySecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** The number a base62 checksum writes (the shape is already checked: every character is a base62 digit). */
function checksumValue(value: string): number {
  let number = 0;
  for (let i = SECRET_LENGTH - CHECKSUM_CHARS; i < SECRET_LENGTH; i++) number = number * 62 + BASE62.indexOf(value[i]!);
  return number;
}

/**
 * True for a secret that could have been issued: the checksummed format with a matching checksum, or the legacy
 * format. Anything else is refused without a store lookup. Runs on every request: the checksum is compared as a
 * number, without building its text.
 */
export function isWellFormedApiKeySecret(value: string): boolean {
  if (value.length === SECRET_LENGTH) {
    return SECRET_SHAPE.test(value) && crc32(value.slice(0, SECRET_LENGTH - CHECKSUM_CHARS)) === checksumValue(value);
  }
  return LEGACY_SECRET_SHAPE.test(value);
}
