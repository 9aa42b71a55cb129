import { describe, expect, it } from '@jest/globals';
import { createAdminClient, PetstoreError } from './index.js';

const KEY = {
  id: 'key_1',
  name: '',
  plan: 'free',
  limits: { perMinute: 60, perDay: 1000 },
  limitOverrides: { perMinute: null, perDay: null },
  scopes: ['pets:read', 'pets:write'],
  status: 'active',
  expiresAt: null,
  disabled: false,
  createdAt: '2026-11-25T00:00:00.000Z',
  lastUsedAt: null,
  bannedUntil: null,
  revokedAt: null,
  previousSecretExpiresAt: null,
};

/** A fetch that answers 503 `failures` times, then `answer`; it records what it was sent. */
function flakyFetch(failures: number, answer: unknown, status = 200) {
  const sent: { method: string; url: string; authorization: string | null; body: unknown }[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    sent.push({
      method: init?.method ?? 'GET',
      url: String(input),
      authorization: headers.get('Authorization'),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    });
    const body = sent.length <= failures ? { code: 'service_unavailable', message: 'down', status: 503 } : answer;
    return new Response(JSON.stringify(body), {
      status: sent.length <= failures ? 503 : status,
      headers: { 'Content-Type': 'application/json', 'Retry-After': '0' },
    });
  };
  return { fetch, sent };
}

const clientWith = (fetch: typeof globalThis.fetch) =>
  createAdminClient({ baseUrl: 'http://admin.test/admin/v1', adminToken: 't'.repeat(32), fetch, retry: { baseDelayMs: 0, maxDelayMs: 0 } });

describe('createAdminClient', () => {
  it('sends the admin token, the method, the path and the body each operation declares', async () => {
    const { fetch, sent } = flakyFetch(0, KEY);
    const client = clientWith(fetch);
    await client.updateKey('key_1', { disabled: true });
    await client.getKeyUsage('key 1/x', { from: '2026-11-01' });
    await client.listAuditEvents({ keyId: 'key_1', limit: 5 });
    await client.revokeKey('key_1');
    expect(sent).toEqual([
      { method: 'PATCH', url: 'http://admin.test/admin/v1/keys/key_1', authorization: `Bearer ${'t'.repeat(32)}`, body: { disabled: true } },
      { method: 'GET', url: 'http://admin.test/admin/v1/keys/key%201%2Fx/usage?from=2026-11-01', authorization: expect.any(String), body: undefined },
      { method: 'GET', url: 'http://admin.test/admin/v1/audit-events?keyId=key_1&limit=5', authorization: expect.any(String), body: undefined },
      { method: 'POST', url: 'http://admin.test/admin/v1/keys/key_1/revoke', authorization: expect.any(String), body: undefined },
    ]);
  });

  it('retries a read on 503, but sends createKey and rotateKey once: a repeat would make a second key or drop the new secret', async () => {
    const reads = flakyFetch(2, KEY);
    expect(await clientWith(reads.fetch).getKey('key_1')).toEqual(KEY);
    expect(reads.sent).toHaveLength(3);

    for (const call of [
      (client: ReturnType<typeof clientWith>) => client.createKey({ plan: 'free' }),
      (client: ReturnType<typeof clientWith>) => client.rotateKey('key_1', { gracePeriodSeconds: 60 }),
    ]) {
      const once = flakyFetch(1, { ...KEY, key: 'pst_x' });
      const failure = await call(clientWith(once.fetch)).catch((error: unknown) => error);
      expect(PetstoreError.is(failure) && [failure.code, failure.status]).toEqual(['service_unavailable', 503]);
      expect(once.sent).toHaveLength(1);
    }
  });

  it('walks every page of keys with iterateKeys', async () => {
    let call = 0;
    const fetch = (async () =>
      new Response(JSON.stringify(++call === 1 ? { keys: [KEY], nextCursor: 'c2' } : { keys: [{ ...KEY, id: 'key_2' }], nextCursor: null }), {
        headers: { 'Content-Type': 'application/json' },
      })) as typeof globalThis.fetch;
    const ids: string[] = [];
    for await (const key of clientWith(fetch).iterateKeys({ limit: 1 })) ids.push(key.id);
    expect(ids).toEqual(['key_1', 'key_2']);
  });
});
