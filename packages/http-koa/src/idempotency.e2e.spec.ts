import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { startTestApi, type TestApi } from './testing/startTestApi.js';

describe('Idempotency-Key on POST /v1/pets', () => {
  let api: TestApi;
  let key: string;
  const post = (body: unknown, idempotencyKey?: string, apiKey = key) =>
    api.authed(apiKey, 'POST', '/v1/pets', { body, headers: idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey } });

  beforeEach(async () => {
    api = await startTestApi();
    key = await api.issueKey('enterprise');
  });
  afterEach(() => api.close());

  it('replays the first answer for a retry with the same key and body, and creates nothing', async () => {
    const first = await post({ name: 'Rex', categoryId: 1 }, 'retry-1');
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await post({ categoryId: 1, name: 'Rex' }, 'retry-1');
    expect(retry.status).toBe(201);
    expect(retry.json).toEqual(first.json);
    expect(retry.headers['location']).toBe(first.headers['location']);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(api.pets.count()).toBe(1);
  });

  it('answers 422 idempotency_key_reused for the same key with another body', async () => {
    await post({ name: 'Rex', categoryId: 1 }, 'retry-2');
    const reused = await post({ name: 'Max', categoryId: 1 }, 'retry-2');
    expect(reused.status).toBe(422);
    expect(reused.json).toEqual({ code: 'idempotency_key_reused', status: 422, message: expect.stringContaining('different request body') });
    expect(api.pets.count()).toBe(1);
  });

  it('scopes keys to the API key', async () => {
    const other = await api.issueKey('enterprise');
    await post({ name: 'Rex', categoryId: 1 }, 'shared');
    const theirs = await post({ name: 'Max', categoryId: 1 }, 'shared', other);
    expect(theirs.status).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
  });

  it('stores nothing under the key for a request rejected by validation', async () => {
    expect((await post({ name: '' }, 'fix-me')).status).toBe(400);
    const fixed = await post({ name: 'Rex', categoryId: 1 }, 'fix-me');
    expect(fixed.status).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
  });

  it.each(['', 'x'.repeat(256)])('rejects the key %p with 400 validation_error', async (idempotencyKey) => {
    const response = await post({ name: 'Rex', categoryId: 1 }, idempotencyKey);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 'validation_error', details: [{ field: 'Idempotency-Key' }] });
    expect(api.pets.count()).toBe(0);
  });

  it('creates exactly one pet for 50 concurrent identical requests, all answered with the same body', async () => {
    const responses = await Promise.all(Array.from({ length: 50 }, () => post({ name: 'Burst', categoryId: 2 }, 'burst-1')));
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201));
    expect(new Set(responses.map((r) => r.text)).size).toBe(1);
    expect(responses.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(49);
    expect(api.pets.count()).toBe(1);
  });
});
