import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { InMemoryRateLimitStore } from '@petstore/core';
import { startTestApi, type TestApi } from './testing/startTestApi.js';

describe('bearer authentication', () => {
  let api: TestApi;

  beforeEach(async () => {
    api = await startTestApi({ failedAuthPerMinute: 5 });
  });
  afterEach(() => api.close());

  it('accepts the scheme in any case', async () => {
    const key = await api.issueKey();
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      expect((await api.request('GET', '/v1/pets', { headers: { Authorization: `${scheme} ${key}` } })).status).toBe(200);
    }
  });

  it('answers a missing key with 401, WWW-Authenticate without an error code, and the address bucket in the headers', async () => {
    const response = await api.request('GET', '/v1/pets');
    expect(response.status).toBe(401);
    expect(response.json).toEqual({
      code: 'unauthorized',
      status: 401,
      message: 'An API key is required: send it as "Authorization: Bearer <API_KEY>".',
    });
    expect(response.headers['www-authenticate']).toBe('Bearer realm="petstore"');
    expect(response.headers).toMatchObject({
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '4',
      'x-ratelimit-reset': String(Date.parse('2026-06-01T12:01:00Z') / 1000),
    });
  });

  it.each([
    ['an unknown key', `Bearer pst_${'A'.repeat(43)}`],
    ['a malformed key', 'Bearer hunter2'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['the scheme alone', 'Bearer'],
    ['two tokens', 'Bearer a b'],
  ])('answers %s with 401 and error="invalid_token"', async (_label, authorization) => {
    const response = await api.request('POST', '/v1/pets', { headers: { Authorization: authorization }, body: { name: 'Rex', categoryId: 1 } });
    expect(response.status).toBe(401);
    expect(response.json).toEqual({ code: 'unauthorized', status: 401, message: 'The API key is invalid or has been revoked.' });
    expect(response.headers['www-authenticate']).toMatch(/^Bearer realm="petstore", error="invalid_token"/);
    expect(api.pets.count()).toBe(0);
  });

  it('answers a key sent without the Bearer scheme with 401, even a valid one', async () => {
    const key = await api.issueKey();
    for (const authorization of [key, ` ${key}`, `Token ${key}`]) {
      const response = await api.request('POST', '/v1/pets', { headers: { Authorization: authorization }, body: { name: 'Rex', categoryId: 1 } });
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    }
    expect(api.pets.count()).toBe(0);
  });

  it('answers two Authorization headers with 400 bad_request, whichever comes first', async () => {
    const key = await api.issueKey();
    for (const pair of [
      [`Bearer ${key}`, 'Bearer nope'],
      ['Bearer nope', `Bearer ${key}`],
      [`Bearer ${key}`, `Bearer ${key}`],
    ]) {
      const response = await api.request('POST', '/v1/pets', { headers: { Authorization: pair }, body: { name: 'Rex', categoryId: 1 } });
      expect(response.status).toBe(400);
      expect(response.json).toEqual({ code: 'bad_request', status: 400, message: expect.stringContaining('Authorization') });
    }
    expect(api.pets.count()).toBe(0);
  });

  it('rejects a revoked key', async () => {
    const key = await api.issueKey();
    const [record] = await api.keys.list({ after: null, limit: 1 });
    await api.keys.revoke(record!.id, api.clock.now());
    expect((await api.authed(key, 'GET', '/v1/pets')).status).toBe(401);
  });

  it('needs a key on unknown routes too, before saying 404', async () => {
    expect((await api.request('GET', '/v1/nothing-here')).status).toBe(401);
  });

  it('limits failed authentications per address, then answers 429 with Retry-After', async () => {
    for (let i = 0; i < 5; i++) expect((await api.request('GET', '/v1/pets')).status).toBe(401);
    api.clock.advance(10_500);
    const limited = await api.request('GET', '/v1/pets');
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(limited.headers['retry-after']).toBe('50');
    const key = await api.issueKey();
    expect((await api.authed(key, 'GET', '/v1/pets')).status).toBe(200);
  });
});

