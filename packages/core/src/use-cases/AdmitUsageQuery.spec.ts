import { beforeEach, describe, expect, it } from '@jest/globals';
import { InMemoryRateLimitStore } from '../adapters/InMemoryRateLimitStore.js';
import { FakeClock } from '../testing/FakeClock.js';
import { InMemoryKeyStore } from '../testing/InMemoryKeyStore.js';
import { AdmitRequest } from './AdmitRequest.js';
import { AdmitUsageQuery } from './AdmitUsageQuery.js';
import { AuthenticateKey } from './AuthenticateKey.js';
import { EnforceRateLimit } from './EnforceRateLimit.js';
import { IssueApiKey } from './IssueApiKey.js';

describe('AdmitUsageQuery', () => {
  let keys: InMemoryKeyStore;
  let clock: FakeClock;
  let admitQuery: AdmitUsageQuery;
  let admitRequest: AdmitRequest;

  beforeEach(() => {
    keys = new InMemoryKeyStore();
    clock = new FakeClock('2026-06-01T12:00:00Z');
    const enforce = new EnforceRateLimit(new InMemoryRateLimitStore(), clock, { strikes: 1, durationSeconds: 600 });
    admitQuery = new AdmitUsageQuery(new AuthenticateKey(keys), enforce, 2, 3);
    admitRequest = new AdmitRequest(new AuthenticateKey(keys), enforce, 2);
  });

  it("spends none of the key's quota, and answers while the key is banned", async () => {
    const { key, secret } = await new IssueApiKey(keys, clock).execute({ plan: 'enterprise', perMinute: 1, perDay: 10 });
    expect(await admitQuery.execute({ secret, clientAddress: 'a' })).toMatchObject({ key, rateLimit: { limit: 3, remaining: 2 } });
    await admitRequest.execute({ secret, clientAddress: 'a' });
    await admitRequest.execute({ secret, clientAddress: 'a' }).catch(() => undefined);
    await expect(admitRequest.execute({ secret, clientAddress: 'a' })).rejects.toMatchObject({ code: 'key_banned' });
    expect(await admitQuery.execute({ secret, clientAddress: 'a' })).toMatchObject({ key, rateLimit: { remaining: 1 } });
  });

  it('bounds the queries of a key in a bucket of their own', async () => {
    const { secret } = await new IssueApiKey(keys, clock).execute({ plan: 'pro' });
    for (let i = 0; i < 3; i++) await admitQuery.execute({ secret, clientAddress: 'a' });
    await expect(admitQuery.execute({ secret, clientAddress: 'a' })).rejects.toMatchObject({ code: 'rate_limited', retryAfter: 60 });
    expect((await admitRequest.execute({ secret, clientAddress: 'a' })).rateLimit).toMatchObject({ limit: 300, remaining: 299 });
  });

  it('counts failed authentications against the address, like any request', async () => {
    await expect(admitQuery.execute({ secret: 'bad', clientAddress: 'b' })).rejects.toMatchObject({ code: 'unauthorized', rateLimit: { limit: 2, remaining: 1 } });
    await expect(admitRequest.execute({ secret: undefined, clientAddress: 'b' })).rejects.toMatchObject({ code: 'unauthorized', rateLimit: { remaining: 0 } });
    await expect(admitQuery.execute({ secret: 'bad', clientAddress: 'b' })).rejects.toMatchObject({ code: 'rate_limited' });
  });
});
