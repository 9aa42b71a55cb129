import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Validator } from '@seriousme/openapi-schema-validator';
import { ServiceUnavailableError, type PetRepository } from '@petstore/core';
import { startTestApi, startTestApiWithKey, type TestApi } from './testing/startTestApi.js';

describe('HTTP protocol behaviour', () => {
  let api: TestApi;
  let key: string;

  beforeEach(async () => ({ api, key } = await startTestApiWithKey({ corsOrigins: ['https://shelter.example'] })));
  afterEach(() => api.close());

  describe('headers on every response', () => {
    it('sets Cache-Control: no-store and nosniff, and no X-Powered-By', async () => {
      for (const response of [
        await api.authed(key, 'GET', '/v1/pets'),
        await api.request('GET', '/v1/pets'),
        await api.request('GET', '/elsewhere'),
      ]) {
        expect(response.headers).toMatchObject({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
        expect(response.headers['x-powered-by']).toBeUndefined();
      }
    });

    it('echoes a sane X-Request-Id and replaces anything else', async () => {
      expect((await api.authed(key, 'GET', '/v1/pets', { headers: { 'X-Request-Id': 'trace-123.abc:9' } })).headers['x-request-id']).toBe(
        'trace-123.abc:9',
      );
      const generated = (await api.authed(key, 'GET', '/v1/pets')).headers['x-request-id'];
      expect(generated).toMatch(/^[0-9a-f-]{36}$/);
      for (const insane of ['a b', 'x'.repeat(200), '<script>']) {
        const id = (await api.authed(key, 'GET', '/v1/pets', { headers: { 'X-Request-Id': insane } })).headers['x-request-id'];
        expect(id).toMatch(/^[0-9a-f-]{36}$/);
      }
    });
  });

  describe('methods and routes', () => {
    it('answers HEAD wherever GET works, without a body', async () => {
      const response = await api.authed(key, 'HEAD', '/v1/pets');
      expect(response.status).toBe(200);
      expect(response.text).toBe('');
      expect(response.headers['content-type']).toBe('application/json');
    });

    it('answers OPTIONS with 204 and Allow, with no key needed', async () => {
      const pets = await api.request('OPTIONS', '/v1/pets');
      expect(pets.status).toBe(204);
      expect(pets.headers['allow']).toBe('GET, HEAD, POST, OPTIONS');
      expect((await api.request('OPTIONS', '/v1/pets/1')).headers['allow']).toBe('GET, HEAD, PATCH, OPTIONS');
      expect(pets.headers['x-ratelimit-limit']).toBeUndefined();
    });

    it('counts OPTIONS with a key like any request, with the rate-limit headers', async () => {
      const response = await api.authed(key, 'OPTIONS', '/v1/pets');
      expect(response.status).toBe(204);
      expect(response.headers).toMatchObject({ allow: 'GET, HEAD, POST, OPTIONS', 'x-ratelimit-remaining': expect.any(String) });
      expect((await api.request('OPTIONS', '/v1/pets', { headers: { Authorization: 'Bearer nope' } })).status).toBe(401);
    });

    it.each(['DELETE', 'PUT', 'PATCH'])('answers %s on a known route with 405 and Allow', async (method) => {
      const response = await api.authed(key, method, '/v1/pets');
      expect(response.status).toBe(405);
      expect(response.headers['allow']).toBe('GET, HEAD, POST, OPTIONS');
      expect(response.json).toEqual({
        code: 'method_not_allowed',
        status: 405,
        message: `${method} is not allowed on /v1/pets: use GET, HEAD, POST, OPTIONS.`,
      });
    });

    it('answers 405 for POST on an animal', async () => {
      const response = await api.authed(key, 'POST', '/v1/pets/1', { body: { name: 'Rex', categoryId: 1 } });
      expect(response.status).toBe(405);
      expect(response.headers['allow']).toBe('GET, HEAD, PATCH, OPTIONS');
    });

    it.each(['/v1/pets/', '/V1/PETS', '/v1/Pets', '/v1/pet%73', '/v1//pets', '/v1/pets/1/', '/v1', '/v1/', '/v1/orders', '/v2/pets', '/', '/pets'])(
      'matches paths exactly: %s is 404 not_found with the Error body',
      async (path) => {
        const response = await api.authed(key, 'GET', path);
        expect(response.status).toBe(404);
        expect(response.json).toEqual({ code: 'not_found', status: 404, message: `No route GET ${path}.` });
        expect(response.headers['content-type']).toBe('application/json');
      },
    );
  });

  describe('CORS', () => {
    it('answers a preflight from an allowed origin with no key', async () => {
      const response = await api.request('OPTIONS', '/v1/pets', {
        headers: {
          Origin: 'https://shelter.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization, content-type',
        },
      });
      expect(response.status).toBe(204);
      expect(response.headers).toMatchObject({
        'access-control-allow-origin': 'https://shelter.example',
        'access-control-allow-methods': 'GET,HEAD,POST,OPTIONS',
        'access-control-allow-headers': 'Authorization,Content-Type,X-Request-Id,Idempotency-Key,If-None-Match,If-Match',
        // As on every OPTIONS of a known path (the document requires it).
        allow: 'GET, HEAD, POST, OPTIONS',
      });
    });

    it("names only the path's own methods in a preflight", async () => {
      const response = await api.request('OPTIONS', '/v1/pets/1', {
        headers: { Origin: 'https://shelter.example', 'Access-Control-Request-Method': 'GET' },
      });
      expect(response.status).toBe(204);
      expect(response.headers).toMatchObject({ 'access-control-allow-methods': 'GET,HEAD,PATCH,OPTIONS', allow: 'GET, HEAD, PATCH, OPTIONS' });
    });

    it('exposes the rate-limit, paging, deprecation and ETag headers to an allowed origin', async () => {
      const response = await api.authed(key, 'GET', '/v1/pets', { headers: { Origin: 'https://shelter.example' } });
      expect(response.headers['access-control-allow-origin']).toBe('https://shelter.example');
      expect(String(response.headers['access-control-expose-headers']).split(',')).toEqual(
        expect.arrayContaining(
          'X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Reset,RateLimit-Policy,RateLimit,Retry-After,Link,Location,Deprecation,Sunset,X-Request-Id,Idempotent-Replayed,ETag'.split(
            ',',
          ),
        ),
      );
    });

    it('gives no CORS headers to other origins', async () => {
      const response = await api.request('OPTIONS', '/v1/pets', {
        headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' },
      });
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      expect(
        (await api.authed(key, 'GET', '/v1/pets', { headers: { Origin: 'https://evil.example' } })).headers['access-control-allow-origin'],
      ).toBeUndefined();
    });
  });

  describe('the OpenAPI document', () => {
    it('is served at /v1/openapi.json and is a valid OpenAPI 3.1 document', async () => {
      const response = await api.authed(key, 'GET', '/v1/openapi.json');
      expect(response.status).toBe(200);
      const result = await new Validator().validate(response.json as Parameters<Validator['validate']>[0]);
      expect(result).toEqual({ valid: true });
      expect(response.json).toMatchObject({ openapi: '3.1.0', servers: [{ url: api.publicBaseUrl }] });
    });
  });

  describe('health', () => {
    it('answers /livez and /readyz without a key or rate limit', async () => {
      expect(await api.request('GET', '/livez')).toMatchObject({ status: 200, json: { status: 'ok' } });
      expect(await api.request('GET', '/readyz')).toMatchObject({ status: 200, json: { status: 'ready' } });
      expect((await api.request('GET', '/livez')).headers['x-ratelimit-limit']).toBeUndefined();
    });
  });
});

describe('failures of dependencies', () => {
  const failing = (error: Error): PetRepository => ({
    create: () => Promise.reject(error),
    findById: () => Promise.reject(error),
    list: () => Promise.reject(error),
    update: () => Promise.reject(error),
  });

  it('answers 500 internal_error with a generic message, no stack and no SQL, and reports the error', async () => {
    const error = new Error('SQLITE_CORRUPT: SELECT "id" FROM "pets" at Object.<anonymous> (/srv/x.js:1:1)');
    const api = await startTestApi({ petRepository: failing(error) });
    const key = await api.issueKey();
    const response = await api.authed(key, 'GET', '/v1/pets', { unchecked: false });
    expect(response.status).toBe(500);
    expect(response.json).toEqual({ code: 'internal_error', status: 500, message: 'Internal server error.' });
    expect(response.text).not.toMatch(/SQLITE|SELECT|\.js/);
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
    expect(api.internalErrors).toEqual([error]);
    await api.close();
  });

  it('answers 503 service_unavailable with Retry-After when the database is down', async () => {
    const api = await startTestApi({ petRepository: failing(new ServiceUnavailableError('database', 5)) });
    const key = await api.issueKey();
    const response = await api.authed(key, 'POST', '/v1/pets', { body: { name: 'Rex', categoryId: 1 } });
    expect(response.status).toBe(503);
    expect(response.json).toEqual({ code: 'service_unavailable', status: 503, message: expect.stringContaining('temporarily unavailable') });
    expect(response.headers['retry-after']).toBe('5');
    await api.close();
  });

  it('says 503 on /readyz when a dependency is down', async () => {
    const api = await startTestApi({ readiness: () => Promise.reject(new ServiceUnavailableError('database', 5)) });
    const response = await api.request('GET', '/readyz');
    expect(response.status).toBe(503);
    expect(response.json).toMatchObject({ code: 'service_unavailable', status: 503 });
    await api.close();
  });
});
