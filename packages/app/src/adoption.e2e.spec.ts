import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { issueUnlimitedKey, spawnServer, STOPPED_AT_ONCE, WITH_ADMIN_API, type ServerProcess } from '@petstore/test-support';
import { describeWithPostgresAndRedis } from '@petstore/test-support/jest';
import { auth, postPet, type StoredPet } from './testing/api.js';
import { countStaleReads, patchPet } from './testing/staleReads.js';

/** `count` pets, created on `server`, half available and half pending. */
async function seedPets(server: ServerProcess, key: string, count: number): Promise<StoredPet[]> {
  const pets: StoredPet[] = [];
  for (let i = 0; i < count; i++) {
    const pet = (await (await postPet(server, key, `adoptable ${i}`)).json()) as StoredPet;
    if (i % 2) pets.push((await (await patchPet(server, key, pet.id, { status: 'pending' })).json()) as StoredPet);
    else pets.push(pet);
  }
  return pets;
}

/**
 * Sends pending -> sold to `first` and pending -> available to `second` together. When the server receives both
 * before either is stored, exactly one wins and the other is refused (409: the status changed while it was in
 * flight). When it receives the second only after the first was stored (a loaded machine can delay one request
 * that long), the second is judged against what the first left: available then sold is two changes, sold then
 * available is refused (sold is final). Either way nothing is lost: the stored status is the last one allowed.
 */
async function expectSerialized(first: ServerProcess, second: ServerProcess, key: string, petId: number): Promise<void> {
  const [sold, available] = await Promise.all([
    patchPet(first, key, petId, { status: 'sold' }),
    patchPet(second, key, petId, { status: 'available' }),
  ]);
  const stored = (await (await fetch(`${first.url}/pets/${petId}`, { headers: auth(key) })).json()) as StoredPet;
  if (sold.status === 200 && available.status === 200) expect(stored.status).toBe('sold');
  else expect([sold.status, available.status].sort()).toEqual([200, 409]);
  expect(stored.status).toBe(sold.status === 200 ? 'sold' : 'available');
}

/**
 * Rounds of `countStaleReads` on one server or two: its requests go one after another, so every round is one more
 * pass through the same states (20 pets, each moved every 20 rounds), and 400 take every pet through 20 changes and
 * every page through being read, kept and read again. A page kept past a change (in the process that changed it or in
 * another), a 304 for a changed page or a cursor that goes back shows within the first rounds.
 */
const STALE_READ_ROUNDS = 400;

