import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { listAllPets } from './testing/api.js';
import { issueKey, issueUnlimitedKey, spawnServer, STOPPED_AT_ONCE, WITH_ADMIN_API, type ServerProcess } from '@petstore/test-support';

/**
 * Property-based bad input against the real server: random methods, paths, query strings, headers (oversized
 * ones included), content types and bodies. FUZZ_RUNS sets the number of requests (CI runs a seeded few hundred;
 * `pnpm fuzz` runs 10,000); FUZZ_SEED replays a run.
 */
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 400);
const SEED = Number(process.env['FUZZ_SEED'] ?? 20261122);

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function send(url: string, req: Sent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const r = httpRequest(`${url}${req.path}`, { method: req.method, headers: req.headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    r.on('error', reject);
    r.end(req.body);
  });
}

const printable = (maxLength: number) => fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength });
const token = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_'.split('')),
  minLength: 1,
  maxLength: 20,
});

/** Request bodies: valid and invalid pets, any JSON, text, oversized, duplicate keys, deep nesting, non-integer numbers. */
function bodies(): fc.Arbitrary<string | undefined> {
  // Deep nesting, bare or as the value of a pet's field, balanced or not: parsers and scans that recurse overflow here.
  const nested = fc
    .record({
      depth: fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 2_000, max: 8_150 })),
      open: fc.constantFrom('[', '[', '{"":', '[{"":'),
      inPet: fc.boolean(),
      balanced: fc.boolean(),
    })
    .map(({ depth, open, inPet, balanced }) => {
      const close = [...open]
        .filter((c) => c === '[' || c === '{')
        .map((c) => (c === '[' ? ']' : '}'))
        .reverse()
        .join('');
      const value = `${open.repeat(depth)}${open.endsWith(':') ? '1' : ''}${balanced ? close.repeat(depth) : ''}`;
      return inPet ? `{"name":"Deep","categoryId":1,"x":${value}}` : value;
    });
  return fc.oneof(
    fc.constant(undefined),
    fc.json(),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc
      .record(
        {
          name: fc.oneof(fc.string(), fc.constant('Rex')),
          categoryId: fc.oneof(fc.integer(), fc.double(), fc.constant(1), fc.string()),
          status: fc.option(fc.constantFrom('available', 'pending', 'sold', 'gone', null)),
        },
        { requiredKeys: [] },
      )
      .map((v) => JSON.stringify(v)),
    fc
      .dictionary(fc.oneof(token, fc.constantFrom('__proto__', 'constructor', 'id', 'name')), fc.jsonValue(), { maxKeys: 5 })
      .map((v) => JSON.stringify(v)),
    printable(200),
    fc.constant(`{"name":"Big","categoryId":1,"pad":"${'x'.repeat(17_000)}"}`),
    fc.constant('{"name":"Dup","name":"Dup","categoryId":1}'),
    nested,
    nested,
    fc.constantFrom('4.9999999999999999', '1.0', '1e0', '9007199254740991.4').map((n) => `{"name":"Float","categoryId":${n}}`),
  );
}

function requests(validKey: string, revokedKey: string): fc.Arbitrary<Sent> {
  const method = fc.oneof(
    fc.constantFrom('GET', 'GET', 'POST', 'POST', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'PATCH'),
    token.map((t) => t.toUpperCase().replace(/[^A-Z]/g, 'X')),
  );
  const segment = fc.oneof(
    fc.constantFrom('1', '0', '-1', '9007199254740993', 'abc', '%E0%A4%A', '%00', '..', 'pets', ''),
    token,
    printable(30).map(encodeURIComponent),
  );
  const basePath = fc.oneof(
    fc.constantFrom('/v1/pets', '/v1/pets', '/v1/pets/1', '/v1/openapi.json', '/livez', '/readyz', '/', '/v1', '/V1/PETS', '/v1/pets/'),
    segment.map((s) => `/v1/pets/${s}`),
    fc.array(segment, { maxLength: 4 }).map((s) => `/${s.join('/')}`),
  );
  const queryValue = fc.oneof(fc.constantFrom('20', '0', '101', '1.5', 'sold', 'available', 'SOLD', ''), printable(40));
  const query = fc.array(fc.tuple(fc.oneof(fc.constantFrom('limit', 'status', 'cursor', '__proto__', 'status[]'), token), queryValue), {
    maxLength: 4,
  });
  const path = fc.tuple(basePath, query).map(([p, q]) => (q.length ? `${p}?${new URLSearchParams(q).toString()}` : p));
  const authorization = fc.oneof(
    fc.constant(`Bearer ${validKey}`),
    fc.constant(`Bearer ${validKey}`),
    fc.constant(`bearer ${validKey}`),
    fc.constant(`Bearer ${revokedKey}`),
    fc.constant(undefined),
    printable(60),
    printable(60).map((t) => `Bearer ${t}`),
  );
  const contentType = fc.oneof(
    fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'application/json; charset=latin1',
      'application/x-www-form-urlencoded',
      'text/plain',
      'application/vnd.api+json',
      undefined,
    ),
    printable(40),
  );
  const body = bodies();
  const extraHeader = fc.option(
    fc.tuple(
      token.map((t) => `X-${t}`),
      fc.oneof(printable(100), fc.constant('y'.repeat(20_000))),
    ),
  );
  const requestId = fc.option(printable(150));
  const idempotencyKey = fc.option(fc.oneof(token, printable(300)));
  return fc.record({ method, path, authorization, contentType, body, extraHeader, requestId, idempotencyKey }).map((r) => {
    const headers: Record<string, string> = {};
    if (r.authorization !== undefined) headers['Authorization'] = r.authorization;
    if (r.contentType !== undefined) headers['Content-Type'] = r.contentType;
    if (r.extraHeader) headers[r.extraHeader[0]] = r.extraHeader[1];
    if (r.requestId !== null) headers['X-Request-Id'] = r.requestId;
    if (r.idempotencyKey !== null) headers['Idempotency-Key'] = r.idempotencyKey;
    const hasBody = r.body !== undefined && !['GET', 'HEAD'].includes(r.method);
    return { method: r.method, path: r.path, headers, body: hasBody ? r.body : undefined };
  });
}

