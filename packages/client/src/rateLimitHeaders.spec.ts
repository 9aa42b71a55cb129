import { describe, expect, it } from '@jest/globals';
import { readRateLimit, readRetryAfterMs } from './rateLimitHeaders.js';

describe('reading the rate-limit headers', () => {
  const receivedAtMs = Date.parse('2026-06-01T12:00:10.500Z');

  it('reads the binding window and every window, timing the reset by the service’s clock, not the client’s', () => {
    // The service's clock is an hour ahead of the client's: the reset is still 50 s away.
    const headers = new Headers({
      Date: 'Mon, 01 Jun 2026 13:00:10 GMT',
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '7',
      'X-RateLimit-Reset': String(Date.parse('2026-06-01T13:01:00Z') / 1000),
      'RateLimit-Policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
      RateLimit: '"minute";r=7;t=50, "day";r=900;t=39590',
    });
    const read = readRateLimit(headers, receivedAtMs)!;

    expect(read.binding).toEqual({ remaining: 7, reset: Date.parse('2026-06-01T13:01:00Z') / 1000, resetsAtMs: receivedAtMs + 50_000 });
    expect(read.state.windows).toEqual([
      { name: 'minute', limit: 60, windowSeconds: 60, remaining: 7, reset: Date.parse('2026-06-01T13:01:00Z') / 1000 },
      { name: 'day', limit: 1000, windowSeconds: 86400, remaining: 900, reset: Date.parse('2026-06-02T00:00:00Z') / 1000 },
    ]);
  });

  it('is null without the headers, as on a 503', () => {
    expect(readRateLimit(new Headers({ 'Retry-After': '5' }), receivedAtMs)).toBeNull();
    expect(
      readRateLimit(new Headers({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': 'x', 'X-RateLimit-Reset': '1' }), receivedAtMs),
    ).toBeNull();
  });

  it('reads Retry-After in seconds or as an HTTP date', () => {
    expect(readRetryAfterMs(new Headers({ 'Retry-After': '17' }), receivedAtMs)).toBe(17_000);
    expect(
      readRetryAfterMs(new Headers({ 'Retry-After': 'Mon, 01 Jun 2026 12:00:40 GMT', Date: 'Mon, 01 Jun 2026 12:00:10 GMT' }), receivedAtMs),
    ).toBe(30_000);
    expect(readRetryAfterMs(new Headers({}), receivedAtMs)).toBeUndefined();
  });
});
