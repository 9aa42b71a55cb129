import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { eventsOfCreate } from '@petstore/core';
import { startTestApi, type TestApi } from './testing/startTestApi.js';

/** Instances behind one proxy tell clients the same base URL. */
const SHARED_BASE_URL = 'https://api.example.com/v1';

// Every response here is also validated against the OpenAPI document by the test harness (304s included).
describe('conditional requests: ETag and If-None-Match', () => {
  let api: TestApi;
  let key: string;

  beforeEach(async () => {
    api = await startTestApi({ now: '2026-06-01T12:00:15Z', publicBaseUrl: SHARED_BASE_URL });
    key = await api.issueKey('free');
    for (const name of ['Rex', 'Tom', 'Kit']) await api.pets.create({ name, categoryId: 1, status: 'available' }, eventsOfCreate());
  });
  afterEach(() => api.close());

  const etagOf = async (path: string) => {
    const response = await api.authed(key, 'GET', path);
    expect(response.status).toBe(200);
    return response.headers['etag']!;
  };

  it('tags every 200 of both reads with a strong tag that depends only on the content', async () => {
    const list = await api.authed(key, 'GET', '/v1/pets');
    // A page's tag is made of what it holds (filter, limit, the ids and versions of its pets, whether a next page exists).
    expect(list.headers['etag']).toMatch(/^"[\x21\x23-\x7E]{1,80}"$/);
    expect(await etagOf('/v1/pets')).toBe(list.headers['etag']);
    expect(await etagOf('/v1/pets?limit=20')).toBe(list.headers['etag']);
    expect(await etagOf('/v1/pets?limit=2')).not.toBe(list.headers['etag']);
    expect(await etagOf('/v1/pets?status=sold')).not.toBe(list.headers['etag']);
    const one = await api.authed(key, 'GET', '/v1/pets/1');
    expect(one.headers['etag']).toBe('"p1.1.1"');
    expect(await etagOf('/v1/pets/2')).not.toBe(one.headers['etag']);
    expect((await api.authed(key, 'HEAD', '/v1/pets')).headers['etag']).toBe(list.headers['etag']);
  });

  it('answers 304 with the rate-limit headers and no body when the tag matches, and counts it', async () => {
    const tag = await etagOf('/v1/pets');
    const notModified = await api.authed(key, 'GET', '/v1/pets', { headers: { 'If-None-Match': tag } });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
    expect(notModified.headers['content-type']).toBeUndefined();
    expect(notModified.headers).toMatchObject({
      etag: tag,
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '58',
      'x-ratelimit-reset': expect.any(String),
      ratelimit: expect.any(String),
    });
    expect((await api.authed(key, 'GET', '/v1/pets')).headers['x-ratelimit-remaining']).toBe('57');
  });

  it.each([
    ['the tag itself', (tag: string) => tag],
    ['its weak form', (tag: string) => `W/${tag}`],
    ['a list holding it', (tag: string) => `"stale", W/"other",${tag}`],
    ['*', () => '*'],
  ])('matches %s (weak comparison), on GET and HEAD', async (_, header) => {
    const tag = await etagOf('/v1/pets?limit=2');
    for (const method of ['GET', 'HEAD']) {
      const response = await api.authed(key, method, '/v1/pets?limit=2', { headers: { 'If-None-Match': header(tag) } });
      expect({ method, status: response.status, text: response.text }).toEqual({ method, status: 304, text: '' });
    }
  });

  it.each(['"stale"', 'W/"stale", "other"', 'not-a-tag', '"unterminated'])('answers 200 with the body for %j', async (header) => {
    const response = await api.authed(key, 'GET', '/v1/pets', { headers: { 'If-None-Match': header } });
    expect(response.status).toBe(200);
    expect(response.json).toHaveLength(3);
  });

  it('answers 304 for the deprecated GET /v1/pets/{petId} with its deprecation headers, and 404 for no pet even with *', async () => {
    const tag = await etagOf('/v1/pets/1');
    const notModified = await api.authed(key, 'GET', '/v1/pets/1', { headers: { 'If-None-Match': tag } });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe('');
    expect(notModified.headers).toMatchObject({ deprecation: expect.any(String), sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', etag: tag });
    expect((await api.authed(key, 'GET', '/v1/pets/99', { headers: { 'If-None-Match': '*' } })).status).toBe(404);
    expect((await api.authed(key, 'GET', '/v1/pets/2', { headers: { 'If-None-Match': tag } })).status).toBe(200);
  });

  it('gives the last page a new tag when a pet is added, and keeps a full page with a next page as it was', async () => {
    const first = await api.authed(key, 'GET', '/v1/pets?limit=2');
    const next = `/v1${/<[^>]*\/v1(\/pets\?[^>]+)>/.exec(String(first.headers['link']))![1]!}`;
    const lastTag = await etagOf(next);
    await api.pets.create({ name: 'New', categoryId: 2, status: 'available' }, eventsOfCreate());

    const firstAgain = await api.authed(key, 'GET', '/v1/pets?limit=2', { headers: { 'If-None-Match': first.headers['etag']! } });
    expect(firstAgain.status).toBe(304);
    const lastAgain = await api.authed(key, 'GET', next, { headers: { 'If-None-Match': lastTag } });
    expect(lastAgain.status).toBe(200);
    expect(lastAgain.headers['etag']).not.toBe(lastTag);
    expect(lastAgain.json).toHaveLength(2);
  });

  it('gives a page a new tag when it gains a next page (its Link is part of the representation)', async () => {
    const tag = await etagOf('/v1/pets?limit=3');
    await api.pets.create({ name: 'Fourth', categoryId: 2, status: 'available' }, eventsOfCreate());
    const after = await api.authed(key, 'GET', '/v1/pets?limit=3', { headers: { 'If-None-Match': tag } });
    expect(after.status).toBe(200);
    expect(after.headers['link']).toContain('rel="next"');
  });

  it('gives the same content the same tag on another instance (nothing per process goes into it)', async () => {
    const other = await startTestApi({ now: '2026-06-01T12:00:15Z', publicBaseUrl: SHARED_BASE_URL });
    try {
      const otherKey = await other.issueKey('pro');
      for (const name of ['Rex', 'Tom', 'Kit']) await other.pets.create({ name, categoryId: 1, status: 'available' }, eventsOfCreate());
      for (const path of ['/v1/pets', '/v1/pets?limit=2', '/v1/pets/3']) {
        const there = await other.authed(otherKey, 'GET', path);
        expect(there.headers['etag']).toBe(await etagOf(path));
      }
    } finally {
      await other.close();
    }
  });
});
