import { describe, expect, it } from '@jest/globals';
import { apiKeyChecksum, generateApiKeySecret, isWellFormedApiKeySecret } from './ApiKeySecret.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('API key secrets', () => {
  it('are pst_, 30 random base62 characters and the 6-character checksum of what precedes it', () => {
    const secret = generateApiKeySecret();
    expect(secret).toMatch(/^pst_[0-9A-Za-z]{36}$/);
    expect(secret.slice(34)).toBe(apiKeyChecksum(secret.slice(0, 34)));
    expect(isWellFormedApiKeySecret(secret)).toBe(true);
    expect(new Set(Array.from({ length: 50 }, generateApiKeySecret)).size).toBe(50);
  });

  // The vectors of docs/domain-rules.md: a scanner's implementation must reproduce them.
  it.each([
    ['pst_000000000000000000000000000000', '1uhv1w'], // CRC-32 0x688d0f64
    ['pst_000000000000000000000000000001', '0ZoH8U'], // 0x1f8a3ff2: left-padded with 0
    ['pst_zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz', '4UrGjL'], // 0xf59a19f3
    ['pst_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1', '2q0W59'], // 0x9b046cbf
  ])('checksums %s as %s (CRC-32/ISO-HDLC in base62)', (body, checksum) => {
    expect(apiKeyChecksum(body)).toBe(checksum);
    expect(isWellFormedApiKeySecret(body + checksum)).toBe(true);
  });

  it('draws every base62 character, none favoured (rejection sampling, not a biased modulo)', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2_000; i++) for (const char of generateApiKeySecret().slice(4, 34)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual([...BASE62].sort());
    // 60,000 draws, 967.7 expected per character: a modulo bias (bytes 248-255 folded onto 0-7) would give the
    // first 8 characters about 1,093 each; the bounds sit more than 5 standard deviations from the fair mean.
    const [zeroToSeven, rest] = [[...BASE62.slice(0, 8)], [...BASE62.slice(8)]].map(
      (chars) => chars.reduce((sum, char) => sum + counts.get(char)!, 0) / chars.length,
    );
    expect(zeroToSeven).toBeLessThan(1_030);
    expect(Math.abs(zeroToSeven! - rest!)).toBeLessThan(60);
  });

  it('refuses a checksum that does not match, whichever character differs', () => {
    const secret = generateApiKeySecret();
    for (const position of [4, 20, 33, 34, 39]) {
      const changed = secret.slice(0, position) + (secret[position] === 'a' ? 'b' : 'a') + secret.slice(position + 1);
      expect(isWellFormedApiKeySecret(changed)).toBe(false);
    }
  });

  it('keeps accepting the legacy shape: pst_ and 43 base64url characters', () => {
    expect(isWellFormedApiKeySecret(`pst_${'a'.repeat(21)}-_${'Z'.repeat(20)}`)).toBe(true);
  });

  it.each([
    '',
    'pst_',
    'pst_000000000000000000000000000000', // the body without its checksum
    'pst_00000000000000000000000000000!1uhv1w',
    'PST_0000000000000000000000000000001uhv1w',
    `pst_${'a'.repeat(42)}`,
    `pst_${'a'.repeat(42)}!`,
    `pst_${'a'.repeat(44)}`,
    `sk_${'a'.repeat(43)}`,
    'pst_000000000000000000000000000000-uhv1w',
  ])('refuses the malformed secret %p', (value) => {
    expect(isWellFormedApiKeySecret(value)).toBe(false);
  });
});
