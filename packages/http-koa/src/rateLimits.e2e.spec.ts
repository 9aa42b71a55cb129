import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { eventsOfCreate } from '@petstore/core';
import { startTestApi, type TestApi } from './testing/startTestApi.js';

const unix = (iso: string) => String(Date.parse(iso) / 1000);

describe('rate limits over HTTP', () => {
  let api: TestApi;

  beforeEach(async () => {
    api = await startTestApi({ now: '2026-06-01T12:00:15Z' });
  });
  afterEach(() => api.close());

  it('lets a Free key make 60 requests in a minute; the 61st is 429 with Retry-After to the next minute', async () => {
    const key = await api.issueKey('free');
    for (let i = 1; i <= 60; i++) {
      const response = await api.authed(key, 'GET', '/v1/pets');
      expect(response.status).toBe(200);
      expect(response.headers['x-ratelimit-remaining']).toBe(String(60 - i));
    }
    api.clock.set('2026-06-01T12:00:40.300Z');
    const rejected = await api.authed(key, 'GET', '/v1/pets');
    expect(rejected.status).toBe(429);
    expect(rejected.json).toEqual({ code: 'rate_limited', status: 429, message: 'Rate limit exceeded: retry after 20 seconds.' });
    expect(rejected.headers).toMatchObject({
      'retry-after': '20',
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': unix('2026-06-01T12:01:00Z'),
      'content-type': 'application/json',
    });
    api.clock.set('2026-06-01T12:01:00Z');
    expect((await api.authed(key, 'GET', '/v1/pets')).status).toBe(200);
  });

  it('describes both windows with the IETF draft headers', async () => {
    const key = await api.issueKey('pro');
    const response = await api.authed(key, 'GET', '/v1/pets');
    expect(response.headers['ratelimit-policy']).toBe('"minute";q=300;w=60, "day";q=10000;w=86400');
    expect(response.headers['ratelimit']).toBe('"minute";r=299;t=45, "day";r=9999;t=43185');
  });

  it('admits exactly 60 of 100 concurrent requests on a fresh Free key', async () => {
    const key = await api.issueKey('free');
    const statuses = (await Promise.all(Array.from({ length: 100 }, () => api.authed(key, 'GET', '/v1/pets')))).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
  });

  it('does not count rejected requests, and counts POSTs and errors like any request', async () => {
    const key = await api.issueKey('enterprise', { perMinute: 3, perDay: 5 });
    expect((await api.authed(key, 'POST', '/v1/pets', { body: { name: 'Rex', categoryId: 1 } })).status).toBe(201);
    expect((await api.authed(key, 'POST', '/v1/pets', { body: {} })).status).toBe(400);
    expect((await api.authed(key, 'GET', '/v1/nope')).status).toBe(404);
    expect((await api.authed(key, 'GET', '/v1/pets')).status).toBe(429);
    api.clock.set('2026-06-01T12:01:00Z');
    const fourth = await api.authed(key, 'GET', '/v1/pets');
    expect(fourth.headers).toMatchObject({
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '1',
      'x-ratelimit-reset': unix('2026-06-02T00:00:00Z'),
    });
  });

  it('never bans a fresh Free key for one burst: 71 requests at once give 60 x 200 and 11 x 429', async () => {
    const key = await api.issueKey('free');
    const burst = await Promise.all(Array.from({ length: 71 }, () => api.authed(key, 'GET', '/v1/pets')));
    expect(burst.filter((r) => r.status === 200)).toHaveLength(60);
    expect(burst.filter((r) => (r.json as { code?: string }).code === 'rate_limited')).toHaveLength(11);
    // More in flight within the same second: still told to wait, never banned.
    const more = await Promise.all(Array.from({ length: 30 }, () => api.authed(key, 'GET', '/v1/pets')));
    expect(more.map((r) => (r.json as { code?: string }).code)).toEqual(Array(30).fill('rate_limited'));
    api.clock.set('2026-06-01T12:01:00Z');
    expect((await api.authed(key, 'GET', '/v1/pets')).status).toBe(200);
  });

  it('bans a key that keeps calling after a 429, once per second for 10 s, for 15 minutes, then lets it back', async () => {
    const key = await api.issueKey('enterprise', { perMinute: 1, perDay: 1000 });
    await api.authed(key, 'GET', '/v1/pets');
    expect((await api.authed(key, 'GET', '/v1/pets')).status).toBe(429);
    for (let second = 1; second < 10; second++) {
      api.clock.advance(1_000);
      expect((await api.authed(key, 'GET', '/v1/pets')).json).toMatchObject({ code: 'rate_limited' });
    }
    api.clock.advance(1_000);
    const banned = await api.authed(key, 'GET', '/v1/pets');
    expect(banned.status).toBe(429);
    expect(banned.json).toEqual({ code: 'key_banned', status: 429, message: expect.stringContaining('temporarily banned for 900 more seconds') });
    expect(banned.headers).toMatchObject({ 'retry-after': '900', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': unix('2026-06-01T12:15:25Z') });
    // Every rate-limit header tells the same story: nothing may be sent until the ban ends.
    expect(banned.headers['ratelimit']).toBe('"minute";r=0;t=900, "day";r=0;t=900');

    api.clock.set('2026-06-01T12:10:25Z');
    expect((await api.authed(key, 'GET', '/v1/pets')).headers['retry-after']).toBe('300');
    api.clock.set('2026-06-01T12:15:25Z');
    expect((await api.authed(key, 'GET', '/v1/pets')).status).toBe(200);
  });

  it('puts the rate-limit headers on every kind of response', async () => {
    const key = await api.issueKey('enterprise');
    await api.pets.create({ name: 'Rex', categoryId: 1, status: 'sold' }, eventsOfCreate());
    const responses = [
      await api.authed(key, 'GET', '/v1/pets'),
      await api.authed(key, 'HEAD', '/v1/pets'),
      await api.authed(key, 'POST', '/v1/pets', { body: { name: 'Max', categoryId: 1 } }),
      await api.authed(key, 'POST', '/v1/pets', { body: { name: '' } }),
      await api.authed(key, 'POST', '/v1/pets', { body: '{', headers: { 'Content-Type': 'application/json' } }),
      await api.authed(key, 'POST', '/v1/pets', { body: 'x', headers: { 'Content-Type': 'text/plain' } }),
      await api.authed(key, 'GET', '/v1/pets/1'),
      await api.authed(key, 'GET', '/v1/pets/999'),
      await api.authed(key, 'DELETE', '/v1/pets/1'),
      await api.authed(key, 'GET', '/v1/unknown'),
      await api.authed(key, 'GET', '/v1/openapi.json'),
      await api.request('GET', '/v1/pets'),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 201, 400, 400, 415, 200, 404, 405, 404, 200, 401]);
    for (const response of responses) {
      expect(Object.keys(response.headers)).toEqual(
        expect.arrayContaining(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit-policy', 'ratelimit']),
      );
    }
  });
});
