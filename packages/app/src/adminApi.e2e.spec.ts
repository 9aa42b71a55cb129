import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, runCli, runNodeProcess, SERVER_ENTRY, spawnServer, STOPPED_AT_ONCE, type ServerProcess } from '@petstore/test-support';
import { describeWithPostgres } from '@petstore/test-support/jest';

const ADMIN_TOKEN = 'e2e-admin-token-5f1c0a9e7b3d2c4a6e8f0b1d3c5a7e9f';
const dir = mkdtempSync(join(tmpdir(), 'petstore-admin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The admin API of the built server, on its own port, as an operator's backend calls it.
describe('the built server with ADMIN_TOKEN', () => {
  const databaseUrl = `sqlite:${join(dir, 'admin.db')}`;
  let server: ServerProcess;
  let adminUrl: string;
  const admin = (method: string, path: string, body?: unknown, token = ADMIN_TOKEN) =>
    fetch(`${adminUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    server = await spawnServer({ DATABASE_URL: databaseUrl, ...STOPPED_AT_ONCE, ADMIN_TOKEN, ADMIN_PORT: '0' });
    adminUrl = server.adminUrl!;
  }, 30_000);
  afterAll(() => server.stop());

  it('listens on a port of its own, on loopback; the public port does not answer it', async () => {
    expect(adminUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/admin\/v1$/);
    expect(new URL(adminUrl).port).not.toBe(new URL(server.url).port);
    const publicAttempt = await fetch(`${new URL(server.url).origin}/admin/v1/keys`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(publicAttempt.status).toBe(404);
    expect((await admin('GET', '/keys', undefined, 'not-the-admin-token-not-the-admin-token')).status).toBe(401);
  });

  it('creates a key the public API accepts, with its scopes; the audit trail names the actor, from the API and the CLI alike', async () => {
    const created = await admin('POST', '/keys', { name: 'reader', plan: 'pro', scopes: ['pets:read'] });
    expect(created.status).toBe(201);
    const { id, key } = (await created.json()) as { id: string; key: string };
    expect(created.headers.get('location')).toBe(`${adminUrl}/keys/${id}`);
    const listed = await fetch(`${server.url}/pets`, { headers: { Authorization: `Bearer ${key}` } });
    expect([listed.status, listed.headers.get('x-ratelimit-limit')]).toEqual([200, '300']);
    const write = await fetch(`${server.url}/pets`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    });
    expect(write.status).toBe(403);

    expect((await runCli(['keys', 'update', id, '--plan', 'business'], { DATABASE_URL: databaseUrl })).code).toBe(0);
    const trail = (await (await admin('GET', `/audit-events?keyId=${id}`)).json()) as { events: { actor: string; action: string }[] };
    expect(trail.events.map((e) => [e.actor, e.action])).toEqual([
      ['cli', 'key.updated'],
      ['admin-api', 'key.created'],
    ]);
    const viaCli = await runCli(['keys', 'audit', id, '--json'], { DATABASE_URL: databaseUrl });
    expect((JSON.parse(viaCli.stdout) as { events: { actor: string }[] }).events.map((e) => e.actor)).toEqual(['cli', 'admin-api']);
    // Neither the admin token nor a key's secret reaches a log line.
    await eventually(() => server.output().includes('"admin request"'));
    expect(server.output()).not.toContain(ADMIN_TOKEN);
    expect(server.output()).not.toContain(key);
  });

  it('serves its OpenAPI document, naming every admin operation', async () => {
    const document = (await (await admin('GET', '/openapi.json')).json()) as { servers: { url: string }[]; paths: object };
    expect(document.servers).toEqual([{ url: adminUrl }]);
    const ids = JSON.stringify(document.paths).match(/"operationId":"[A-Za-z]+"/g);
    for (const id of ['createKey', 'listKeys', 'getKey', 'updateKey', 'rotateKey', 'revokeKey', 'unbanKey', 'getKeyUsage', 'listAuditEvents']) {
      expect(ids).toContain(`"operationId":"${id}"`);
    }
  });
});

describeWithPostgres('the built server with ADMIN_TOKEN on PostgreSQL', (postgres) => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await spawnServer({ DATABASE_URL: postgres().url, ...STOPPED_AT_ONCE, ADMIN_TOKEN, ADMIN_PORT: '0' });
  }, 30_000);
  afterAll(() => server.stop());

  const admin = (method: string, path: string, body?: unknown) =>
    fetch(`${server.adminUrl!}${path}`, {
      method,
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it.each([
    ['GET', '/keys/a%00', undefined],
    ['GET', '/keys/key_%00abc', undefined],
    ['PATCH', '/keys/a%00', { name: 'x' }],
    ['POST', '/keys/a%00/rotate', undefined],
    ['POST', '/keys/a%00/revoke', undefined],
    ['POST', '/keys/a%00/unban', undefined],
    ['GET', '/keys/a%00/usage', undefined],
    ['GET', '/keys/%E2%80%AE/usage', undefined],
  ])('answers %s %s, an id no key can have, with 404 like any unknown id', async (method, path, body) => {
    const response = await admin(method, path, body);
    expect([response.status, await response.json()]).toEqual([
      404,
      { code: 'not_found', status: 404, message: expect.stringMatching(/^No API key with id /) },
    ]);
  });

  it('refuses audit-events?keyId= with a NUL byte with 400 on keyId', async () => {
    const response = await admin('GET', '/audit-events?keyId=a%00');
    expect([response.status, await response.json()]).toMatchObject([400, { code: 'validation_error', details: [{ field: 'keyId' }] }]);
  });
});

describe('the built server with the admin API on every interface (ADMIN_HOST=0.0.0.0)', () => {
  const headers = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };

  it('names ADMIN_PUBLIC_BASE_URL in Location and in its document, and warns when it is unset', async () => {
    const base = 'https://admin.example.com/admin/v1';
    const named = await spawnServer({
      DATABASE_URL: `sqlite:${join(dir, 'wildcard.db')}`,
      ...STOPPED_AT_ONCE,
      ADMIN_TOKEN,
      ADMIN_PORT: '0',
      ADMIN_HOST: '0.0.0.0',
      ADMIN_PUBLIC_BASE_URL: base,
    });
    try {
      const local = named.adminUrl!.replace('0.0.0.0', '127.0.0.1');
      const created = await fetch(`${local}/keys`, { method: 'POST', headers, body: JSON.stringify({ name: 'partner', plan: 'free' }) });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      expect(created.headers.get('location')).toBe(`${base}/keys/${id}`);
      const document = (await (await fetch(`${local}/openapi.json`, { headers })).json()) as { servers: { url: string }[] };
      expect(document.servers).toEqual([{ url: base }]);
      await eventually(() => named.output().includes('"admin request"'));
      expect(named.output()).not.toContain('set ADMIN_PUBLIC_BASE_URL');
    } finally {
      await named.stop();
    }

    const unnamed = await spawnServer({
      ...STOPPED_AT_ONCE,
      DATABASE_URL: `sqlite:${join(dir, 'wildcard.db')}`,
      ADMIN_TOKEN,
      ADMIN_PORT: '0',
      ADMIN_HOST: '0.0.0.0',
    });
    try {
      await eventually(() => unnamed.output().includes("The admin API's Location names a wildcard address"), { timeoutMs: 30_000 });
    } finally {
      await unnamed.stop();
    }
  }, 60_000);
});

describe('the built server without ADMIN_TOKEN', () => {
  it('opens no admin listener', async () => {
    const server = await spawnServer({ ...STOPPED_AT_ONCE, DATABASE_URL: `sqlite:${join(dir, 'plain.db')}` });
    try {
      expect([server.adminUrl, server.output()]).toEqual([null, expect.not.stringContaining('Admin API')]);
    } finally {
      await server.stop();
    }
  }, 30_000);

  it('refuses ADMIN_PORT alone, a short token and a weak one, with exit code 2 and one line (never the token)', async () => {
    const alone = await runNodeProcess(SERVER_ENTRY, [], { ADMIN_PORT: '3001', DATABASE_URL: `sqlite:${join(dir, 'x.db')}` });
    expect([alone.code, alone.stderr.trim()]).toEqual([
      2,
      'ADMIN_PORT="3001" is invalid: expected ADMIN_TOKEN to be set too: the admin API listens only when it has a token',
    ]);
    const short = await runNodeProcess(SERVER_ENTRY, [], { ADMIN_TOKEN: 'hunter2-hunter2', DATABASE_URL: `sqlite:${join(dir, 'x.db')}` });
    expect(short.code).toBe(2);
    expect(short.stderr).not.toContain('hunter2');
    const repeated = await runNodeProcess(SERVER_ENTRY, [], { ADMIN_TOKEN: 'a'.repeat(32), DATABASE_URL: `sqlite:${join(dir, 'x.db')}` });
    expect([repeated.code, repeated.stdout, repeated.stderr.trim()]).toEqual([
      2,
      '',
      'ADMIN_TOKEN="(hidden, 32 characters)" is invalid: expected a random token of at least 128 bits of estimated entropy (this one: about 8), such as the output of openssl rand -hex 32',
    ]);
  }, 30_000);
});
