import { hash, randomBytes } from 'node:crypto';

/** Recognisable in logs, configs and secret scanners. */
export const API_KEY_PREFIX = 'pst_';
const SECRET_BYTES = 32; // 256 bits of randomness
const SECRET_SHAPE = /^pst_[A-Za-z0-9_-]{43}$/;

export function generateApiKeySecret(): string {
  return API_KEY_PREFIX + randomBytes(SECRET_BYTES).toString('base64url');
}

export function generateApiKeyId(): string {
  return `key_${randomBytes(8).toString('hex')}`;
}

/**
 * Keys are high-entropy, so a fast unsalted SHA-256 is enough: it is only the lookup index of the secret. Once per
 * request, hence the one-shot `hash` (no Hash object).
 */
export function hashApiKeySecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

export function looksLikeApiKeySecret(value: string): boolean {
  return SECRET_SHAPE.test(value);
}
