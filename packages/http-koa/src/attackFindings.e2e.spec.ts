import { connect, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { encodePetCursor, hashApiKeySecret, eventsOfCreate } from '@petstore/core';
import { eventually } from '@petstore/test-support';
import { startTestApiWithKey, type TestApi } from './testing/startTestApi.js';

// What an outside attack on the service found, each case as a client sees it.
describe('what a fresh attack found', () => {
  let api: TestApi;
  let key: string;

  beforeEach(async () => ({ api, key } = await startTestApiWithKey()));
  afterEach(() => api.close());

  /** A raw connection to the test API, with what it received so far and whether the server closed it. */
  function rawConnection(): { socket: Socket; received: () => string; closed: () => boolean } {
    const socket = connect(Number(new URL(api.baseUrl).port), '127.0.0.1');
    let text = '';
    let closed = false;
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', () => undefined); // the server resetting a client that keeps sending is the point
    socket.on('close', () => (closed = true));
    return { socket, received: () => text, closed: () => closed };
  }

  describe('an answer given before the body was read ends the connection', () => {
    it.each([
      ['401 without a key', '', 'application/json'],
      ['415 for another content type', 'Authorization: Bearer KEY\r\n', 'text/plain'],
    ])(
      '%s: Connection: close, and the rest of a 1 GB body is not read',
      async (_name, auth, type) => {
        const { socket, received, closed } = rawConnection();
        socket.write(
          `POST /v1/pets HTTP/1.1\r\nHost: test\r\n${auth.replace('KEY', key)}Content-Type: ${type}\r\nContent-Length: 1000000000\r\n\r\n`,
        );
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        let sent = 0;
        const pump = () => {
          while (!closed() && sent < 1e9 && socket.write(chunk)) sent += chunk.length;
          if (!closed()) sent += chunk.length;
        };
        socket.on('drain', pump);
        pump();
        await eventually(() => closed(), { timeoutMs: 20_000 });
        expect(received()).toMatch(/^HTTP\/1\.1 4(01|15) /);
        expect(received().toLowerCase()).toContain('connection: close');
        // The kernel's buffers take a few megabytes before the server closes; nowhere near the declared gigabyte.
        expect(sent).toBeLessThan(200 * 1024 * 1024);
      },
      30_000,
    );

    it('keeps the connection of an answer whose request had no body', async () => {
      const response = await fetch(`${api.baseUrl}/v1/pets`, { headers: { Authorization: `Bearer ${key}` } });
      expect(response.headers.get('connection')).toBe('keep-alive');
    });
  });

  it('checks the key again when a slow body has arrived: revoked meanwhile, the create is refused and nothing stored', async () => {
    const { key: record } = (await api.keys.findByHash(hashApiKeySecret(key)))!;
    const body = JSON.stringify({ name: 'Rex', categoryId: 1 });
    const { socket, received, closed } = rawConnection();
    socket.write(
      `POST /v1/pets HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    // Admitted (the key was valid when the headers came): counted, the body still on its way.
    await eventually(async () => (await api.store.getRateLimitUsage.execute(record.id)).windows[0]!.used === 1);
    await api.keys.revoke(record.id, api.clock.now());
    socket.end(body.slice(5));
    await eventually(() => closed() || /\r\n\r\n\{.*\}$/.test(received()), { timeoutMs: 10_000 });
    expect(received()).toMatch(/^HTTP\/1\.1 401 /);
    expect(api.pets.count()).toBe(0);
  });

  describe('headers sent twice, or with another case', () => {
    it('refuses two Idempotency-Key headers (Node would join them into "a, b") and stores nothing', async () => {
      const response = await api.authed(key, 'POST', '/v1/pets', {
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': ['a', 'b'] },
        body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
      });
      expect(response.status).toBe(400);
      expect(response.json).toMatchObject({ code: 'bad_request', message: 'Send one Idempotency-Key header, not several.' });
      expect(api.pets.count()).toBe(0);
    });

    it.each([
      ['content-type', ['application/json', 'text/plain']],
      ['content-type', ['text/plain', 'application/json']],
      ['content-encoding', ['identity', 'gzip']],
    ])('refuses two %s headers (%j) with 400 in either order, and stores nothing', async (name, values) => {
      const { socket, received, closed } = rawConnection();
      const body = JSON.stringify({ name: 'Rex', categoryId: 1 });
      const repeated = values.map((value) => `${name}: ${value}\r\n`).join('');
      socket.end(`POST /v1/pets HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${key}\r\n${repeated}Content-Length: ${body.length}\r\n\r\n${body}`);
      await eventually(() => closed() || /\r\n\r\n\{.*\}$/.test(received()), { timeoutMs: 10_000 });
      expect(received()).toMatch(/^HTTP\/1\.1 400 /);
      const display = name.replace(/(^|-)[a-z]/g, (letter) => letter.toUpperCase());
      expect(received()).toContain(`"message":"Send one ${display} header, not several."`);
      expect(api.pets.count()).toBe(0);
    });

    it('refuses two Host headers with 400 (RFC 9112 section 3.2)', async () => {
      const { socket, received, closed } = rawConnection();
      socket.end(`GET /v1/pets HTTP/1.1\r\nHost: a\r\nHost: b\r\nAuthorization: Bearer ${key}\r\n\r\n`);
      await eventually(() => closed() || received().includes('\r\n\r\n'), { timeoutMs: 10_000 });
      expect(received()).toMatch(/^HTTP\/1\.1 400 /);
      expect(received()).toContain('"code":"bad_request"');
    });

    it.each(['GZIP', 'Gzip', 'x-gzip', 'X-GZIP'])(
      'reads a body with Content-Encoding: %s as gzip (coding names are case-insensitive)',
      async (coding) => {
        const response = await api.authed(key, 'POST', '/v1/pets', {
          headers: { 'Content-Type': 'application/json', 'Content-Encoding': coding },
          body: gzipSync(JSON.stringify({ name: 'Rex', categoryId: 1 })),
        });
        expect(response.status).toBe(201);
      },
    );
  });

  it('refuses a cursor whose last character was changed, even where it decodes to the same bytes', async () => {
    for (let i = 0; i < 25; i++) await api.pets.create({ name: `pet ${i}`, categoryId: 1, status: 'available' }, eventsOfCreate());
    const cursor = encodePetCursor(420, undefined);
    const edited = cursor.slice(0, -1) + String.fromCharCode(cursor.charCodeAt(cursor.length - 1) + 1);
    expect(Buffer.from(edited, 'base64url')).toEqual(Buffer.from(cursor, 'base64url'));
    expect((await api.authed(key, 'GET', `/v1/pets?cursor=${cursor}`)).status).toBe(200);
    const response = await api.authed(key, 'GET', `/v1/pets?cursor=${edited}`);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 'validation_error', details: [{ field: 'cursor' }] });
  });

  it('answers a body with 1,800 unknown keys briefly: the error lists 20 of them', async () => {
    const body = JSON.stringify(
      Object.fromEntries([['name', 'Rex'], ['categoryId', 1], ...Array.from({ length: 1800 }, (_, i) => [i.toString(36), 1])]),
    );
    expect(body.length).toBeGreaterThan(10_000);
    const response = await api.authed(key, 'POST', '/v1/pets', { headers: { 'Content-Type': 'application/json' }, body });
    expect(response.status).toBe(400);
    expect((response.json as { details: unknown[] }).details).toHaveLength(20);
    expect(response.text.length).toBeLessThan(2_000);
    expect(api.pets.count()).toBe(0);
  });

  describe('one rule each', () => {
    it.each([
      ['POST', '/v1/pets?dryRun=true'],
      ['GET', '/v1/pets/1?fields=name'],
      ['GET', '/v1/rate_limit?verbose=1'],
      ['GET', '/v1/pets?staus=sold'],
    ])('refuses an unknown query parameter on every operation: %s %s', async (method, path) => {
      await api.pets.create({ name: 'Rex', categoryId: 1, status: 'available' }, eventsOfCreate());
      const response = await api.authed(key, method, path, {
        headers: { 'Content-Type': 'application/json' },
        ...(method === 'POST' && { body: JSON.stringify({ name: 'Ivy', categoryId: 1 }) }),
      });
      expect(response.status).toBe(400);
      expect(response.json).toMatchObject({
        code: 'validation_error',
        details: [{ field: expect.any(String), message: expect.stringContaining('not a known query parameter') }],
      });
      expect(api.pets.count()).toBe(1);
    });

    it('tells a 1,000-digit categoryId that it is out of range', async () => {
      const response = await api.authed(key, 'POST', '/v1/pets', {
        headers: { 'Content-Type': 'application/json' },
        body: `{"name":"Rex","categoryId":${'9'.repeat(1000)}}`,
      });
      expect(response.json).toMatchObject({
        code: 'validation_error',
        details: [{ field: 'categoryId', message: 'categoryId must be between 1 and 9007199254740991' }],
      });
    });

    it.each(['Bearer\tKEY', 'Bearer  KEY', 'bearer \t KEY', 'Bearer KEY\t'])('accepts spaces and tabs around the key alike: %j', async (header) => {
      expect((await api.request('GET', '/v1/pets', { headers: { Authorization: header.replace('KEY', key) } })).status).toBe(200);
    });

    it('counts a name in code points, as the document says: one letter and a thousand combining marks is refused', async () => {
      const response = await api.authed(key, 'POST', '/v1/pets', {
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `R${'\u0301'.repeat(1000)}`, categoryId: 1 }),
      });
      expect(response.json).toMatchObject({ code: 'validation_error', details: [{ field: 'name' }] });
      expect(api.pets.count()).toBe(0);
    });
  });
});
