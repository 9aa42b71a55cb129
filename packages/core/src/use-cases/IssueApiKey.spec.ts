import { beforeEach, describe, expect, it } from '@jest/globals';
import { hashApiKeySecret, isWellFormedApiKeySecret } from '../access/ApiKeySecret.js';
import { createPetStore } from '../createPetStore.js';
import { inMemoryPorts, type InMemoryPorts } from '../testing/inMemoryPorts.js';
import type { IssueApiKey, IssueApiKeyInput } from './IssueApiKey.js';

describe('IssueApiKey', () => {
  let ports: InMemoryPorts;
  let issue: IssueApiKey;

  beforeEach(() => {
    ({ issueApiKey: issue } = createPetStore((ports = inMemoryPorts('2026-06-01T12:00:00Z'))));
  });

  const nothingStored = async () => {
    expect(await ports.keys.list({ after: null, limit: 10 })).toEqual([]);
    expect(await ports.auditLog.list({ keyId: null, before: null, limit: 10 })).toEqual([]);
  };

  it('issues a checksummed secret, stores only its hash, and answers the key as the admin views show it', async () => {
    const { key, secret } = await issue.execute({ plan: 'free', name: 'kiosk' }, 'cli');
    expect(isWellFormedApiKeySecret(secret) && secret.length).toBe(40);
    expect(key).toEqual({
      id: expect.stringMatching(/^key_[0-9a-f]{16}$/),
      name: 'kiosk',
      plan: 'free',
      limits: { perMinute: 60, perDay: 1_000 },
      limitOverrides: { perMinute: null, perDay: null },
      scopes: ['pets:read', 'pets:write'],
      status: 'active',
      expiresAt: null,
      disabled: false,
      createdAt: '2026-06-01T12:00:00.000Z',
      lastUsedAt: null,
      bannedUntil: null,
      revokedAt: null,
      previousSecretExpiresAt: null,
    });
    expect(await ports.keys.findByHash(hashApiKeySecret(secret))).toMatchObject({ key: { id: key.id }, matched: 'current' });
    const other = await issue.execute({ plan: 'free' }, 'cli');
    expect(other.secret).not.toBe(secret);
    expect(other.key.id).not.toBe(key.id);
    expect(other.key.name).toBe('');
  });

  it('records the creation in the audit trail, with the fields set and never the secret', async () => {
    const { key, secret } = await issue.execute({ plan: 'pro', name: 'partner', scopes: ['pets:read'], perDay: 20_000 }, 'admin-api');
    const events = await ports.auditLog.list({ keyId: key.id, before: null, limit: 10 });
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^evt_[0-9a-f]{28}$/),
        at: new Date('2026-06-01T12:00:00Z'),
        actor: 'admin-api',
        action: 'key.created',
        keyId: key.id,
        changes: {
          name: { before: null, after: 'partner' },
          plan: { before: null, after: 'pro' },
          perDay: { before: null, after: 20_000 },
          scopes: { before: null, after: ['pets:read'] },
          disabled: { before: null, after: false },
        },
      },
    ]);
    expect(JSON.stringify(events)).not.toContain(secret);
    expect(JSON.stringify(events)).not.toContain(hashApiKeySecret(secret));
  });

  it('gives a key the scopes it is told, in their canonical order', async () => {
    expect((await issue.execute({ plan: 'free', scopes: ['pets:write', 'pets:read'] }, 'cli')).key.scopes).toEqual(['pets:read', 'pets:write']);
    expect((await issue.execute({ plan: 'free', scopes: ['pets:write'] }, 'cli')).key.scopes).toEqual(['pets:write']);
  });

  it.each([[[]], [['pets:read', 'pets:read']], [['pets:delete']], ['pets:read'], [null]])('refuses the scopes %p', async (scopes) => {
    await expect(issue.execute({ plan: 'free', scopes }, 'cli')).rejects.toMatchObject({
      code: 'validation_error',
      details: [{ field: 'scopes', message: 'scopes must be a non-empty list of distinct scopes among pets:read, pets:write' }],
    });
    await nothingStored();
  });

  it('sets an expiry in the future, given as ISO 8601 with an offset', async () => {
    expect((await issue.execute({ plan: 'free', expiresAt: '2026-06-01T14:00:01+02:00' }, 'cli')).key).toMatchObject({
      expiresAt: '2026-06-01T12:00:01.000Z',
      status: 'active',
    });
    expect((await issue.execute({ plan: 'free', expiresAt: '2026-06-01T12:00:00.001Z' }, 'cli')).key.expiresAt).toBe('2026-06-01T12:00:00.001Z');
  });

  it.each(['2026-06-01T13:59:59+02:00', '2026-06-01T11:59:59Z', '2026-06-01T12:00:00Z'])(
    'refuses the expiry %p: not in the future',
    async (expiresAt) => {
      await expect(issue.execute({ plan: 'free', expiresAt }, 'cli')).rejects.toMatchObject({
        details: [{ field: 'expiresAt', message: 'expiresAt must be in the future (it is now 2026-06-01T12:00:00.000Z)' }],
      });
      await nothingStored();
    },
  );

  it.each([
    '2027-02-29T00:00:00Z',
    '2027-13-01T00:00:00Z',
    '2027-01-01T24:00:00Z',
    '2027-01-01T00:00:00',
    '2027-01-01',
    'tomorrow',
    1_900_000_000_000,
    true,
  ])('refuses the malformed expiry %p', async (expiresAt) => {
    await expect(issue.execute({ plan: 'free', expiresAt }, 'cli')).rejects.toMatchObject({
      details: [{ field: 'expiresAt', message: expect.stringContaining('ISO 8601 date and time with its offset') }],
    });
  });

  it('takes per-key limits on any plan, each replacing the plan’s', async () => {
    expect((await issue.execute({ plan: 'pro', perDay: 50_000 }, 'cli')).key).toMatchObject({
      limits: { perMinute: 300, perDay: 50_000 },
      limitOverrides: { perMinute: null, perDay: 50_000 },
    });
    expect((await issue.execute({ plan: 'free', perMinute: 5, perDay: null }, 'cli')).key.limits).toEqual({ perMinute: 5, perDay: 1_000 });
  });

  it('requires both limits for enterprise keys', async () => {
    expect((await issue.execute({ plan: 'enterprise', perMinute: 5000, perDay: 1e6 }, 'cli')).key.limits).toEqual({ perMinute: 5000, perDay: 1e6 });
    await expect(issue.execute({ plan: 'enterprise', perMinute: 5000 }, 'cli')).rejects.toMatchObject({
      code: 'validation_error',
      details: [{ field: 'perDay', message: 'perDay is required for enterprise keys and must be a positive integer' }],
    });
    await expect(issue.execute({ plan: 'enterprise', perMinute: 0, perDay: 1.5 }, 'cli')).rejects.toMatchObject({
      details: [{ field: 'perMinute' }, { field: 'perDay' }],
    });
    expect(await ports.keys.list({ after: null, limit: 10 })).toHaveLength(1);
  });

  it('refuses a limit the rate-limit headers could not carry (RFC 8941 integers: 15 digits at most)', async () => {
    await expect(issue.execute({ plan: 'enterprise', perMinute: 5, perDay: 1e15 }, 'cli')).rejects.toMatchObject({
      details: [{ field: 'perDay', message: "perDay must be a whole number from 1 to 999999999999999, or null for the plan's limit" }],
    });
    expect((await issue.execute({ plan: 'enterprise', perMinute: 5, perDay: 999_999_999_999_999 }, 'cli')).key.limits.perDay).toBe(
      999_999_999_999_999,
    );
  });

  it('refuses a per-minute limit above the per-day limit in force, naming where each comes from', async () => {
    await expect(issue.execute({ plan: 'enterprise', perMinute: 10, perDay: 5 }, 'cli')).rejects.toMatchObject({
      details: [{ field: 'perMinute', message: 'perMinute (10) must not exceed perDay (5): a day holds every minute' }],
    });
    await expect(issue.execute({ plan: 'free', perDay: 30 }, 'cli')).rejects.toMatchObject({
      details: [{ field: 'perDay', message: "perMinute (60, the free plan's) must not exceed perDay (30): a day holds every minute" }],
    });
    await expect(issue.execute({ plan: 'free', perMinute: 2_000 }, 'cli')).rejects.toMatchObject({
      details: [{ field: 'perMinute', message: "perMinute (2000) must not exceed perDay (1000, the free plan's): a day holds every minute" }],
    });
    expect((await issue.execute({ plan: 'enterprise', perMinute: 5, perDay: 5 }, 'cli')).key.limits).toEqual({ perMinute: 5, perDay: 5 });
  });

  it.each<[string, IssueApiKeyInput | unknown, { field: string; message?: unknown }[]]>([
    ['no plan', {}, [{ field: 'plan', message: 'plan is required: one of free, pro, business, enterprise' }]],
    ['an unknown plan', { plan: 'gold' }, [{ field: 'plan', message: 'plan must be one of free, pro, business, enterprise' }]],
    ['a long name', { plan: 'free', name: 'x'.repeat(101) }, [{ field: 'name' }]],
    ['a name with a control character', { plan: 'free', name: 'a\nb' }, [{ field: 'name' }]],
    ['a name that is not text', { plan: 'free', name: 42 }, [{ field: 'name' }]],
    ['a limit that is not a whole number', { plan: 'pro', perMinute: '5' }, [{ field: 'perMinute' }]],
    [
      'a setting only an update can give',
      { plan: 'free', disabled: true },
      [{ field: 'disabled', message: expect.stringContaining('not a setting') }],
    ],
    ['an unknown field', { plan: 'free', id: 'key_mine' }, [{ field: 'id' }]],
    ['several problems at once', { plan: 'gold', name: 7, scopes: [] }, [{ field: 'plan' }, { field: 'name' }, { field: 'scopes' }]],
    ['a body that is not an object', ['free'], [{ field: 'body' }, { field: 'plan' }]],
  ])('refuses %s, storing nothing', async (_, input, details) => {
    await expect(issue.execute(input as IssueApiKeyInput, 'cli')).rejects.toMatchObject({ code: 'validation_error', details });
    await nothingStored();
  });

  it.each([
    ['invoice\u202Efdp.exe', 'name must not contain bidirectional controls or line or paragraph separators'],
    ['a\u2028b', 'name must not contain bidirectional controls or line or paragraph separators'],
    ['a\u2066b\u2069', 'name must not contain bidirectional controls or line or paragraph separators'],
    ['a\u0000b', 'name must not contain control characters'],
    ['a\ud800', 'name must be valid Unicode text (no unpaired surrogates)'],
  ])('refuses the name %j as a pet name is refused: %s', async (name, message) => {
    await expect(issue.execute({ plan: 'free', name }, 'cli')).rejects.toMatchObject({ details: [{ field: 'name', message }] });
    await nothingStored();
  });

  it('refuses a limit whose JSON text has a fraction or an exponent, as the public API refuses a categoryId', async () => {
    for (const [field, text] of [
      ['perMinute', '1.0'],
      ['perDay', '1e4'],
      ['perDay', '5000.000000000000001'],
    ]) {
      await expect(issue.execute({ plan: 'pro', [field!]: Number(text) }, 'cli', new Map([[field!, text!]]))).rejects.toMatchObject({
        details: [{ field, message: `${field} must be an integer written without a fraction or exponent (got ${text})` }],
      });
    }
    await nothingStored();
    expect((await issue.execute({ plan: 'pro', perDay: 5000 }, 'cli', new Map([['perDay', '5000']]))).key.limits.perDay).toBe(5000);
  });

  it("counts a name in Unicode code points, as the admin document's maxLength does: 100 emoji are a valid name", async () => {
    expect((await issue.execute({ plan: 'free', name: '\u{1F408}'.repeat(100) }, 'cli')).key.name).toHaveLength(200);
    await expect(issue.execute({ plan: 'free', name: '\u{1F408}'.repeat(101) }, 'cli')).rejects.toMatchObject({ details: [{ field: 'name' }] });
  });

  it('treats undefined settings as not given (as a CLI passes absent flags)', async () => {
    expect((await issue.execute({ plan: 'free', name: undefined, perMinute: undefined, expiresAt: undefined }, 'cli')).key.limits).toEqual({
      perMinute: 60,
      perDay: 1_000,
    });
  });
});
