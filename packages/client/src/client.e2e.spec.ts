import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  issueUnlimitedKey,
  listAllPets,
  runNodeProcess,
  spawnServer,
  STOPPED_AT_ONCE,
  WITH_ADMIN_API,
  type ServerProcess,
} from './testing/builtServer.js';
import { createClient, PetstoreError, type Pet } from './index.js';
import { recordingFetch } from './testing/recordingFetch.js';

const here = dirname(fileURLToPath(import.meta.url));
const QUICKSTART = join(here, '..', '..', '..', 'examples', 'dist', 'client-quickstart.js');

describe('@petstore/client against the built server (SQLite)', () => {
  let work: string;
  let databaseUrl: string;
  let server: ServerProcess;
  let unlimitedKey: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'petstore-client-'));
    databaseUrl = `sqlite:${join(work, 'petstore.db')}`;
    server = await spawnServer({ ...STOPPED_AT_ONCE, ...WITH_ADMIN_API, DATABASE_URL: databaseUrl, NODE_ENV: 'production' });
    unlimitedKey = await issueUnlimitedKey(server);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await rm(work, { recursive: true, force: true });
  });

  const clientWith = (apiKey: string, fetchImpl?: typeof fetch) =>
    createClient({ baseUrl: server.url, apiKey, ...(fetchImpl ? { fetch: fetchImpl } : {}) });

  it('iterates every pet of a status over several pages exactly once, in id order', async () => {
    const client = clientWith(unlimitedKey);
    const made = await Promise.all(
      Array.from({ length: 23 }, (_, i) => client.createPet({ name: `paged-${i}`, categoryId: 2, status: i % 3 === 0 ? 'sold' : 'pending' })),
    );
    const pending = made
      .filter((p) => p.status === 'pending')
      .map((p) => p.id)
      .sort((a, b) => a - b);

    const seen: Pet[] = [];
    for await (const pet of client.iteratePets({ status: 'pending', limit: 4 })) seen.push(pet);

    expect(seen.map((p) => p.id)).toEqual(pending);
    const first = await client.listPets({ status: 'pending', limit: 4 });
    expect(first.pets).toHaveLength(4);
    expect(first.next).not.toBeNull();
    const second = await first.next!();
    expect(second.pets[0]!.id).toBeGreaterThan(first.pets[3]!.id);
  }, 60_000);

  it('answers with the service’s errors, request id included, and never retries them', async () => {
    const recorder = recordingFetch();
    const client = clientWith(unlimitedKey, recorder.fetch);

    const invalid = await client.createPet({ name: '', categoryId: 1 }).catch((error: unknown) => error);
    expect(PetstoreError.is(invalid)).toBe(true);
    expect(invalid).toMatchObject({
      code: 'validation_error',
      status: 400,
      details: [expect.objectContaining({ field: 'name' })],
      requestId: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the deprecated operation still works until its sunset
    await expect(client.getPet(9_007_199_254_740_991)).rejects.toMatchObject({ code: 'not_found', status: 404 });
    await expect(clientWith('pst_not-a-key', recorder.fetch).listPets()).rejects.toMatchObject({ code: 'unauthorized', status: 401 });
    expect(recorder.exchanges.map((e) => e.status)).toEqual([400, 404, 401]);
  }, 30_000);

  it('creates once per idempotency key, reads a pet by id (deprecated) and keeps the key’s rate-limit state', async () => {
    const client = clientWith(unlimitedKey);
    const [a, b] = await Promise.all([
      client.createPet({ name: 'Once', categoryId: 3 }, { idempotencyKey: 'client-e2e-once' }),
      client.createPet({ name: 'Once', categoryId: 3 }, { idempotencyKey: 'client-e2e-once' }),
    ]);
    expect(b).toEqual(a);
    expect((await listAllPets(server, unlimitedKey)).filter((p) => p.name === 'Once')).toHaveLength(1);

    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the deprecated operation still works until its sunset
    expect(await client.getPet(a.id)).toEqual(a);
    expect(client.rateLimit).toMatchObject({
      limit: 1_000_000_000,
      windows: [expect.objectContaining({ name: 'minute', limit: 1_000_000_000 }), expect.objectContaining({ name: 'day' })],
    });
  }, 30_000);

  it('changes a pet, honouring ifMatch, and surfaces 412 with the current ETag and 409 as typed errors', async () => {
    const client = clientWith(unlimitedKey);
    const rex = await client.createPet({ name: 'Adoptable', categoryId: 1 });
    const pending = await client.updatePet(rex.id, { status: 'pending' });
    expect(pending.pet).toEqual({ ...rex, status: 'pending' });
    expect(pending.etag).toMatch(/^"[^"]+"$/);

    const stale = await client.updatePet(rex.id, { name: 'Other' }, { ifMatch: '"p1.0.0"' }).catch((error: unknown) => error);
    expect(PetstoreError.is(stale) && stale).toMatchObject({ code: 'precondition_failed', status: 412, etag: pending.etag });

    const sold = await client.updatePet(rex.id, { status: 'sold' }, { ifMatch: pending.etag });
    expect(sold.pet.status).toBe('sold');
    const refused = await client.updatePet(rex.id, { status: 'available' }).catch((error: unknown) => error);
    expect(PetstoreError.is(refused) && refused).toMatchObject({
      code: 'invalid_transition',
      status: 409,
      message: expect.stringContaining('sold is final'),
    });
  });

  it('reads a pet’s current tag with an empty patch, not the deprecated getPet, and changes it safely through a race', async () => {
    const [alice, bob] = [clientWith(unlimitedKey), clientWith(unlimitedKey)];
    const rex = await alice.createPet({ name: 'Raced', categoryId: 1 });
    const read = await alice.updatePet(rex.id, {});
    expect(read.pet).toEqual(rex);
    expect(await alice.updatePet(rex.id, {})).toEqual(read); // it changes nothing
    await bob.updatePet(rex.id, { name: 'Renamed' });
    const stale = await alice.updatePet(rex.id, { status: 'pending' }, { ifMatch: read.etag }).catch((error: unknown) => error);
    expect(PetstoreError.is(stale) && stale).toMatchObject({ code: 'precondition_failed', status: 412 });
    const again = await alice.updatePet(rex.id, {});
    expect(again.pet).toEqual({ ...rex, name: 'Renamed' });
    expect(again.etag).not.toBe(read.etag);
    const changed = await alice.updatePet(rex.id, { status: 'pending' }, { ifMatch: again.etag });
    expect(changed.pet).toEqual({ ...rex, name: 'Renamed', status: 'pending' });
  });

  it('reads the key’s usage without spending any of it', async () => {
    const client = clientWith(unlimitedKey);
    const dayUsed = async () => (await client.getRateLimit()).windows.find((w) => w.name === 'day')!.used;
    const before = await dayUsed();
    expect(await dayUsed()).toBe(before);
    await client.listPets();
    expect(await dayUsed()).toBe(before + 1);
    expect(await client.getRateLimit()).toMatchObject({ plan: 'enterprise', bannedUntil: null });
  }, 30_000);

  it('runs the quick-start example of docs/client.md', async () => {
    const run = await runNodeProcess(QUICKSTART, [], { PETSTORE_BASE_URL: server.url, PETSTORE_API_KEY: unlimitedKey });

    expect(run).toMatchObject({ code: 0 });
    expect(run.stdout).toMatch(/^created pet \d+: Rex$/m);
    expect(run.stdout).toMatch(/refused as expected: validation_error name/);
  }, 30_000);
});
