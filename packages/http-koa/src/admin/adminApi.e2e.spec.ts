import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { isWellFormedApiKeySecret } from '@petstore/core';
import { startTestApi, TEST_ADMIN_TOKEN, type TestApi } from '../testing/startTestApi.js';

const NOW = '2026-06-01T12:00:15Z';
type Json = Record<string, unknown>;

describe('the admin API, on its own listener', () => {
  let api: TestApi;

  beforeEach(async () => {
    api = await startTestApi({ now: NOW, ban: { strikes: 3, durationSeconds: 900, strikeIntervalSeconds: 0 } });
  });
  afterEach(() => api.close());

  const createKey = async (body: Json = { plan: 'free' }) => {
    const response = await api.admin('POST', '/admin/v1/keys', { body });
    expect(response.status).toBe(201);
    return response.json as Json & { id: string; key: string };
  };
  const auditTrail = async () => ((await api.admin('GET', '/admin/v1/audit-events')).json as { events: Json[] }).events;
  const keyCount = async () => ((await api.admin('GET', '/admin/v1/keys')).json as { keys: Json[] }).keys.length;

  describe('the admin token', () => {
    it.each([
      [
        'no Authorization header',
        {},
        'The admin token is required: send it as "Authorization: Bearer <ADMIN_TOKEN>".',
        'Bearer realm="petstore-admin"',
      ],
      [
        'a wrong token',
        { Authorization: `Bearer ${TEST_ADMIN_TOKEN}x` },
        'The admin token is invalid.',
        'Bearer realm="petstore-admin", error="invalid_token"',
      ],
      [
        'the token without the scheme',
        { Authorization: TEST_ADMIN_TOKEN },
        'The admin token is invalid.',
        'Bearer realm="petstore-admin", error="invalid_token"',
      ],
    ])('answers %s with 401 and the Error body, and does nothing', async (_, headers, message, challenge) => {
      const response = await api.admin('POST', '/admin/v1/keys', { headers: { Authorization: '', ...headers }, body: { plan: 'free' } });
      expect(response.status).toBe(401);
      expect(response.json).toEqual({ code: 'unauthorized', message, status: 401 });
      expect(response.headers['www-authenticate']).toBe(challenge);
      expect(await keyCount()).toBe(0);
    });

    it('answers a path it does not have with 401 too: without the token nothing about the interface is told', async () => {
      expect((await api.admin('GET', '/admin/v1/nothing-here', { headers: { Authorization: '' } })).status).toBe(401);
      expect((await api.admin('GET', '/admin/v1/nothing-here')).json).toMatchObject({ code: 'not_found', status: 404 });
    });

    it('refuses two Authorization headers with 400', async () => {
      const twice = [`Bearer ${TEST_ADMIN_TOKEN}`, `Bearer ${TEST_ADMIN_TOKEN}`];
      const response = await api.admin('GET', '/admin/v1/keys', { headers: { Authorization: twice } });
      expect(response.json).toEqual({ code: 'bad_request', message: 'Send one Authorization header, not several.', status: 400 });
    });

    it('is not reachable through the public listener, with or without the token', async () => {
      const response = await api.request('GET', '/admin/v1/keys', { headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      expect(response.status).toBe(404);
      expect(response.json).toMatchObject({ code: 'not_found' });
    });
  });

  describe('createKey', () => {
    it('creates a key whose secret, shown once as `key`, works on the public API at once', async () => {
      const created = await api.admin('POST', '/admin/v1/keys', { body: { name: 'partner', plan: 'pro', scopes: ['pets:read'], perDay: 20_000 } });
      expect(created.status).toBe(201);
      const body = created.json as Json & { id: string; key: string };
      expect(body).toMatchObject({
        name: 'partner',
        plan: 'pro',
        limits: { perMinute: 300, perDay: 20_000 },
        limitOverrides: { perMinute: null, perDay: 20_000 },
        scopes: ['pets:read'],
        status: 'active',
        expiresAt: null,
        disabled: false,
        createdAt: '2026-06-01T12:00:15.000Z',
        lastUsedAt: null,
        bannedUntil: null,
      });
      expect(isWellFormedApiKeySecret(body.key)).toBe(true);
      expect(created.headers['location']).toMatch(new RegExp(`/admin/v1/keys/${body.id}$`));
      expect((await api.authed(body.key, 'GET', '/v1/pets')).headers['x-ratelimit-limit']).toBe('300');

      for (const shown of [(await api.admin('GET', `/admin/v1/keys/${body.id}`)).text, (await api.admin('GET', '/admin/v1/keys')).text]) {
        expect(shown).toContain(body.id);
        expect(shown).not.toContain(body.key);
        expect(shown).not.toContain('"key"');
      }
      const [event] = await auditTrail();
      expect(event).toMatchObject({ actor: 'admin-api', action: 'key.created', keyId: body.id, changes: { plan: { before: null, after: 'pro' } } });
      expect(JSON.stringify(event)).not.toContain(body.key);
    });

    it.each<[string, unknown, Json]>([
      ['no plan', { name: 'x' }, { details: [{ field: 'plan', message: 'plan is required: one of free, pro, business, enterprise' }] }],
      ['an unknown plan', { plan: 'gold' }, { details: [{ field: 'plan', message: 'plan must be one of free, pro, business, enterprise' }] }],
      ['enterprise without its limits', { plan: 'enterprise' }, { details: [{ field: 'perMinute' }, { field: 'perDay' }] }],
      ['an unknown scope', { plan: 'free', scopes: ['pets:delete'] }, { details: [{ field: 'scopes' }] }],
      ['an expiry in the past', { plan: 'free', expiresAt: '2026-06-01T12:00:00Z' }, { details: [{ field: 'expiresAt' }] }],
      ['an unknown field', { plan: 'free', secret: 'pst_mine' }, { details: [{ field: 'secret' }] }],
      ['a body that is not an object', ['free'], { details: [{ field: 'body' }, { field: 'plan' }] }],
      ['a limit written with a fraction', '{"plan":"enterprise","perMinute":1.0,"perDay":1000}', { details: [{ field: 'perMinute' }] }],
      ['a limit written with an exponent', '{"plan":"pro","perDay":1e4}', { details: [{ field: 'perDay' }] }],
      [
        'a name with a right-to-left override',
        { plan: 'free', name: 'invoice\u202Efdp.exe' },
        { details: [{ field: 'name', message: expect.stringContaining('bidirectional') }] },
      ],
      [
        'a name with a line separator',
        { plan: 'free', name: 'a\u2028b' },
        { details: [{ field: 'name', message: expect.stringContaining('line or paragraph separators') }] },
      ],
      [
        'a name with an unpaired surrogate',
        '{"plan":"free","name":"a\\ud800"}',
        { details: [{ field: 'name', message: expect.stringContaining('unpaired surrogates') }] },
      ],
    ])('refuses %s with 400 validation_error, and stores nothing', async (_, body, expected) => {
      const response = await api.admin('POST', '/admin/v1/keys', { body, headers: { 'Content-Type': 'application/json' } });
      expect(response.status).toBe(400);
      expect(response.json).toMatchObject({ code: 'validation_error', status: 400, ...expected });
      expect(await keyCount()).toBe(0);
      expect(await auditTrail()).toEqual([]);
    });

    it('refuses a body that is not JSON (415, 400) as the public API does, and stores nothing', async () => {
      const asText = await api.admin('POST', '/admin/v1/keys', { headers: { 'Content-Type': 'text/plain' }, body: '{"plan":"free"}' });
      expect(asText.json).toMatchObject({ code: 'unsupported_media_type', status: 415 });
      const broken = await api.admin('POST', '/admin/v1/keys', { headers: { 'Content-Type': 'application/json' }, body: '{"plan":' });
      expect(broken.json).toMatchObject({ code: 'malformed_json', status: 400 });
      expect(await keyCount()).toBe(0);
    });
  });

  it('gives a read-only key 403 insufficient_scope on POST /v1/pets, with the RFC 6750 challenge', async () => {
    const { key } = await createKey({ plan: 'free', scopes: ['pets:read'] });
    expect((await api.authed(key, 'GET', '/v1/pets')).status).toBe(200);
    const refused = await api.authed(key, 'POST', '/v1/pets', { body: { name: 'Rex', categoryId: 1 } });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ code: 'insufficient_scope', status: 403 });
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="petstore", error="insufficient_scope", scope="pets:write"');
  });

  describe('updateKey', () => {
    it('changes the plan, scopes, expiry and disabled flag, each seen by the public API and audited before and after', async () => {
      const { id, key } = await createKey({ plan: 'free', name: 'shop' });
      const updated = await api.admin('PATCH', `/admin/v1/keys/${id}`, { body: { plan: 'pro', name: 'shop (paid)' } });
      expect(updated.status).toBe(200);
      expect(updated.json).toMatchObject({ id, plan: 'pro', name: 'shop (paid)', limits: { perMinute: 300, perDay: 10_000 } });
      expect((await api.authed(key, 'GET', '/v1/pets')).headers['x-ratelimit-limit']).toBe('300');

      await api.admin('PATCH', `/admin/v1/keys/${id}`, { body: { disabled: true } });
      expect((await api.authed(key, 'GET', '/v1/pets')).json).toMatchObject({ code: 'key_disabled', status: 401 });
      await api.admin('PATCH', `/admin/v1/keys/${id}`, { body: { disabled: false, expiresAt: '2026-06-01T13:00:00Z' } });
      expect((await api.authed(key, 'GET', '/v1/pets')).status).toBe(200);
      api.clock.set('2026-06-01T13:00:00Z');
      expect((await api.authed(key, 'GET', '/v1/pets')).json).toMatchObject({ code: 'key_expired', status: 401 });
      expect((await api.admin('GET', `/admin/v1/keys/${id}`)).json).toMatchObject({ status: 'expired' });

      const [latest] = await auditTrail();
      expect(latest).toMatchObject({
        actor: 'admin-api',
        action: 'key.updated',
        changes: { disabled: { before: true, after: false }, expiresAt: { before: null, after: '2026-06-01T13:00:00.000Z' } },
      });
    });

    it.each<[string, unknown, Json]>([
      ['an empty object', {}, { field: 'body' }],
      ['a field that is not a setting', { id: 'key_other' }, { field: 'id' }],
      ['a per-minute limit above the per-day one', { perMinute: 5_000 }, { field: 'perMinute' }],
      ['disabled as text', { disabled: 'yes' }, { field: 'disabled' }],
      [
        'a limit written 1.0',
        '{"perMinute":1.0}',
        { field: 'perMinute', message: 'perMinute must be an integer written without a fraction or exponent (got 1.0)' },
      ],
      [
        'a limit written 1e1',
        '{"perMinute":1e1}',
        { field: 'perMinute', message: 'perMinute must be an integer written without a fraction or exponent (got 1e1)' },
      ],
      ['a name with U+202E', { name: 'a\u202Eb' }, { field: 'name' }],
    ])('refuses %s with 400, changing nothing', async (_, body, problem) => {
      const { id } = await createKey();
      const before = (await api.admin('GET', `/admin/v1/keys/${id}`)).json;
      const response = await api.admin('PATCH', `/admin/v1/keys/${id}`, { body, headers: { 'Content-Type': 'application/json' } });
      expect(response.json).toMatchObject({ code: 'validation_error', status: 400, details: [problem] });
      expect((await api.admin('GET', `/admin/v1/keys/${id}`)).json).toEqual(before);
    });

    it('answers an unknown key with 404, and a revoked one with 400', async () => {
      expect((await api.admin('PATCH', '/admin/v1/keys/key_0000000000000000', { body: { plan: 'pro' } })).json).toMatchObject({
        code: 'not_found',
        status: 404,
      });
      const { id } = await createKey();
      await api.admin('POST', `/admin/v1/keys/${id}/revoke`);
      expect((await api.admin('PATCH', `/admin/v1/keys/${id}`, { body: { plan: 'pro' } })).json).toMatchObject({
        code: 'validation_error',
        details: [{ field: 'id', message: `API key ${id} is revoked and cannot be changed.` }],
      });
    });
  });

  describe('rotateKey', () => {
    it('without a body: a new secret for the same key; the old one works for 24 hours, then gets 401', async () => {
      const { id, key: oldSecret } = await createKey();
      const rotated = await api.admin('POST', `/admin/v1/keys/${id}/rotate`);
      expect(rotated.status).toBe(200);
      const { key: newSecret, ...view } = rotated.json as Json & { key: string };
      expect(view).toMatchObject({ id, previousSecretExpiresAt: '2026-06-02T12:00:15.000Z' });
      expect(isWellFormedApiKeySecret(newSecret) && newSecret !== oldSecret).toBe(true);
      expect((await api.authed(oldSecret, 'GET', '/v1/pets')).headers['x-ratelimit-remaining']).toBe('59');
      // One quota for both secrets while they overlap.
      expect((await api.authed(newSecret, 'GET', '/v1/pets')).headers['x-ratelimit-remaining']).toBe('58');
      api.clock.set('2026-06-02T12:00:15Z');
      expect((await api.authed(oldSecret, 'GET', '/v1/pets')).status).toBe(401);
      expect((await api.authed(newSecret, 'GET', '/v1/pets')).status).toBe(200);
      expect((await auditTrail())[0]).toMatchObject({ action: 'key.rotated', actor: 'admin-api' });
      expect(JSON.stringify(await auditTrail())).not.toContain(newSecret);
    });

    it('with gracePeriodSeconds 0 the old secret stops at once', async () => {
      const { id, key: oldSecret } = await createKey();
      const rotated = await api.admin('POST', `/admin/v1/keys/${id}/rotate`, { body: { gracePeriodSeconds: 0 } });
      expect((await api.authed(oldSecret, 'GET', '/v1/pets')).status).toBe(401);
      expect((await api.authed((rotated.json as { key: string }).key, 'GET', '/v1/pets')).status).toBe(200);
    });

    it('refuses the JSON body null with 400 and keeps the secret, as every operation does', async () => {
      const { id, key } = await createKey();
      const json = { 'Content-Type': 'application/json' };
      const response = await api.admin('POST', `/admin/v1/keys/${id}/rotate`, { body: 'null', headers: json });
      expect(response).toMatchObject({ status: 400, json: { code: 'validation_error', details: [{ field: 'body' }] } });
      expect((await api.authed(key, 'GET', '/v1/pets')).status).toBe(200);
      expect((await api.admin('GET', `/admin/v1/keys/${id}`)).json).toMatchObject({ previousSecretExpiresAt: null });
      const created = await api.authed(key, 'POST', '/v1/pets', { body: 'null', headers: json });
      expect(created).toMatchObject({ status: 400, json: { code: 'validation_error' } });
    });

    it.each([[-1], [2_592_001], ['3600'], [1.5]])('refuses gracePeriodSeconds %p with 400 and keeps the secret', async (gracePeriodSeconds) => {
      const { id, key } = await createKey();
      const response = await api.admin('POST', `/admin/v1/keys/${id}/rotate`, { body: { gracePeriodSeconds } });
      expect(response.json).toMatchObject({ code: 'validation_error', details: [{ field: 'gracePeriodSeconds' }] });
      expect((await api.authed(key, 'GET', '/v1/pets')).status).toBe(200);
      expect((await api.admin('GET', `/admin/v1/keys/${id}`)).json).toMatchObject({ previousSecretExpiresAt: null });
    });
  });

  it('revokes a key for good: 401 on the public API at once; revoking again answers the same', async () => {
    const { id, key } = await createKey();
    const revoked = await api.admin('POST', `/admin/v1/keys/${id}/revoke`);
    expect(revoked.json).toMatchObject({ id, status: 'revoked', revokedAt: '2026-06-01T12:00:15.000Z' });
    expect((await api.authed(key, 'GET', '/v1/pets')).status).toBe(401);
    api.clock.set('2026-06-01T12:05:00Z');
    expect((await api.admin('POST', `/admin/v1/keys/${id}/revoke`)).json).toMatchObject({ revokedAt: '2026-06-01T12:00:15.000Z' });
    expect((await api.admin('POST', '/admin/v1/keys/key_0000000000000000/revoke')).status).toBe(404);
  });

  it('lifts a ban: bannedUntil null, audited with the ban it lifted; the full minute still answers 429 rate_limited', async () => {
    const { id, key } = await createKey({ plan: 'enterprise', perMinute: 1, perDay: 1_000 });
    await api.authed(key, 'GET', '/v1/pets');
    for (let i = 0; i < 4; i++) await api.authed(key, 'GET', '/v1/pets');
    expect((await api.authed(key, 'GET', '/v1/pets')).json).toMatchObject({ code: 'key_banned' });
    expect((await api.admin('GET', `/admin/v1/keys/${id}`)).json).toMatchObject({ bannedUntil: expect.any(String) });

    const unbanned = await api.admin('POST', `/admin/v1/keys/${id}/unban`);
    expect(unbanned.json).toMatchObject({ id, bannedUntil: null });
    expect((await api.authed(key, 'GET', '/v1/pets')).json).toMatchObject({ code: 'rate_limited' });
    api.clock.set('2026-06-01T12:01:00Z');
    expect((await api.authed(key, 'GET', '/v1/pets')).status).toBe(200);
    expect((await auditTrail())[0]).toMatchObject({ action: 'key.unbanned', changes: { bannedUntil: { before: expect.any(String), after: null } } });
  });

  it("answers a key's requests per UTC day, admitted and limited, and its last use, once the instance has flushed them", async () => {
    const { id, key } = await createKey({ plan: 'free', perMinute: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await api.authed(key, 'GET', '/v1/pets')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    await api.store.keyUsageRecorder.flush();
    const usage = await api.admin('GET', `/admin/v1/keys/${id}/usage?from=2026-05-31&to=2026-06-01`);
    expect(usage.json).toEqual({
      keyId: id,
      from: '2026-05-31',
      to: '2026-06-01',
      days: [
        { day: '2026-05-31', requests: 0, limited: 0 },
        { day: '2026-06-01', requests: 3, limited: 1 },
      ],
      lastUsedAt: '2026-06-01T12:00:15.000Z',
    });
    expect((await api.admin('GET', `/admin/v1/keys/${id}`)).json).toMatchObject({ lastUsedAt: '2026-06-01T12:00:15.000Z' });
    expect((await api.admin('GET', `/admin/v1/keys/${id}/usage?from=yesterday`)).json).toMatchObject({ details: [{ field: 'from' }] });
    expect((await api.admin('GET', `/admin/v1/keys/${id}/usage?days=7`)).json).toMatchObject({ details: [{ field: 'days' }] });
    expect((await api.admin('GET', '/admin/v1/keys/key_0000000000000000/usage')).status).toBe(404);
  });

  it('pages through keys (oldest first) and audit events (newest first, one key or all) with limit and nextCursor', async () => {
    const first = await createKey({ plan: 'free', name: 'one' });
    api.clock.advance(1_000);
    const second = await createKey({ plan: 'free', name: 'two' });
    await api.admin('PATCH', `/admin/v1/keys/${first.id}`, { body: { name: 'one again' } });

    const page1 = (await api.admin('GET', '/admin/v1/keys?limit=1')).json as { keys: Json[]; nextCursor: string };
    expect(page1.keys.map((k) => k.id)).toEqual([first.id]);
    const page2 = (await api.admin('GET', `/admin/v1/keys?limit=1&cursor=${page1.nextCursor}`)).json as { keys: Json[]; nextCursor: null };
    expect(page2).toMatchObject({ keys: [{ id: second.id }], nextCursor: null });

    const events = (await api.admin('GET', '/admin/v1/audit-events?limit=2')).json as { events: Json[]; nextCursor: string };
    expect(events.events.map((e) => [e.action, e.keyId])).toEqual([
      ['key.updated', first.id],
      ['key.created', second.id],
    ]);
    const older = (await api.admin('GET', `/admin/v1/audit-events?limit=2&cursor=${events.nextCursor}`)).json;
    expect(older).toMatchObject({ events: [{ action: 'key.created', keyId: first.id }], nextCursor: null });
    const ofOne = (await api.admin('GET', `/admin/v1/audit-events?keyId=${second.id}`)).json as { events: Json[] };
    expect(ofOne.events.map((e) => e.keyId)).toEqual([second.id]);

    expect((await api.admin('GET', '/admin/v1/keys?limit=0')).json).toMatchObject({ details: [{ field: 'limit' }] });
    expect((await api.admin('GET', '/admin/v1/keys?cursor=nope')).json).toMatchObject({ details: [{ field: 'cursor' }] });
    expect((await api.admin('GET', '/admin/v1/audit-events?actor=cli')).json).toMatchObject({ details: [{ field: 'actor' }] });
  });

  it("accepts every listing's documented cursor example: the example is a cursor this server writes for that listing", async () => {
    type Parameter = { name: string; in: string; example?: unknown };
    const document = (await api.admin('GET', '/admin/v1/openapi.json')).json as {
      paths: Record<string, Record<string, { operationId: string; parameters?: Parameter[] }>>;
    };
    const listings = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method, operation]) => method === 'get' && operation.parameters?.some((p) => p.name === 'cursor'))
        .map(([, operation]) => ({ path, operation })),
    );
    expect(listings.map(({ operation }) => operation.operationId).sort()).toEqual(
      ['listAuditEvents', 'listEvents', 'listKeys', 'listPets', 'listWebhookDeliveries', 'listWebhookEndpoints'].sort(),
    );
    // The endpoint the delivery log's examples name.
    const endpointId = String(listings.flatMap(({ operation }) => operation.parameters!).find((p) => p.name === 'endpointId')!.example);
    await api.webhooks.create({
      id: endpointId,
      url: 'https://crm.example.org/hooks',
      eventTypes: ['pet.created'],
      description: '',
      disabled: false,
      disabledReason: null,
      createdAt: new Date('2026-06-01T12:00:00Z'),
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      previousSecret: null,
      previousSecretExpiresAt: null,
      version: 1,
    });
    for (const { path, operation } of listings) {
      const parameters = operation.parameters!;
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => String(parameters.find((p) => p.name === name)!.example));
      // Every query parameter's example, as tools send them.
      const query = new URLSearchParams(
        parameters.filter((p) => p.in === 'query' && p.example !== undefined).map((p): [string, string] => [p.name, String(p.example)]),
      );
      const answer = await api.admin('GET', `/admin/v1${url}?${query}`);
      expect({ operation: operation.operationId, status: answer.status }).toEqual({ operation: operation.operationId, status: 200 });
    }
  });

  it('serves its OpenAPI document with the nine operations, and answers 405 with Allow and OPTIONS from the declarations', async () => {
    const document = (await api.admin('GET', '/admin/v1/openapi.json')).json as { paths: Record<string, Record<string, { operationId?: string }>> };
    const ids = Object.values(document.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    expect(ids).toEqual(
      expect.arrayContaining([
        'createKey',
        'listKeys',
        'getKey',
        'updateKey',
        'rotateKey',
        'revokeKey',
        'unbanKey',
        'getKeyUsage',
        'listAuditEvents',
      ]),
    );
    const wrong = await api.admin('DELETE', '/admin/v1/keys/key_0000000000000000');
    expect(wrong.status).toBe(405);
    expect(wrong.headers['allow']).toBe('GET, HEAD, PATCH, OPTIONS');
    const options = await api.admin('OPTIONS', '/admin/v1/keys');
    expect([options.status, options.headers['allow']]).toEqual([204, 'POST, GET, HEAD, OPTIONS']);
  });
});
