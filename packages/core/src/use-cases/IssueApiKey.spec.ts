import { beforeEach, describe, expect, it } from '@jest/globals';
import { hashApiKeySecret } from '../access/ApiKeySecret.js';
import { inMemoryPorts, type InMemoryPorts } from '../testing/inMemoryPorts.js';
import { createPetStore } from '../createPetStore.js';
import type { IssueApiKey } from './IssueApiKey.js';
import { ListApiKeys } from './ListApiKeys.js';
import { RevokeApiKey } from './RevokeApiKey.js';
import { RotateApiKey } from './RotateApiKey.js';

describe('API key administration', () => {
  let ports: InMemoryPorts;
  let issue: IssueApiKey;

  beforeEach(() => {
    ({ issueApiKey: issue } = createPetStore((ports = inMemoryPorts('2026-06-01T12:00:00Z'))));
  });

  it('issues a prefixed secret with 256 random bits and stores only its hash', async () => {
    const { key, secret } = await issue.execute({ plan: 'free', name: 'kiosk' });
    expect(secret).toMatch(/^pst_[A-Za-z0-9_-]{43}$/);
    expect(key).toEqual({
      id: expect.stringMatching(/^key_[0-9a-f]{16}$/),
      name: 'kiosk',
      plan: 'free',
      customLimits: null,
      createdAt: ports.clock.now(),
      revokedAt: null,
    });
    expect(await ports.keys.findByHash(hashApiKeySecret(secret))).toEqual(key);
    expect(JSON.stringify(await ports.keys.list())).not.toContain(secret);
    const other = await issue.execute({ plan: 'free' });
    expect(other.secret).not.toBe(secret);
    expect(other.key.id).not.toBe(key.id);
  });

  it('requires both custom limits for enterprise keys', async () => {
    expect((await issue.execute({ plan: 'enterprise', perMinute: 5000, perDay: 1e6 })).key.customLimits).toEqual({ perMinute: 5000, perDay: 1e6 });
    await expect(issue.execute({ plan: 'enterprise', perMinute: 5000 })).rejects.toMatchObject({
      code: 'validation_error',
      details: [{ field: 'perDay', message: expect.stringContaining('required for enterprise') }],
    });
    await expect(issue.execute({ plan: 'enterprise', perMinute: 0, perDay: 1.5 })).rejects.toMatchObject({
      details: [{ field: 'perMinute' }, { field: 'perDay' }],
    });
  });

  it('rejects custom limits on other plans, unknown plans and bad names', async () => {
    await expect(issue.execute({ plan: 'pro', perMinute: 5 })).rejects.toMatchObject({
      details: [{ field: 'plan', message: expect.stringContaining('enterprise plan only') }],
    });
    await expect(issue.execute({ plan: 'gold' })).rejects.toMatchObject({
      details: [{ field: 'plan', message: 'plan must be one of free, pro, business, enterprise' }],
    });
    await expect(issue.execute({ plan: 'free', name: 'x'.repeat(101) })).rejects.toMatchObject({ details: [{ field: 'name' }] });
    await expect(issue.execute({ plan: 'free', name: 'a\nb' })).rejects.toMatchObject({ details: [{ field: 'name' }] });
    expect(await ports.keys.list()).toEqual([]);
  });

  it('lists keys oldest first, revoked ones included', async () => {
    const first = await issue.execute({ plan: 'free' });
    ports.clock.advance(1000);
    const second = await issue.execute({ plan: 'pro' });
    await new RevokeApiKey(ports.keys, ports.clock).execute(first.key.id);
    expect((await new ListApiKeys(ports.keys).execute()).map((k) => [k.id, k.revokedAt])).toEqual([
      [first.key.id, ports.clock.now()],
      [second.key.id, null],
    ]);
  });

  it('answers not_found for an unknown id on revoke and rotate', async () => {
    await expect(new RevokeApiKey(ports.keys, ports.clock).execute('key_nope')).rejects.toMatchObject({ code: 'not_found' });
    await expect(new RotateApiKey(ports.keys).execute('key_nope')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('revokes once: a second revocation changes nothing and says the key was already revoked', async () => {
    const { key } = await issue.execute({ plan: 'free' });
    const first = await new RevokeApiKey(ports.keys, ports.clock).execute(key.id);
    expect(first).toEqual({ key: { ...key, revokedAt: ports.clock.now() }, alreadyRevoked: false });
    ports.clock.advance(60_000);
    expect(await new RevokeApiKey(ports.keys, ports.clock).execute(key.id)).toEqual({ key: first.key, alreadyRevoked: true });
  });

  it('refuses an Enterprise key whose per-minute limit exceeds its per-day limit', async () => {
    await expect(issue.execute({ plan: 'enterprise', perMinute: 10, perDay: 5 })).rejects.toMatchObject({
      details: [{ field: 'perMinute', message: 'perMinute (10) must not exceed perDay (5): a day holds every minute' }],
    });
    expect((await issue.execute({ plan: 'enterprise', perMinute: 5, perDay: 5 })).key.customLimits).toEqual({ perMinute: 5, perDay: 5 });
    expect(await ports.keys.list()).toHaveLength(1);
  });

  it('refuses to rotate a revoked key', async () => {
    const { key } = await issue.execute({ plan: 'free' });
    await new RevokeApiKey(ports.keys, ports.clock).execute(key.id);
    await expect(new RotateApiKey(ports.keys).execute(key.id)).rejects.toMatchObject({ code: 'validation_error' });
  });
});
