import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { startTestApi, type TestApi } from './testing/startTestApi.js';

const unix = (iso: string) => Date.parse(iso) / 1000;

// Every response here is also validated against the OpenAPI document by the test harness.
describe('GET /v1/rate_limit', () => {
  let api: TestApi;

  beforeEach(async () => {
    api = await startTestApi({ now: '2026-06-01T12:00:15Z', usageQueriesPerMinute: 5 });
  });
  afterEach(() => api.close());

  it("shows the key's plan and usage per window, and spends none of its quota", async () => {
    const key = await api.issueKey('free');
    await api.authed(key, 'GET', '/v1/pets');
    await api.authed(key, 'GET', '/v1/pets');
    for (let i = 0; i < 3; i++) {
      const usage = await api.authed(key, 'GET', '/v1/rate_limit');
      expect(usage.status).toBe(200);
      expect(usage.json).toEqual({
        keyId: expect.stringMatching(/^key_/),
        plan: 'free',
        windows: [
          { name: 'minute', limit: 60, used: 2, remaining: 58, reset: unix('2026-06-01T12:01:00Z') },
          { name: 'day', limit: 1000, used: 2, remaining: 998, reset: unix('2026-06-02T00:00:00Z') },
        ],
        bannedUntil: null,
      });
      expect(usage.headers).toMatchObject({
        'x-ratelimit-limit': '60',
        'x-ratelimit-remaining': '58',
        'x-ratelimit-reset': String(unix('2026-06-01T12:01:00Z')),
      });
    }
    expect((await api.authed(key, 'GET', '/v1/pets')).headers['x-ratelimit-remaining']).toBe('57');
  });

  it('still answers while the key is rate limited and banned, showing until when', async () => {
    const key = await api.issueKey('enterprise', { perMinute: 1, perDay: 100 });
    await api.authed(key, 'GET', '/v1/pets');
    for (let i = 0; i < 10; i++) {
      await api.authed(key, 'GET', '/v1/pets');
      api.clock.advance(1_000);
    }
    expect((await api.authed(key, 'GET', '/v1/pets')).json).toMatchObject({ code: 'key_banned' });
    const usage = await api.authed(key, 'GET', '/v1/rate_limit');
    expect(usage.status).toBe(200);
    expect(usage.json).toMatchObject({
      windows: [
        { name: 'minute', used: 1, remaining: 0 },
        { name: 'day', used: 1 },
      ],
      bannedUntil: unix('2026-06-01T12:15:25Z'),
    });
    expect(usage.headers).toMatchObject({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(unix('2026-06-01T12:15:25Z')) });
  });

  it('is bounded per key in a bucket of its own: beyond it 429, while the API still answers', async () => {
    const key = await api.issueKey('pro');
    const other = await api.issueKey('pro');
    for (let i = 0; i < 5; i++) expect((await api.authed(key, 'GET', '/v1/rate_limit')).status).toBe(200);
    const limited = await api.authed(key, 'GET', '/v1/rate_limit');
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(limited.headers).toMatchObject({ 'retry-after': '45', 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '0' });
    expect((await api.authed(other, 'GET', '/v1/rate_limit')).status).toBe(200);
    const pets = await api.authed(key, 'GET', '/v1/pets');
    expect(pets.status).toBe(200);
    expect(pets.headers['x-ratelimit-remaining']).toBe('299');
    api.clock.set('2026-06-01T12:01:00Z');
    expect((await api.authed(key, 'GET', '/v1/rate_limit')).status).toBe(200);
  });

  it('needs a valid key (401, counted against the address) and answers other methods 405', async () => {
    const missing = await api.request('GET', '/v1/rate_limit');
    expect(missing.status).toBe(401);
    expect(missing.json).toMatchObject({ code: 'unauthorized' });
    expect(missing.headers['x-ratelimit-remaining']).toBe('59');
    expect((await api.authed('pst_nope', 'GET', '/v1/rate_limit')).headers['x-ratelimit-remaining']).toBe('58');
    const key = await api.issueKey('free');
    const post = await api.authed(key, 'POST', '/v1/rate_limit', { body: {} });
    expect(post.status).toBe(405);
    expect(post.headers['allow']).toBe('GET, HEAD, OPTIONS');
  });

  it('is described in the OpenAPI document', async () => {
    const key = await api.issueKey('free');
    const document = (await api.authed(key, 'GET', '/v1/openapi.json')).json as { paths: Record<string, { get?: { operationId?: string } }> };
    expect(document.paths['/rate_limit']?.get?.operationId).toBe('getRateLimit');
  });
});
