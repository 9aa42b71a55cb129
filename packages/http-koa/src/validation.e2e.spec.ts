import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { startTestApiWithKey, type TestApi } from './testing/startTestApi.js';

describe('bad input over HTTP: a clear Error body, and nothing stored', () => {
  let api: TestApi;
  let key: string;

  beforeEach(async () => ({ api, key } = await startTestApiWithKey()));
  afterEach(async () => {
    expect(api.pets.count()).toBe(0);
    await api.close();
  });

  describe('GET /v1/pets query', () => {
    it.each([
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=1.5', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=', 'limit'],
      ['limit=-5', 'limit'],
      ['status=adopted', 'status'],
      ['status=SOLD', 'status'],
      ['status=', 'status'],
      ['status=sold&status=pending', 'status'],
      ['limit=5&limit=6', 'limit'],
      ['status[]=sold', 'status[]'],
      ['staus=sold', 'staus'],
      ['cursor=garbage', 'cursor'],
      ['cursor=', 'cursor'],
      ['__proto__=x', '__proto__'],
    ])('?%s is 400 validation_error naming %s', async (query, field) => {
      // The page without a cursor asked for first, twice: kept, it must not answer a request that only looks like it.
      for (let i = 0; i < 2; i++) expect((await api.authed(key, 'GET', '/v1/pets')).status).toBe(200);
      const response = await api.authed(key, 'GET', `/v1/pets?${query}`);
      expect(response.status).toBe(400);
      expect(response.json).toEqual({
        code: 'validation_error',
        status: 400,
        message: expect.any(String),
        details: [{ field, message: expect.any(String) }],
      });
    });
  });

  describe('POST /v1/pets body', () => {
    it.each([
      [{}, ['name', 'categoryId']],
      [{ name: 'Rex' }, ['categoryId']],
      [{ categoryId: 1 }, ['name']],
      [{ id: 7, name: 'Rex', categoryId: 1 }, ['id']],
      [{ name: 'Rex', categoryId: 1, owner: 'me' }, ['owner']],
      [{ name: '', categoryId: 1 }, ['name']],
      [{ name: ' ', categoryId: 1 }, ['name']],
      [{ name: 'x'.repeat(101), categoryId: 1 }, ['name']],
      [{ name: 'a\u0007b', categoryId: 1 }, ['name']],
      [{ name: '\u200B', categoryId: 1 }, ['name']],
      [{ name: 'Rex\u202E', categoryId: 1 }, ['name']],
      [{ name: 'Rex\u2028', categoryId: 1 }, ['name']],
      [{ name: '👍🏽'.repeat(101), categoryId: 1 }, ['name']],
      [{ name: 5, categoryId: 1 }, ['name']],
      [{ name: 'Rex', categoryId: '1' }, ['categoryId']],
      [{ name: 'Rex', categoryId: 1.5 }, ['categoryId']],
      [{ name: 'Rex', categoryId: 0 }, ['categoryId']],
      [{ name: 'Rex', categoryId: true }, ['categoryId']],
      [{ name: 'Rex', categoryId: 1, status: null }, ['status']],
      [{ name: 'Rex', categoryId: 1, status: 'adopted' }, ['status']],
      [[{ name: 'Rex', categoryId: 1 }], ['body']],
      ['"Rex"', ['body']],
      ['null', ['body']],
      ['42', ['body']],
      ['', ['body']],
      [{ name: 'Rex', categoryId: 1, constructor: { prototype: { polluted: true } } }, ['constructor']],
    ])('%j is 400 validation_error naming %j', async (body, fields) => {
      const response = await api.authed(key, 'POST', '/v1/pets', { body, headers: { 'Content-Type': 'application/json' } });
      expect(response.status).toBe(400);
      expect(response.json).toMatchObject({ code: 'validation_error', status: 400 });
      expect((response.json as { details: { field: string }[] }).details.map((d) => d.field)).toEqual(fields);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });

    it('rejects a categoryId beyond 2^53-1, which JSON would otherwise round', async () => {
      const response = await api.authed(key, 'POST', '/v1/pets', {
        body: '{"name":"Rex","categoryId":9007199254740993}',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(response.json).toMatchObject({ code: 'validation_error', details: [{ field: 'categoryId' }] });
    });

    it.each([
      ['{"name": "Rex", "categoryId": 1', 'not valid JSON'],
      ["{'name': 'Rex'}", 'not valid JSON'],
      ['{"name":"Rex","categoryId":1,}', 'not valid JSON'],
      ['{"name":"Rex","name":"Max","categoryId":1}', 'repeats the key "name"'],
      ['{"name":"Rex","categoryId":1,"x":{"a":1,"a":2}}', 'repeats the key "a"'],
    ])('%s is 400 malformed_json', async (body, message) => {
      const response = await api.authed(key, 'POST', '/v1/pets', { body, headers: { 'Content-Type': 'application/json' } });
      expect(response.status).toBe(400);
      expect(response.json).toEqual({ code: 'malformed_json', status: 400, message: expect.stringContaining(message) });
    });

    it.each([
      ['{"name":"Rex","categoryId":1,"__proto__":{"polluted":true}}', '__proto__'],
      ['{"__proto__":{},"name":"Rex","categoryId":1}', '__proto__'],
      ['{"name":"Rex","categoryId":1,"\\u005f_proto__":{"polluted":true}}', '__proto__'],
      ['{"name":{"__proto__":{"polluted":true}},"categoryId":1}', 'name'],
    ])('treats a __proto__ key as data: %s is 400 validation_error naming %s, nothing polluted', async (body, field) => {
      const response = await api.authed(key, 'POST', '/v1/pets', { body, headers: { 'Content-Type': 'application/json' } });
      expect(response.status).toBe(400);
      expect(response.json).toMatchObject({ code: 'validation_error', details: [{ field }] });
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });

    it.each(['4.9999999999999999', '1.0000000000000001', '9007199254740991.4', '1.0', '1e0', '10E-1', '0.5e1'])(
      'rejects categoryId %s: a fraction or exponent is never rounded into an integer',
      async (literal) => {
        const response = await api.authed(key, 'POST', '/v1/pets', {
          body: `{"name":"Rex","categoryId":${literal}}`,
          headers: { 'Content-Type': 'application/json' },
        });
        expect(response.status).toBe(400);
        expect(response.json).toMatchObject({ code: 'validation_error', details: [{ field: 'categoryId' }] });
      },
    );

    it.each([
      ['arrays', '['.repeat(4000) + ']'.repeat(4000)],
      ['objects', '{"":'.repeat(3000) + '1' + '}'.repeat(3000)],
      ['arrays inside the pet', `{"name":"Rex","categoryId":1,"x":${'['.repeat(5000)}${']'.repeat(5000)}}`],
    ])('rejects deeply nested %s with 400 malformed_json, not a crash', async (_label, body) => {
      for (const [encoding, payload] of [
        [undefined, body],
        ['gzip', gzipSync(body)],
      ] as const) {
        const response = await api.authed(key, 'POST', '/v1/pets', {
          body: payload,
          headers: { 'Content-Type': 'application/json', ...(encoding ? { 'Content-Encoding': encoding } : {}) },
        });
        expect(response.status).toBe(400);
        expect(response.json).toEqual({ code: 'malformed_json', status: 400, message: expect.stringContaining('nested') });
      }
      expect(api.internalErrors).toEqual([]);
    });

    it.each(['latin1', 'ISO-8859-1', 'utf-16', 'us-ascii', '"windows-1252"'])('answers charset=%s with 415', async (charset) => {
      const response = await api.authed(key, 'POST', '/v1/pets', {
        body: Buffer.from('{"name":"R\xe9x","categoryId":1}', 'latin1'),
        headers: { 'Content-Type': `application/json; charset=${charset}` },
      });
      expect(response.status).toBe(415);
      expect(response.json).toEqual({ code: 'unsupported_media_type', status: 415, message: expect.stringContaining('UTF-8') });
    });

    it.each([
      ['a Latin-1 byte', Buffer.from('{"name":"R\xe9x","categoryId":1}', 'latin1')],
      ['a truncated sequence', Buffer.concat([Buffer.from('{"name":"R'), Buffer.from([0xe2, 0x82]), Buffer.from('","categoryId":1}')])],
      ['an overlong encoding', Buffer.concat([Buffer.from('{"name":"R'), Buffer.from([0xc0, 0xaf]), Buffer.from('","categoryId":1}')])],
    ])('answers invalid UTF-8 (%s) with 400 malformed_json', async (_label, body) => {
      for (const type of ['application/json', 'application/json; charset=utf-8']) {
        const response = await api.authed(key, 'POST', '/v1/pets', { body, headers: { 'Content-Type': type } });
        expect(response.status).toBe(400);
        expect(response.json).toEqual({ code: 'malformed_json', status: 400, message: expect.stringContaining('UTF-8') });
      }
    });

    it.each([
      [undefined, '{"name":"Rex","categoryId":1}'],
      ['text/plain', '{"name":"Rex","categoryId":1}'],
      ['application/x-www-form-urlencoded', 'name=Rex&categoryId=1'],
      ['multipart/form-data; boundary=x', '--x--'],
      ['application/xml', '<pet/>'],
    ])('Content-Type %p is 415 unsupported_media_type', async (type, body) => {
      const response = await api.authed(key, 'POST', '/v1/pets', { body, headers: type ? { 'Content-Type': type } : {} });
      expect(response.status).toBe(415);
      expect(response.json).toEqual({ code: 'unsupported_media_type', status: 415, message: expect.any(String) });
    });

    it('rejects a body over 16 KiB with 413, whether its length is declared or streamed', async () => {
      const big = JSON.stringify({ name: 'Rex', categoryId: 1, padding: 'x'.repeat(17_000) });
      const declared = await api.authed(key, 'POST', '/v1/pets', { body: big, headers: { 'Content-Type': 'application/json' } });
      expect(declared.status).toBe(413);
      expect(declared.json).toEqual({ code: 'payload_too_large', status: 413, message: expect.any(String) });
      const chunked = await api.authed(key, 'POST', '/v1/pets', {
        body: big,
        headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      });
      expect(chunked.status).toBe(413);
    });

    it('applies the 16 KiB limit after decompression', async () => {
      const bomb = gzipSync(JSON.stringify({ name: 'Rex', categoryId: 1, padding: ' '.repeat(100_000) }));
      const response = await api.authed(key, 'POST', '/v1/pets', {
        body: bomb,
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      });
      expect(response.status).toBe(413);
    });

    it('rejects an unknown content encoding with 415', async () => {
      const response = await api.authed(key, 'POST', '/v1/pets', {
        body: '{"name":"Rex","categoryId":1}',
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'snappy' },
      });
      expect(response.status).toBe(415);
      expect(response.json).toMatchObject({ code: 'unsupported_media_type' });
    });
  });
});
