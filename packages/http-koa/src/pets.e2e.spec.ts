import { gzipSync } from 'node:zlib';
import { eventsOfCreate } from '@petstore/core';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { startTestApiWithKey, type TestApi } from './testing/startTestApi.js';

describe('the pets operations over HTTP', () => {
  let api: TestApi;
  let key: string;

  beforeEach(async () => ({ api, key } = await startTestApiWithKey()));
  afterEach(() => api.close());

  it('lists nothing at first: 200 and a bare JSON array', async () => {
    const response = await api.authed(key, 'GET', '/v1/pets');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.json).toEqual([]);
    expect(response.headers['link']).toBeUndefined();
  });

  it('creates a pet: 201, the pet with its id and default status, and its Location', async () => {
    const response = await api.authed(key, 'POST', '/v1/pets', { body: { name: 'Rex', categoryId: 2 } });
    expect(response.status).toBe(201);
    expect(response.json).toEqual({ id: 1, name: 'Rex', categoryId: 2, status: 'available' });
    expect(response.headers['location']).toBe(`${api.publicBaseUrl}/pets/1`);
    expect((await api.authed(key, 'GET', '/v1/pets')).json).toEqual([{ id: 1, name: 'Rex', categoryId: 2, status: 'available' }]);
  });

  it('accepts a JSON media type with parameters or a +json suffix', async () => {
    for (const type of ['application/json; charset=utf-8', 'APPLICATION/JSON', 'application/merge-patch+json']) {
      const response = await api.authed(key, 'POST', '/v1/pets', {
        body: JSON.stringify({ name: 'Rex', categoryId: 2 }),
        headers: { 'Content-Type': type },
      });
      expect(response.status).toBe(201);
    }
  });

  it('stores exactly the characters sent in UTF-8, a replacement character the client sent included', async () => {
    for (const type of [
      'application/json; charset=utf-8',
      'application/json; charset=UTF-8',
      'application/json; charset="utf-8"',
      'application/json; charset=utf8',
    ]) {
      const response = await api.authed(key, 'POST', '/v1/pets', {
        body: Buffer.from('{"name":"Ré\uFFFD","categoryId":2}', 'utf8'),
        headers: { 'Content-Type': type },
      });
      expect(response.status).toBe(201);
      expect((response.json as { name: string }).name).toBe('Ré\uFFFD');
    }
  });

  it('accepts a gzip-compressed JSON body', async () => {
    const body = gzipSync(JSON.stringify({ name: 'Rex', categoryId: 1 }));
    const response = await api.authed(key, 'POST', '/v1/pets', { body, headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' } });
    expect(response.status).toBe(201);
  });

  it('pages with limit, status and the Link rel="next" header, the body staying a bare array', async () => {
    for (let i = 1; i <= 7; i++) await api.pets.create({ name: `pet ${i}`, categoryId: 1, status: i % 2 ? 'sold' : 'pending' }, eventsOfCreate());
    const first = await api.authed(key, 'GET', '/v1/pets?status=sold&limit=2');
    expect((first.json as { id: number }[]).map((p) => p.id)).toEqual([1, 3]);
    const link = first.headers['link'] as string;
    expect(link).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/v1\/pets\?status=sold&limit=2&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
    const next = new URL(/<([^>]+)>/.exec(link)![1]!);
    const second = await api.authed(key, 'GET', `/v1/pets${next.search}`);
    expect((second.json as { id: number }[]).map((p) => p.id)).toEqual([5, 7]);
    expect(second.headers['link']).toBeUndefined();
  });

  it('returns at most 20 pets by default and 100 at most', async () => {
    for (let i = 0; i < 120; i++) await api.pets.create({ name: `p${i}`, categoryId: 1, status: 'available' }, eventsOfCreate());
    expect((await api.authed(key, 'GET', '/v1/pets')).json).toHaveLength(20);
    expect((await api.authed(key, 'GET', '/v1/pets?limit=100')).json).toHaveLength(100);
  });

  describe('deprecated GET /v1/pets/{petId}', () => {
    const deprecationHeaders = {
      deprecation: '@1767225600',
      sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
      link: expect.stringMatching(/^<http:\/\/127\.0\.0\.1:\d+\/v1\/pets>; rel="successor-version"$/),
    };

    it('returns the pet, marked deprecated with its sunset and successor', async () => {
      await api.pets.create({ name: 'Rex', categoryId: 3, status: 'pending' }, eventsOfCreate());
      const response = await api.authed(key, 'GET', '/v1/pets/1');
      expect(response.status).toBe(200);
      expect(response.json).toEqual({ id: 1, name: 'Rex', categoryId: 3, status: 'pending' });
      expect(response.headers).toMatchObject(deprecationHeaders);
    });

    it.each([
      ['/v1/pets/42', 404, 'not_found'],
      ['/v1/pets/0', 404, 'not_found'],
      ['/v1/pets/9007199254740992', 404, 'not_found'],
      ['/v1/pets/99999999999999999999999999999999', 404, 'not_found'],
      ['/v1/pets/abc', 400, 'validation_error'],
      ['/v1/pets/1.5', 400, 'validation_error'],
      ['/v1/pets/-1', 400, 'validation_error'],
      ['/v1/pets/%E0%A4%A', 400, 'validation_error'],
    ])('%s answers %d %s, still marked deprecated', async (path, status, code) => {
      const response = await api.authed(key, 'GET', path);
      expect(response.status).toBe(status);
      expect(response.json).toMatchObject({ code, status });
      expect(response.headers).toMatchObject(deprecationHeaders);
    });

    it.each([1001, 5000])('answers an all-digit id of %d digits 404 not_found, like any id beyond 2^53-1', async (digits) => {
      const response = await api.authed(key, 'GET', `/v1/pets/${'9'.repeat(digits)}`);
      expect(response.status).toBe(404);
      expect(response.json).toMatchObject({ code: 'not_found', status: 404 });
      expect(response.headers).toMatchObject(deprecationHeaders);
    });

    it('marks a 401 as deprecated too', async () => {
      const response = await api.request('GET', '/v1/pets/1');
      expect(response.status).toBe(401);
      expect(response.headers).toMatchObject(deprecationHeaders);
    });

    it('is 410 gone from the sunset instant on', async () => {
      await api.pets.create({ name: 'Rex', categoryId: 3, status: 'pending' }, eventsOfCreate());
      api.clock.set('2030-12-04T23:59:59Z');
      expect((await api.authed(key, 'GET', '/v1/pets/1')).status).toBe(200);
      api.clock.set('2030-12-05T00:00:00Z');
      const response = await api.authed(key, 'GET', '/v1/pets/1');
      expect(response.status).toBe(410);
      expect(response.json).toEqual({ code: 'gone', status: 410, message: expect.stringContaining('use GET /pets with the status filter') });
      expect(response.headers).toMatchObject(deprecationHeaders);
      expect((await api.authed(key, 'GET', '/v1/pets?status=pending')).status).toBe(200);
    });
  });
});
