import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { eventsOfCreate } from '@petstore/core';
import { startTestApiWithKey, type TestApi } from './testing/startTestApi.js';

describe('PATCH /v1/pets/{petId}', () => {
  let api: TestApi;
  let key: string;
  const patch = (id: number | string, body: unknown, headers: Record<string, string> = {}) =>
    api.authed(key, 'PATCH', `/v1/pets/${id}`, {
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'Content-Type': 'application/merge-patch+json', ...headers },
    });

  beforeEach(async () => {
    ({ api, key } = await startTestApiWithKey());
    await api.pets.create({ name: 'Rex', categoryId: 1, status: 'available' }, eventsOfCreate());
    await api.pets.create({ name: 'Tom', categoryId: 2, status: 'pending' }, eventsOfCreate());
  });
  afterEach(() => api.close());

  it('changes the fields given and answers 200 with the pet and its new strong ETag', async () => {
    const before = await api.authed(key, 'GET', '/v1/pets/1');
    const response = await patch(1, { status: 'pending', name: 'Rex II' });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ id: 1, name: 'Rex II', categoryId: 1, status: 'pending' });
    expect(response.headers['etag']).toMatch(/^"[^"]+"$/);
    expect(response.headers['etag']).not.toBe(before.headers['etag']);
    expect((await api.authed(key, 'GET', '/v1/pets/1')).headers['etag']).toBe(response.headers['etag']);
    expect((await api.authed(key, 'GET', '/v1/pets?status=pending')).json).toEqual([
      { id: 1, name: 'Rex II', categoryId: 1, status: 'pending' },
      { id: 2, name: 'Tom', categoryId: 2, status: 'pending' },
    ]);
  });

  it('accepts application/json too, and refuses another content type with 415', async () => {
    expect((await api.authed(key, 'PATCH', '/v1/pets/1', { body: { categoryId: 5 } })).json).toMatchObject({ categoryId: 5 });
    const text = await api.authed(key, 'PATCH', '/v1/pets/1', { body: '{"categoryId": 6}', headers: { 'Content-Type': 'text/plain' } });
    expect(text.status).toBe(415);
  });

  it.each([
    [{ status: null }, 'status'],
    [{ name: null }, 'name'],
    [{ id: 3 }, 'id'],
    [{ colour: 'red' }, 'colour'],
    [{ name: '' }, 'name'],
    [{ status: 'adopted' }, 'status'],
  ])('refuses %j with 400 validation_error and changes nothing', async (body, field) => {
    const response = await patch(1, body);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 'validation_error', status: 400, details: [expect.objectContaining({ field })] });
    expect(await api.pets.findById(1)).toMatchObject({ name: 'Rex', status: 'available', version: 1 });
  });

  it('answers 404 for an unknown pet and 400 for an id that is not one', async () => {
    expect(await patch(99, { status: 'sold' })).toMatchObject({ status: 404, json: { code: 'not_found' } });
    expect(await patch('abc', { status: 'sold' })).toMatchObject({ status: 400, json: { code: 'validation_error' } });
  });

  it('refuses a forbidden transition with 409 invalid_transition naming the current status and the allowed ones', async () => {
    await patch(1, { status: 'sold' });
    const response = await patch(1, { status: 'available' });
    expect(response.status).toBe(409);
    expect(response.json).toEqual({ code: 'invalid_transition', status: 409, message: expect.stringContaining('its status is sold; sold is final') });
    const fromPending = await patch(2, { status: 'pending', name: 'Tom' });
    expect(fromPending.status).toBe(200);
  });

  it('answers 200 with no change and the same ETag when the status is set again', async () => {
    const first = await patch(2, { status: 'pending' });
    expect(first.status).toBe(200);
    expect(first.headers['etag']).toBe((await api.authed(key, 'GET', '/v1/pets/2')).headers['etag']);
    expect((await patch(2, { status: 'pending' })).headers['etag']).toBe(first.headers['etag']);
  });

  it('honours If-Match: the current tag or * changes the pet; a stale one is 412 with the current ETag', async () => {
    const tag = (await api.authed(key, 'GET', '/v1/pets/1')).headers['etag']!;
    const changed = await patch(1, { status: 'pending' }, { 'If-Match': tag });
    expect(changed.status).toBe(200);
    const stale = await patch(1, { status: 'sold' }, { 'If-Match': tag });
    expect(stale.status).toBe(412);
    expect(stale.json).toMatchObject({ code: 'precondition_failed', status: 412 });
    expect(stale.headers['etag']).toBe(changed.headers['etag']);
    expect(await api.pets.findById(1)).toMatchObject({ status: 'pending' });
    expect((await patch(1, { status: 'sold' }, { 'If-Match': `"nope", ${changed.headers['etag']!}` })).status).toBe(200);
    expect((await patch(1, { name: 'Any' }, { 'If-Match': '*' })).status).toBe(200);
    expect((await patch(1, { name: 'Weak' }, { 'If-Match': `W/${(await api.authed(key, 'GET', '/v1/pets/1')).headers['etag']!}` })).status).toBe(412);
  });

  it('compares If-Match character by character, and matches the tag of an id written with leading zeros', async () => {
    const tag = (await api.authed(key, 'GET', '/v1/pets/1')).headers['etag']!;
    expect(tag).toBe('"p1.1.1"');
    expect((await patch(1, { name: 'Zero' }, { 'If-Match': '"p1.1.01"' })).status).toBe(412);
    expect((await patch(1, { name: 'Zero' }, { 'If-Match': '"p1.01.1"' })).status).toBe(412);
    expect(await api.pets.findById(1)).toMatchObject({ name: 'Rex', version: 1 });
    const padded = await patch('00000000000000001', { name: 'Padded' }, { 'If-Match': tag });
    expect(padded).toMatchObject({ status: 200, json: { id: 1, name: 'Padded' } });
  });

  it('honours If-None-Match on a change: * or a tag the pet has (weak comparison) is 412 and changes nothing', async () => {
    const tag = (await api.authed(key, 'GET', '/v1/pets/1')).headers['etag']!;
    for (const ifNoneMatch of ['*', tag, `W/${tag}`, `"p1.1.9", ${tag}`]) {
      const refused = await patch(1, { name: 'Never' }, { 'If-None-Match': ifNoneMatch });
      expect(refused).toMatchObject({ status: 412, json: { code: 'precondition_failed' }, headers: { etag: tag } });
    }
    expect(await api.pets.findById(1)).toMatchObject({ name: 'Rex', version: 1 });
    expect((await patch(1, { name: 'Changed' }, { 'If-None-Match': '"p1.1.9"' })).status).toBe(200);
  });

  it('refuses a JSON Patch with 415 naming the media types it takes, and changes nothing', async () => {
    const response = await patch(1, [{ op: 'replace', path: '/name', value: 'Patched' }], { 'Content-Type': 'application/json-patch+json' });
    expect(response.status).toBe(415);
    expect(response.json).toMatchObject({
      code: 'unsupported_media_type',
      message: expect.stringContaining('application/merge-patch+json or application/json'),
    });
    const object = await patch(1, { name: 'Patched' }, { 'Content-Type': 'application/json-patch+json' });
    expect(object.status).toBe(415);
    expect(await api.pets.findById(1)).toMatchObject({ name: 'Rex', version: 1 });
  });

  it('gives a page a new ETag when a pet on it changes, so a 304 never hides a change', async () => {
    const page = await api.authed(key, 'GET', '/v1/pets?limit=1');
    const tag = page.headers['etag']!;
    expect((await api.authed(key, 'GET', '/v1/pets?limit=1', { headers: { 'If-None-Match': tag } })).status).toBe(304);
    await patch(1, { name: 'Renamed' });
    const after = await api.authed(key, 'GET', '/v1/pets?limit=1', { headers: { 'If-None-Match': tag } });
    expect(after.status).toBe(200);
    expect(after.json).toEqual([{ id: 1, name: 'Renamed', categoryId: 1, status: 'available' }]);
    // The cursor taken before the change still continues after pet 1.
    const next = new URL(/<([^>]+)>/.exec(String(page.headers['link']))![1]!);
    expect((await api.authed(key, 'GET', `/v1/pets${next.search}`)).json).toEqual([{ id: 2, name: 'Tom', categoryId: 2, status: 'pending' }]);
  });

  it('replays the first answer to a retry with the same Idempotency-Key, and refuses the key with another change', async () => {
    const first = await patch(1, { status: 'pending' }, { 'Idempotency-Key': 'adopt-1' });
    const retry = await patch(1, { status: 'pending' }, { 'Idempotency-Key': 'adopt-1' });
    expect(retry).toMatchObject({ status: 200, json: first.json, headers: { 'idempotent-replayed': 'true', etag: first.headers['etag'] } });
    expect((await patch(1, { status: 'sold' }, { 'Idempotency-Key': 'adopt-1' })).json).toMatchObject({ code: 'idempotency_key_reused' });
  });

  it('needs the pets:write scope and counts the request', async () => {
    const reader = (await api.store.issueApiKey.execute({ plan: 'free', scopes: ['pets:read'] }, 'cli')).secret;
    const response = await api.authed(reader, 'PATCH', '/v1/pets/1', { body: { status: 'sold' } });
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({ code: 'insufficient_scope' });
    const counted = await patch(1, { status: 'sold' });
    expect(Number(counted.headers['x-ratelimit-remaining'])).toBeGreaterThan(0);
  });

  it('lets exactly one of pending -> sold and pending -> available sent together win', async () => {
    for (let round = 0; round < 10; round++) {
      const pet = await api.pets.create({ name: `race ${round}`, categoryId: 1, status: 'pending' }, eventsOfCreate());
      const answers = await Promise.all([patch(pet.id, { status: 'sold' }), patch(pet.id, { status: 'available' })]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    }
  });
});
