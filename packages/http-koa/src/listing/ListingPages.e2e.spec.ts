import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { startTestApi, type TestApi } from '../testing/startTestApi.js';

// The full-page cache as a client sees it: a kept page is the same representation, and every per-request feature
// (authentication, counting, headers, request id, conditional requests) still applies to it.
describe('GET /v1/pets with the full-page cache on', () => {
  let api: TestApi;
  let key: string;

  beforeEach(async () => {
    api = await startTestApi({ now: '2026-06-01T12:00:15Z', fullPageCache: { maxBytes: 1_000_000 } });
    key = await api.issueKey('free');
    for (const name of ['Rex', 'Tom', 'Kit']) await api.pets.create({ name, categoryId: 1, status: 'available' });
  });
  afterEach(() => api.close());

  it('answers a kept page like a read one, counting each request and giving each its own request id', async () => {
    const first = await api.authed(key, 'GET', '/v1/pets?limit=2');
    const again = await api.authed(key, 'GET', '/v1/pets?limit=2');
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    for (const header of ['etag', 'link', 'content-type', 'cache-control', 'ratelimit-policy'])
      expect(again.headers[header]).toBe(first.headers[header]);
    expect(first.headers['x-ratelimit-remaining']).toBe('59');
    expect(again.headers['x-ratelimit-remaining']).toBe('58');
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);

    const notModified = await api.authed(key, 'GET', '/v1/pets?limit=2', { headers: { 'If-None-Match': first.headers['etag']! } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers['x-ratelimit-remaining']).toBe('57');
    expect((await api.request('GET', '/v1/pets?limit=2')).status).toBe(401);
  });

  it('shows a new pet on the last page and on a one-page listing at once', async () => {
    expect((await api.authed(key, 'GET', '/v1/pets')).json).toHaveLength(3);
    const firstPage = await api.authed(key, 'GET', '/v1/pets?limit=2');
    const lastPath = `/v1/pets?${new URL(/<([^>]+)>/.exec(String(firstPage.headers['link']))![1]!).searchParams.toString()}`;
    expect(await api.authed(key, 'GET', lastPath)).toMatchObject({ json: [{ name: 'Kit' }] });

    await api.authed(key, 'POST', '/v1/pets', {
      body: JSON.stringify({ name: 'Ada', categoryId: 2 }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(await api.authed(key, 'GET', lastPath)).toMatchObject({ json: [{ name: 'Kit' }, { name: 'Ada' }] });
    expect((await api.authed(key, 'GET', '/v1/pets')).json).toHaveLength(4);
    expect((await api.authed(key, 'GET', '/v1/pets?limit=2')).text).toBe(firstPage.text);
  });
});
