import { beforeEach, describe, expect, it } from '@jest/globals';
import { InMemoryRateLimitStore } from '../adapters/InMemoryRateLimitStore.js';
import { FakeClock } from '../testing/FakeClock.js';
import { InMemoryAuditLog } from '../testing/InMemoryAuditLog.js';
import { InMemoryKeyStore } from '../testing/InMemoryKeyStore.js';
import { EnforceRateLimit } from './EnforceRateLimit.js';
import { GetRateLimitUsage } from './GetRateLimitUsage.js';
import { IssueApiKey } from './IssueApiKey.js';
import { KeyAudit } from './KeyAudit.js';

const unix = (iso: string) => Date.parse(iso) / 1000;

describe('GetRateLimitUsage', () => {
  let keys: InMemoryKeyStore;
  let clock: FakeClock;
  let store: InMemoryRateLimitStore;
  let usage: GetRateLimitUsage;
  let enforce: EnforceRateLimit;

  beforeEach(() => {
    keys = new InMemoryKeyStore();
    clock = new FakeClock('2026-06-01T12:00:15Z');
    store = new InMemoryRateLimitStore();
    usage = new GetRateLimitUsage(keys, store, clock);
    enforce = new EnforceRateLimit(store, clock, { strikes: 1, durationSeconds: 600, strikeIntervalSeconds: 0 });
  });

  it("reports the plan and each window's limit, use, remaining and reset, without counting", async () => {
    const { key } = await new IssueApiKey(keys, new KeyAudit(new InMemoryAuditLog()), clock).execute({ plan: 'free' }, 'cli');
    await enforce.execute(`key:${key.id}`, { minute: 60, day: 1000 });
    await enforce.execute(`key:${key.id}`, { minute: 60, day: 1000 });
    const first = await usage.execute(key.id);
    expect(first).toEqual({
      keyId: key.id,
      plan: 'free',
      windows: [
        { name: 'minute', limit: 60, used: 2, remaining: 58, reset: unix('2026-06-01T12:01:00Z') },
        { name: 'day', limit: 1000, used: 2, remaining: 998, reset: unix('2026-06-02T00:00:00Z') },
      ],
      bannedUntil: null,
      state: { limit: 60, remaining: 58, reset: unix('2026-06-01T12:01:00Z'), windows: first.windows },
    });
    expect(await usage.execute(key.id)).toEqual(first);
  });

  it('uses the custom limits of an enterprise key', async () => {
    const { key } = await new IssueApiKey(keys, new KeyAudit(new InMemoryAuditLog()), clock).execute(
      { plan: 'enterprise', perMinute: 5, perDay: 7 },
      'cli',
    );
    expect((await usage.execute(key.id)).windows.map((w) => w.limit)).toEqual([5, 7]);
  });

  it('reports a ban in force, with nothing remaining until it ends', async () => {
    const { key } = await new IssueApiKey(keys, new KeyAudit(new InMemoryAuditLog()), clock).execute(
      { plan: 'enterprise', perMinute: 1, perDay: 10 },
      'cli',
    );
    await enforce.execute(`key:${key.id}`, { minute: 1, day: 10 });
    await enforce.execute(`key:${key.id}`, { minute: 1, day: 10 }).catch(() => undefined);
    await expect(enforce.execute(`key:${key.id}`, { minute: 1, day: 10 })).rejects.toMatchObject({ code: 'key_banned' });
    const banned = await usage.execute(key.id);
    expect(banned).toMatchObject({
      bannedUntil: unix('2026-06-01T12:10:15Z'),
      state: { limit: 1, remaining: 0, reset: unix('2026-06-01T12:10:15Z') },
    });
    clock.set('2026-06-01T12:10:15Z');
    expect(await usage.execute(key.id)).toMatchObject({ bannedUntil: null, windows: [{ used: 0 }, { used: 1 }] });
  });

  it('refuses an unknown key id with not_found', async () => {
    await expect(usage.execute('key_nope')).rejects.toMatchObject({ code: 'not_found', message: 'No API key with id key_nope.' });
  });
});