describe('the per-address limit behind a proxy', () => {
  it('never lets a flood of addresses without a valid key crowd out a key: a full address table refuses new addresses only', async () => {
    const api = await startTestApi({ trustProxy: true, rateLimits: new InMemoryRateLimitStore({ maxAddresses: 200 }) });
    try {
      const flood = await Promise.all(
        Array.from({ length: 400 }, (_, i) =>
          api.request('GET', '/v1/pets', { headers: { Authorization: 'Bearer pst_wrong', 'X-Forwarded-For': `127.0.${i >> 8}.${i & 255}` } }),
        ),
      );
      expect(flood.filter((response) => response.status === 401)).toHaveLength(200);
      expect(flood.filter((response) => response.status === 429)).toHaveLength(200);
      // Keys never used before, each with its whole quota, while the address table is full.
      const keys = await Promise.all([api.issueKey('free'), api.issueKey('pro'), api.issueKey('enterprise')]);
      const served = await Promise.all(keys.map((key) => api.authed(key, 'GET', '/v1/pets', { headers: { 'X-Forwarded-For': '198.51.100.7' } })));
      expect(served.map((response) => [response.status, response.headers['x-ratelimit-remaining']])).toEqual([
        [200, '59'],
        [200, '299'],
        [200, '999999'],
      ]);
    } finally {
      await api.close();
    }
  });

  it('uses X-Forwarded-For only when the proxy is trusted', async () => {
    for (const trustProxy of [false, true]) {
      const api = await startTestApi({ failedAuthPerMinute: 1, trustProxy });
      await api.request('GET', '/v1/pets', { headers: { 'X-Forwarded-For': '203.0.113.1' } });
      const other = await api.request('GET', '/v1/pets', { headers: { 'X-Forwarded-For': '203.0.113.2' } });
      expect(other.status).toBe(trustProxy ? 401 : 429);
      await api.close();
    }
  });
});

describe('the client address behind trusted proxies', () => {
  const badKey = { Authorization: `Bearer pst_${'A'.repeat(43)}` };

  it('takes the address from the right: a client rotating the leftmost X-Forwarded-For entry stays in its own bucket', async () => {
    const api = await startTestApi({ failedAuthPerMinute: 60, trustedProxyHops: 1 });
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) {
      // What a proxy appends: the client's spoofed value, then the real peer address.
      const response = await api.request('GET', '/v1/pets', { headers: { ...badKey, 'X-Forwarded-For': `10.0.${i >> 8}.${i & 255}, 198.51.100.7` } });
      statuses.push(response.status);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(60);
    expect(statuses.slice(60).every((s) => s === 429)).toBe(true);
    // Another real client behind the same proxy has its own bucket.
    expect((await api.request('GET', '/v1/pets', { headers: { ...badKey, 'X-Forwarded-For': '198.51.100.8' } })).status).toBe(401);
    await api.close();
  });

  it('counts two hops from the right with TRUST_PROXY_HOPS=2', async () => {
    const api = await startTestApi({ failedAuthPerMinute: 1, trustedProxyHops: 2 });
    expect((await api.request('GET', '/v1/pets', { headers: { ...badKey, 'X-Forwarded-For': '1.1.1.1, 203.0.113.9, 10.0.0.2' } })).status).toBe(401);
    expect((await api.request('GET', '/v1/pets', { headers: { ...badKey, 'X-Forwarded-For': '2.2.2.2, 203.0.113.9, 10.0.0.3' } })).status).toBe(429);
    await api.close();
  });

  it('falls back to the peer address when the entry is not an IP address or is missing, so junk cannot make buckets', async () => {
    const api = await startTestApi({ failedAuthPerMinute: 3, trustedProxyHops: 1 });
    const statuses: number[] = [];
    for (const forwarded of ['x'.repeat(12_000), 'not-an-ip', '', '999.1.1.1', 'unknown']) {
      statuses.push(
        (await api.request('GET', '/v1/pets', { headers: { ...badKey, ...(forwarded ? { 'X-Forwarded-For': forwarded } : {}) } })).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    await api.close();
  });

  it('puts an IPv6 client in the bucket of its /64 and an IPv4-mapped address in its IPv4 bucket', async () => {
    const api = await startTestApi({ failedAuthPerMinute: 1, trustedProxyHops: 1 });
    expect((await api.request('GET', '/v1/pets', { headers: { ...badKey, 'X-Forwarded-For': '2001:db8:1:2::1' } })).status).toBe(401);
    expect((await api.request('GET', '/v1/pets', { headers: { ...badKey, 'X-Forwarded-For': '2001:0db8:0001:0002:ffff:1:2:3' } })).status).toBe(429);
    expect((await api.request('GET', '/v1/pets', { headers: { ...badKey, 'X-Forwarded-For': '::ffff:192.0.2.1' } })).status).toBe(401);
    expect((await api.request('GET', '/v1/pets', { headers: { ...badKey, 'X-Forwarded-For': '192.0.2.1' } })).status).toBe(429);
    await api.close();
  });
});
