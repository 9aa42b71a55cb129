import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnServer, STOPPED_AT_ONCE, type ServerProcess } from './testing/builtServer.js';
import { createAdminClient, createClient, PetstoreError, type AdminClient } from './index.js';

const ADMIN_TOKEN = 'admin-client-e2e-token-9f3a6c1e8b4d7f0a2c5e8b1d4f7a0c3e';

/** The code of the PetstoreError a call fails with. */
const failureOf = (call: Promise<unknown>) =>
  call.then(
    () => 'no failure',
    (error: unknown) => (PetstoreError.is(error) ? error.code : error),
  );

// The admin client, typed from the admin document, against the built server.
describe('the admin client against the built server', () => {
  let work: string;
  let server: ServerProcess;
  let admin: AdminClient;
  let baseUrl: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'petstore-admin-client-'));
    server = await spawnServer({ ...STOPPED_AT_ONCE, DATABASE_URL: `sqlite:${join(work, 'pets.db')}`, ADMIN_TOKEN, ADMIN_PORT: '0' });
    baseUrl = server.adminUrl!;
    admin = createAdminClient({ baseUrl, adminToken: ADMIN_TOKEN });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('manages a key through its life: create, narrow, rotate, usage, audit, revoke', async () => {
    const created = await admin.createKey({ name: 'partner', plan: 'pro' });
    expect(created).toMatchObject({ name: 'partner', plan: 'pro', scopes: ['pets:read', 'pets:write'], status: 'active' });
    const partner = createClient({ baseUrl: server.url, apiKey: created.key });
    await partner.createPet({ name: 'Rex', categoryId: 1 });

    expect(await admin.updateKey(created.id, { scopes: ['pets:read'] })).toMatchObject({ scopes: ['pets:read'] });
    // The server's key cache (2 s) may still hold the old scopes for a moment.
    for (let refused = 'no failure'; refused !== 'insufficient_scope';)
      refused = String(await failureOf(partner.createPet({ name: 'Max', categoryId: 1 })));

    const rotated = await admin.rotateKey(created.id, { gracePeriodSeconds: 0 });
    expect(rotated.id).toBe(created.id);
    expect((await createClient({ baseUrl: server.url, apiKey: rotated.key }).listPets()).pets).toHaveLength(1);

    const usage = await admin.getKeyUsage(created.id);
    expect(usage).toMatchObject({ keyId: created.id, days: expect.any(Array) });
    expect(usage.days).toHaveLength(30);

    const trail = await admin.listAuditEvents({ keyId: created.id });
    expect(trail.events.map((event) => event.action)).toEqual(['key.rotated', 'key.updated', 'key.created']);
    expect(trail.events.every((event) => event.actor === 'admin-api')).toBe(true);

    expect(await admin.unbanKey(created.id)).toMatchObject({ bannedUntil: null });
    expect(await admin.revokeKey(created.id)).toMatchObject({ status: 'revoked' });
    expect(await failureOf(admin.updateKey(created.id, { name: 'again' }))).toBe('validation_error');
  }, 60_000);

  it('lists every key page after page, and fails with the Error body as a PetstoreError', async () => {
    const ids = [];
    for await (const key of admin.iterateKeys({ limit: 1 })) ids.push(key.id);
    expect(ids.length).toBeGreaterThanOrEqual(2); // the first-run key and the partner's
    expect(await failureOf(admin.getKey('key_0000000000000000'))).toBe('not_found');
    expect(await failureOf(admin.createKey({ plan: 'gold' as 'free' }))).toBe('validation_error');
    expect(await failureOf(createAdminClient({ baseUrl, adminToken: `${ADMIN_TOKEN}-wrong` }).listKeys())).toBe('unauthorized');
  }, 60_000);

  it('adds and changes animals with the admin token, as last seen, and reads the overview', async () => {
    const added = await admin.createPet({ name: 'Admin Rex', categoryId: 1 });
    expect(added.pet).toMatchObject({ name: 'Admin Rex', status: 'available' });
    const read = await admin.getPet(added.pet.id);
    expect(read.etag).toBe(added.etag);
    const pending = await admin.updatePet(added.pet.id, { status: 'pending' }, { ifMatch: read.etag });
    expect(pending.pet.status).toBe('pending');
    expect(await failureOf(admin.updatePet(added.pet.id, { status: 'sold' }, { ifMatch: read.etag }))).toBe('precondition_failed');
    expect(await failureOf(admin.createPet({ name: '', categoryId: 1 }))).toBe('validation_error');

    await admin.createPet({ name: 'Admin Max', categoryId: 1 });
    const first = await admin.listPets({ limit: 1 });
    expect(first.nextCursor).not.toBeNull();
    const second = await admin.listPets({ limit: 1, cursor: first.nextCursor! });
    expect(second.pets[0]!.id).toBeGreaterThan(first.pets[0]!.id);

    const overview = await admin.getOverview();
    expect(overview).toMatchObject({
      requests: { answered: expect.any(Number), rateLimited: 0 },
      webhooks: { pending: expect.any(Number), undispatched: expect.any(Number), lagSeconds: expect.any(Number) },
    });
    expect(Date.parse(overview.since)).toBeLessThanOrEqual(Date.parse(overview.at));
  });
});