describeWithPostgresAndRedis('adoptions on two instances sharing PostgreSQL and Redis', (servers) => {
  let a: ServerProcess;
  let b: ServerProcess;
  let key: string;

  beforeAll(async () => {
    const env = {
      DATABASE_URL: servers().postgres.url,
      REDIS_URL: servers().redis.url,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PUBLIC_BASE_URL: 'http://petstore.test/v1',
    };
    [a, b] = await Promise.all([spawnServer({ ...STOPPED_AT_ONCE, ...WITH_ADMIN_API, ...env }), spawnServer({ ...STOPPED_AT_ONCE, ...env })]);
    key = await issueUnlimitedKey(a);
  }, 90_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  }, 30_000);

  it('never shows a reader on one instance the state before a change the other instance answered 200 for', async () => {
    const pets = await seedPets(a, key, 20);
    const { transitions, stale } = await countStaleReads(
      key,
      pets,
      STALE_READ_ROUNDS,
      (round) => (round % 2 ? a : b),
      (round) => (round % 2 ? b : a),
    );
    expect(stale).toEqual([]);
    expect(transitions).toBe(STALE_READ_ROUNDS);
  }, 600_000);

  it('serializes pending -> sold and pending -> available sent together, to one instance or to two: one wins, nothing is lost', async () => {
    for (let round = 0; round < 100; round++) {
      const [pet] = await seedPets(a, key, 2).then((pets) => pets.filter((p) => p.status === 'pending'));
      await expectSerialized(a, round % 2 ? a : b, key, pet!.id);
    }
  }, 120_000);

  it('of two changes with the same If-Match sent to both instances together, exactly one wins: the other is 412', async () => {
    for (let round = 0; round < 40; round++) {
      const [pet] = await seedPets(a, key, 2).then((pets) => pets.filter((p) => p.status === 'pending'));
      const tag = (await fetch(`${b.url}/pets/${pet!.id}`, { headers: auth(key) })).headers.get('etag')!;
      const answers = await Promise.all([
        patchPet(a, key, pet!.id, { status: 'sold' }, { 'If-Match': tag }),
        patchPet(b, key, pet!.id, { status: 'available' }, { 'If-Match': tag }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 412]);
    }
  }, 120_000);

  it('lands two concurrent changes of different fields, and lets one of two with the same If-Match through', async () => {
    for (let round = 0; round < 20; round++) {
      const [pet] = await seedPets(a, key, 1);
      const both = await Promise.all([patchPet(a, key, pet!.id, { name: `renamed ${round}` }), patchPet(b, key, pet!.id, { categoryId: 42 })]);
      expect(both.map((answer) => answer.status)).toEqual([200, 200]);
      const stored = (await (await fetch(`${b.url}/pets/${pet!.id}`, { headers: auth(key) })).json()) as StoredPet;
      expect(stored).toMatchObject({ name: `renamed ${round}`, categoryId: 42 });

      const tag = (await fetch(`${a.url}/pets/${pet!.id}`, { headers: auth(key) })).headers.get('etag')!;
      const conditional = await Promise.all([
        patchPet(a, key, pet!.id, { status: 'pending' }, { 'If-Match': tag }),
        patchPet(b, key, pet!.id, { name: 'other' }, { 'If-Match': tag }),
      ]);
      expect(conditional.map((answer) => answer.status).sort()).toEqual([200, 412]);
    }
  }, 120_000);
});

describe('adoptions on one instance on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-adoption-'));
  let server: ServerProcess;
  let key: string;

  beforeAll(async () => {
    const databaseUrl = `sqlite:${join(dir, 'petstore.db')}`;
    server = await spawnServer({ ...STOPPED_AT_ONCE, ...WITH_ADMIN_API, DATABASE_URL: databaseUrl, NODE_ENV: 'production', LOG_LEVEL: 'warn' });
    key = await issueUnlimitedKey(server);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('never shows a read that starts after a change the state before it', async () => {
    const pets = await seedPets(server, key, 20);
    const { transitions, stale } = await countStaleReads(
      key,
      pets,
      STALE_READ_ROUNDS,
      () => server,
      () => server,
    );
    expect(stale).toEqual([]);
    expect(transitions).toBe(STALE_READ_ROUNDS);
  }, 600_000);

  it('serializes pending -> sold and pending -> available sent together: one wins, nothing is lost', async () => {
    for (let round = 0; round < 100; round++) {
      const [pet] = await seedPets(server, key, 2).then((pets) => pets.filter((p) => p.status === 'pending'));
      await expectSerialized(server, server, key, pet!.id);
    }
  }, 120_000);
});

describe('two processes on one SQLite file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-adoption-'));
  let writer: ServerProcess;
  let reader: ServerProcess;
  let key: string;

  beforeAll(async () => {
    const env = { ...STOPPED_AT_ONCE, DATABASE_URL: `sqlite:${join(dir, 'petstore.db')}`, NODE_ENV: 'production', LOG_LEVEL: 'warn' };
    writer = await spawnServer({ ...env, ...WITH_ADMIN_API });
    reader = await spawnServer(env);
    key = await issueUnlimitedKey(writer);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([writer?.stop(), reader?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('never shows a read on one the state before a change the other answered 200 for, pages it keeps included', async () => {
    const pets = await seedPets(writer, key, 20);
    // The reader asks for the same pages again and again, so it keeps them, and a change it did not make must still show.
    const { transitions, stale } = await countStaleReads(
      key,
      pets,
      300,
      () => writer,
      () => reader,
    );
    expect(stale).toEqual([]);
    expect(transitions).toBe(300);
  }, 300_000);
});
