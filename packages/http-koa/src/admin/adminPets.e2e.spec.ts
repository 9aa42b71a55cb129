import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApi, type TestApi } from '../testing/startTestApi.js';

type Json = Record<string, unknown>;

describe("the admin API's animals and key search (what the operator console uses)", () => {
  let api: TestApi;
  let adminBase: string;

  beforeAll(async () => {
    api = await startTestApi({ now: '2026-06-01T12:00:15Z' });
    // Where the admin API says it is: `Location` and `Link` name it.
    adminBase = ((await api.admin('GET', '/admin/v1/openapi.json')).json as { servers: { url: string }[] }).servers[0]!.url;
  });
  afterAll(() => api.close());

  const add = async (body: Json) => api.admin('POST', '/admin/v1/pets', { body });

  it('adds an animal with the admin token alone: 201, its Location on the admin API, its ETag, and its event', async () => {
    const added = await add({ name: 'Rex', categoryId: 1 });
    expect(added.status).toBe(201);
    expect(added.json).toMatchObject({ name: 'Rex', categoryId: 1, status: 'available' });
    const id = (added.json as { id: number }).id;
    expect(added.headers['location']).toBe(`${adminBase}/pets/${id}`);
    expect(added.headers['etag']).toMatch(/^"p1\./);
    const events = (await api.admin('GET', '/admin/v1/events')).json as { events: Json[] };
    expect(events.events[0]).toMatchObject({ type: 'pet.created', data: { id, name: 'Rex' } });
    expect((await api.admin('GET', `/admin/v1/pets/${id}`)).headers['etag']).toBe(added.headers['etag']);
  });

  it('refuses what the public API refuses, with its messages per field, and stores nothing', async () => {
    const before = ((await api.admin('GET', '/admin/v1/pets?limit=100')).json as Json[]).length;
    const refused = await add({ name: '', categoryId: 0 });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: 'validation_error', details: [{ field: 'name' }, { field: 'categoryId' }] });
    expect(((await api.admin('GET', '/admin/v1/pets?limit=100')).json as Json[]).length).toBe(before);
    expect((await api.admin('POST', '/admin/v1/pets', { headers: { Authorization: '' }, body: { name: 'Nope', categoryId: 1 } })).status).toBe(401);
  });

  it('changes a status only as last seen (412 with the current ETag) and only along the allowed moves (409)', async () => {
    const added = await add({ name: 'Whiskers', categoryId: 2 });
    const id = (added.json as { id: number }).id;
    const seen = added.headers['etag'] as string;
    const first = await api.admin('PATCH', `/admin/v1/pets/${id}`, { headers: { 'If-Match': seen }, body: { status: 'pending' } });
    expect(first).toMatchObject({ status: 200, json: { status: 'pending' } });

    const late = await api.admin('PATCH', `/admin/v1/pets/${id}`, { headers: { 'If-Match': seen }, body: { status: 'sold' } });
    expect(late).toMatchObject({ status: 412, json: { code: 'precondition_failed' } });
    expect(late.headers['etag']).toBe(first.headers['etag']);

    const current = first.headers['etag'] as string;
    const sold = await api.admin('PATCH', `/admin/v1/pets/${id}`, { headers: { 'If-Match': current }, body: { status: 'sold' } });
    expect(sold.status).toBe(200);
    const back = await api.admin('PATCH', `/admin/v1/pets/${id}`, { body: { status: 'available' } });
    expect(back).toMatchObject({ status: 409, json: { code: 'invalid_transition' } });
    expect((await api.admin('GET', `/admin/v1/pets/${id}`)).json).toMatchObject({ status: 'sold' });
  });

  it('audits each animal added or changed with the admin token, once: not a replay, a refusal, a non-change or an API key', async () => {
    const petTrail = async () =>
      ((await api.admin('GET', '/admin/v1/audit-events?limit=100')).json as { events: Json[] }).events.filter((e) =>
        String(e['action']).startsWith('pet.'),
      );
    const before = (await petTrail()).length;
    const request = { headers: { 'Idempotency-Key': 'audited-rex' }, body: { name: 'Audited', categoryId: 4 } };
    const added = await api.admin('POST', '/admin/v1/pets', request);
    const id = (added.json as { id: number }).id;
    expect((await api.admin('POST', '/admin/v1/pets', request)).headers['idempotent-replayed']).toBe('true');
    const moved = await api.admin('PATCH', `/admin/v1/pets/${id}`, { body: { status: 'pending' } });
    expect(moved.status).toBe(200);
    expect((await api.admin('PATCH', `/admin/v1/pets/${id}`, { body: { status: 'pending' } })).status).toBe(200);
    const stale = await api.admin('PATCH', `/admin/v1/pets/${id}`, {
      headers: { 'If-Match': added.headers['etag'] as string },
      body: { status: 'sold' },
    });
    expect(stale.status).toBe(412);
    const key = await api.issueKey();
    expect((await api.authed(key, 'PATCH', `/v1/pets/${id}`, { body: { name: 'Renamed' } })).status).toBe(200);

    const trail = await petTrail();
    expect(trail.slice(0, trail.length - before)).toEqual([
      {
        id: expect.stringMatching(/^evt_/),
        at: '2026-06-01T12:00:15.000Z',
        actor: 'admin-api',
        action: 'pet.updated',
        petId: id,
        changes: { status: { before: 'available', after: 'pending' } },
      },
      {
        id: expect.stringMatching(/^evt_/),
        at: '2026-06-01T12:00:15.000Z',
        actor: 'admin-api',
        action: 'pet.created',
        petId: id,
        changes: { name: { before: null, after: 'Audited' }, categoryId: { before: null, after: 4 }, status: { before: null, after: 'available' } },
      },
    ]);
  });

  it('lists animals by status, a page at a time, the Link leading to the next page on the admin API', async () => {
    for (const name of ['A', 'B', 'C']) await add({ name, categoryId: 3 });
    const first = await api.admin('GET', '/admin/v1/pets?status=available&limit=2');
    expect(first.status).toBe(200);
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers['link'] as string)?.[1];
    expect(next).toMatch(new RegExp(`^${adminBase}/pets\\?`));
    const second = await api.admin('GET', new URL(next!).pathname + new URL(next!).search);
    expect([...(first.json as Json[]), ...(second.json as Json[])].every((pet) => pet['status'] === 'available')).toBe(true);
    expect((await api.admin('GET', '/admin/v1/pets?colour=red')).json).toMatchObject({ details: [{ field: 'colour' }] });
    // The /v1 deprecation of GET /pets/{petId} is no part of the admin API.
    expect((await api.admin('GET', '/admin/v1/pets/1')).headers['deprecation']).toBeUndefined();
  });

  it('searches keys by name, ASCII letters in either case, a page at a time; the cursor keeps the search', async () => {
    for (const name of ['acme-prod', 'Partner ACME', 'globex', 'ACME staging']) {
      expect((await api.admin('POST', '/admin/v1/keys', { body: { plan: 'free', name } })).status).toBe(201);
      api.clock.advance(1_000); // oldest first
    }
    const first = (await api.admin('GET', '/admin/v1/keys?name=Acme&limit=2')).json as { keys: Json[]; nextCursor: string };
    const second = (await api.admin('GET', `/admin/v1/keys?name=Acme&limit=2&cursor=${first.nextCursor}`)).json as { keys: Json[]; nextCursor: null };
    expect([...first.keys, ...second.keys].map((key) => key['name'])).toEqual(['acme-prod', 'Partner ACME', 'ACME staging']);
    expect(second.nextCursor).toBeNull();
    expect((await api.admin('GET', `/admin/v1/keys?cursor=${first.nextCursor}`)).json).toMatchObject({ details: [{ field: 'cursor' }] });
    expect((await api.admin('GET', '/admin/v1/keys?name=')).json).toMatchObject({ code: 'validation_error', details: [{ field: 'name' }] });
  });

  it('has no console and no overview unless the app is given them', async () => {
    expect((await api.admin('GET', '/console', { unchecked: true })).status).toBe(404);
    expect((await api.admin('GET', '/admin/v1/overview')).status).toBe(404);
  });
});
