// Unit-testing a domain rule with @petstore/core/testing: in-memory ports and a clock you move by hand. No I/O,
// no timers: each test runs in microseconds.
import { describe, expect, it } from '@jest/globals';
import { createPetStore } from '@petstore/core';
import { inMemoryPorts } from '@petstore/core/testing';

describe('a Free key', () => {
  it('gets 60 requests a minute, then 429 with Retry-After until the next minute', async () => {
    const ports = inMemoryPorts('2026-06-01T12:00:45Z');
    const store = createPetStore(ports);
    const { secret } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    const admit = () => store.admitRequest.execute({ secret, clientAddress: '198.51.100.1', scope: 'pets:read' });

    for (let i = 0; i < 60; i++) await admit();
    await expect(admit()).rejects.toMatchObject({ code: 'rate_limited', retryAfter: 15 });

    ports.clock.advance(15_000);
    expect((await admit()).rateLimit).toMatchObject({ limit: 60, remaining: 59 });
  });

  it('is banned after 10 more requests, a second apart, before Retry-After has passed; never for one burst', async () => {
    const ports = inMemoryPorts('2026-06-01T12:00:45Z');
    const store = createPetStore(ports, { ban: { strikes: 10, durationSeconds: 900, strikeIntervalSeconds: 1 } });
    const { secret } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    const admit = () => store.admitRequest.execute({ secret, clientAddress: '198.51.100.1', scope: 'pets:read' });

    for (let i = 0; i < 60; i++) await admit();
    // Requests already in flight when the first 429 went out: rejected, not held against the key.
    for (let i = 0; i < 50; i++) await expect(admit()).rejects.toMatchObject({ code: 'rate_limited' });
    for (let i = 0; i < 9; i++) {
      ports.clock.advance(1_000);
      await expect(admit()).rejects.toMatchObject({ code: 'rate_limited' });
    }
    ports.clock.advance(1_000);
    await expect(admit()).rejects.toMatchObject({ code: 'key_banned', retryAfter: 900 });
  });
});