const dir = mkdtempSync(join(tmpdir(), 'petstore-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe(`fuzzing the real server (${RUNS} requests, seed ${SEED})`, () => {
  const databaseUrl = `sqlite:${join(dir, 'fuzz.db')}`;
  let server: ServerProcess;
  let key: string;
  let revoked: string;

  beforeAll(async () => {
    server = await spawnServer({
      ...STOPPED_AT_ONCE,
      ...WITH_ADMIN_API,
      DATABASE_URL: databaseUrl,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      FAILED_AUTH_PER_MINUTE: '1000000',
    });
    key = await issueUnlimitedKey(server);
    const other = await issueKey(server, { plan: 'free' });
    revoked = other.key;
    const revocation = await fetch(`${server.adminUrl}/keys/${other.id}/revoke`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.adminToken}` },
    });
    expect(revocation.ok).toBe(true);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  const countPets = async () => (await listAllPets(server, key)).length;

  it('never answers 5xx, always with the exact Error shape, and stores nothing for a 4xx', async () => {
    const origin = server.url.replace(/\/v1$/, '');
    const before = await countPets();
    let created = 0;
    await fc.assert(
      fc.asyncProperty(requests(key, revoked), async (req) => {
        const answer = await send(origin, req);
        expect(answer.status).toBeLessThan(500);
        if (answer.status === 201 && answer.headers['idempotent-replayed'] !== 'true') created++;
        if (answer.status < 400 || req.method === 'HEAD') return;
        expect(answer.headers['content-type']).toBe('application/json');
        const body = JSON.parse(answer.text) as Record<string, unknown>;
        expect(body['status']).toBe(answer.status);
        expect(Object.keys(body).sort()).toEqual(
          body['code'] === 'validation_error' ? ['code', 'details', 'message', 'status'] : ['code', 'message', 'status'],
        );
        expect(typeof body['code']).toBe('string');
        expect(typeof body['message']).toBe('string');
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    expect((await countPets()) - before).toBe(created);
  }, 600_000);

  it('answers every body of an authenticated POST /v1/pets with a 201 or a 4xx Error body, never a 5xx', async () => {
    const origin = server.url.replace(/\/v1$/, '');
    const before = await countPets();
    let created = 0;
    const posts = fc.record({ body: bodies(), gzip: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(posts, async ({ body, gzip }) => {
        const headers: Record<string, string> = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
        if (gzip) headers['Content-Encoding'] = 'gzip';
        const payload = gzip && body !== undefined ? gzipSync(body) : body;
        const answer = await send(origin, { method: 'POST', path: '/v1/pets', headers, body: payload });
        expect(answer.status).toBeLessThan(500);
        if (answer.status === 201) return void created++;
        const error = JSON.parse(answer.text) as Record<string, unknown>;
        expect(error).toMatchObject({ status: answer.status, code: expect.any(String), message: expect.any(String) });
      }),
      { numRuns: Math.ceil(RUNS / 2), seed: SEED, endOnFailure: true },
    );
    expect((await countPets()) - before).toBe(created);
  }, 600_000);
});
