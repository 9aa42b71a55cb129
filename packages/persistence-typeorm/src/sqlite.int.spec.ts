import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { anApiKey, aPetDraft, FakeWebhookTargets, RecordingWebhookSender } from '@petstore/core/testing';
import { describePetRepositoryContract } from '@petstore/core/contracts';
import { createPetStore, hashApiKeySecret, InMemoryRateLimitStore, SystemClock, eventsOfCreate, eventsOfUpdate } from '@petstore/core';
import { betterSqlite3 } from './betterSqlite3.js';
import type { DataSource } from 'typeorm';
import { createDataSource } from './createDataSource.js';
import { migrate } from './migrate.js';
import { EVERY_MIGRATION, migrationsFrom } from './testing/everyMigration.js';
import { TypeOrmKeyStore } from './TypeOrmKeyStore.js';
import { TypeOrmEventLog } from './TypeOrmEventLog.js';
import { TypeOrmPetRepository } from './TypeOrmPetRepository.js';
import { describeTypeOrmContracts } from './testing/describeTypeOrmContracts.js';
import { typeOrmPorts } from './typeOrmPorts.js';

const Database = betterSqlite3();

const dir = mkdtempSync(join(tmpdir(), 'petstore-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newFile = () => join(dir, `db-${++files}`, 'petstore.db');

async function open(url: string, statementTimeoutMs?: number): Promise<DataSource> {
  const dataSource = createDataSource(url, statementTimeoutMs === undefined ? {} : { statementTimeoutMs });
  await dataSource.initialize();
  await migrate(dataSource);
  return dataSource;
}

for (const [label, url] of [
  ['SQLite in memory', () => 'sqlite::memory:'],
  ['SQLite file', () => `sqlite:${newFile()}`],
] as const) {
  describeTypeOrmContracts(`on ${label}`, async () => {
    const dataSource = await open(url());
    return { dataSource, close: () => dataSource.destroy() };
  });
}

describePetRepositoryContract('TypeOrmPetRepository on SQLite with a statement observer', async () => {
  const dataSource = await open('sqlite::memory:');
  const statements = { statement: <T>(_sql: string, run: () => T) => run() };
  return {
    repository: new TypeOrmPetRepository(dataSource, { statements }),
    events: new TypeOrmEventLog(dataSource),
    close: () => dataSource.destroy(),
  };
});

// Few rows kept, so that the contract runs through reads, stitching and eviction of kept runs alike.
describePetRepositoryContract('TypeOrmPetRepository on a SQLite file keeping listing rows', async () => {
  const dataSource = await open(`sqlite:${newFile()}`);
  return {
    repository: new TypeOrmPetRepository(dataSource, { keptListingRows: 40 }),
    events: new TypeOrmEventLog(dataSource),
    close: () => dataSource.destroy(),
  };
});

describe('listing rows kept in memory (SQLite)', () => {
  it('tells no listing revision when it keeps no rows, nor on a closed connection', async () => {
    const dataSource = await open(`sqlite:${newFile()}`);
    expect(await new TypeOrmPetRepository(dataSource).listingRevision()).toBeUndefined();
    const keeping = new TypeOrmPetRepository(dataSource, { keptListingRows: 10 });
    expect(await keeping.listingRevision()).toEqual(expect.any(Number));
    await dataSource.destroy();
    await expect(keeping.listingRevision()).rejects.toMatchObject({ code: 'service_unavailable' });
  });

  it('tells a listing revision that reads leave alone, every change moves on, and never comes back', async () => {
    const dataSource = await open(`sqlite:${newFile()}`);
    const pets = new TypeOrmPetRepository(dataSource, { keptListingRows: 40 });
    const told: (number | undefined)[] = [];
    const expectMovedBy = async (change: () => Promise<unknown>) => {
      const before = await pets.listingRevision();
      await pets.list({ limit: 5 });
      await pets.list({ limit: 5, status: 'pending' });
      await pets.findById(1);
      expect(await pets.listingRevision()).toBe(before);
      told.push(before);
      await change();
      const after = await pets.listingRevision();
      expect(after).toEqual(expect.any(Number));
      expect(told).not.toContain(after);
    };
    const rex = await pets.create(aPetDraft(), eventsOfCreate());
    await expectMovedBy(() => pets.create(aPetDraft({ status: 'sold' }), eventsOfCreate()));
    await expectMovedBy(() =>
      pets.update(rex.id, rex.version, { ...rex, status: 'pending' }, { at: Date.now(), requestedAt: Date.now() }, eventsOfUpdate(rex)),
    );
    await expectMovedBy(() =>
      pets.update(
        rex.id,
        rex.version + 1,
        { ...rex, name: 'renamed', status: 'pending' },
        { at: Date.now(), requestedAt: Date.now() },
        eventsOfUpdate(rex),
      ),
    );
    await expectMovedBy(() => Promise.all(Array.from({ length: 20 }, () => pets.create(aPetDraft(), eventsOfCreate()))));
    await dataSource.destroy();
  });

  it('shows what another process changed or created in the same file', async () => {
    const file = newFile();
    const dataSource = await open(`sqlite:${file}`);
    const pets = new TypeOrmPetRepository(dataSource, { keptListingRows: 1_000 });
    const rex = await pets.create(aPetDraft({ name: 'Rex', status: 'available' }), eventsOfCreate());
    expect((await pets.list({ limit: 10, status: 'available' })).pets).toEqual([rex]);
    const other = new Database(file);
    try {
      const revision = await pets.listingRevision();
      expect(revision).toEqual(expect.any(Number));
      other.prepare(`UPDATE "pets" SET "status" = 'sold', "version" = "version" + 1 WHERE "id" = ?`).run(rex.id);
      expect(await pets.listingRevision()).not.toBe(revision);
      expect((await pets.list({ limit: 10, status: 'available' })).pets).toEqual([]);
      const afterUpdate = await pets.listingRevision();
      other.prepare(`INSERT INTO "pets" ("name", "category_id", "status") VALUES ('Tom', 2, 'sold')`).run();
      expect(await pets.listingRevision()).not.toBe(afterUpdate);
      expect((await pets.list({ limit: 10, status: 'sold' })).pets.map((pet) => pet.name)).toEqual(['Rex', 'Tom']);
    } finally {
      other.close();
      await dataSource.destroy();
    }
  });

  it('keeps nothing read inside a transaction opened through TypeORM, whose rows may roll back', async () => {
    const dataSource = await open(`sqlite:${newFile()}`);
    const pets = new TypeOrmPetRepository(dataSource, { keptListingRows: 1_000 });
    const embedder = dataSource.createQueryRunner();
    await embedder.startTransaction();
    await embedder.query(`INSERT INTO "pets" ("name", "category_id", "status") VALUES ('rolled back', 1, 'available')`);
    expect((await pets.list({ limit: 10 })).pets.map((pet) => pet.name)).toEqual(['rolled back']);
    // Nor does it tell a listing revision then: nothing read now may be kept.
    expect(await pets.listingRevision()).toBeUndefined();
    await embedder.rollbackTransaction();
    expect((await pets.list({ limit: 10 })).pets).toEqual([]);
    await dataSource.destroy();
  });
});

describe('a statement observer (tracing)', () => {
  it('sees each pet statement run, with its SQL text, and hands back what it returns or throws', async () => {
    const dataSource = await open('sqlite::memory:');
    const seen: string[] = [];
    const statements = {
      statement<T>(sql: string, run: () => T): T {
        seen.push(sql);
        return run();
      },
    };
    const repository = new TypeOrmPetRepository(dataSource, { statements });
    const pet = await repository.create(aPetDraft({ status: 'sold' }), eventsOfCreate());
    expect(await repository.findById(pet.id)).toEqual(pet);
    expect((await repository.list({ limit: 10 })).pets).toEqual([pet]);
    expect((await repository.list({ limit: 10, status: 'sold' })).pets).toEqual([pet]);
    expect(seen).toEqual([
      expect.stringMatching(/^INSERT INTO "pets" .* VALUES \(\?, \?, \?\) RETURNING "id"$/),
      expect.stringMatching(/^SELECT .* FROM "pets" WHERE "id" = \?$/),
      expect.stringMatching(/^SELECT .* FROM "pets" WHERE "id" > \? ORDER BY "id" LIMIT CAST\(\? AS INTEGER\)$/),
      expect.stringMatching(/^SELECT .* FROM "pets" WHERE "status" = \? AND "id" > \? ORDER BY "id" LIMIT CAST\(\? AS INTEGER\)$/),
    ]);
    await dataSource.destroy();
    await expect(repository.findById(pet.id)).rejects.toMatchObject({ code: 'service_unavailable' });
    expect(seen).toHaveLength(5);
  });
});

describe('SQLite file', () => {
  it('keeps every pet and key across close and reopen', async () => {
    const url = `sqlite:${newFile()}`;
    const first = await open(url);
    const pets = await Promise.all(
      [1, 2, 3].map((i) => new TypeOrmPetRepository(first).create(aPetDraft({ name: `pet ${i}`, status: 'sold' }), eventsOfCreate())),
    );
    const key = anApiKey({ plan: 'enterprise', limitOverrides: { perMinute: 9, perDay: 99 } });
    await new TypeOrmKeyStore(first).create(key, hashApiKeySecret('s'));
    await first.destroy();

    const second = await open(url);
    expect((await new TypeOrmPetRepository(second).list({ limit: 10 })).pets).toEqual(pets);
    expect(await new TypeOrmKeyStore(second).findByHash(hashApiKeySecret('s'))).toEqual({ key, matched: 'current' });
    await second.destroy();
  });

  it('runs migrations on an empty database, then finds nothing left to do', async () => {
    const dataSource = createDataSource(`sqlite:${newFile()}`);
    await dataSource.initialize();
    expect(await migrate(dataSource)).toEqual(EVERY_MIGRATION);
    expect(await migrate(dataSource)).toEqual([]);
    await dataSource.destroy();
  });

  it('gives a pet stored before pets had versions version 1, listed and changed like any other', async () => {
    const dataSource = await open(`sqlite:${newFile()}`);
    for (const _ of migrationsFrom('PetVersion1764316800000')) await dataSource.undoLastMigration({ transaction: 'each' });
    await dataSource.query(`INSERT INTO "pets" ("name", "category_id", "status") VALUES ('old', 3, 'pending')`);
    expect(await migrate(dataSource)).toEqual(migrationsFrom('PetVersion1764316800000'));
    const repository = new TypeOrmPetRepository(dataSource);
    const old = { id: 1, name: 'old', categoryId: 3, status: 'pending', version: 1 };
    expect(await repository.findById(1)).toEqual(old);
    expect((await repository.list({ limit: 5, status: 'pending' })).pets).toEqual([old]);
    expect(
      await repository.update(
        1,
        1,
        { name: 'old', categoryId: 3, status: 'sold' },
        { at: 1, requestedAt: 1 },
        eventsOfUpdate({ name: 'old', categoryId: 3, status: 'pending' }),
      ),
    ).toEqual({
      ...old,
      status: 'sold',
      version: 2,
    });
    await dataSource.destroy();
  });

  it('keeps a key stored before the key-model migration working: both scopes, no expiry, enabled, found by its hash', async () => {
    const dataSource = await open(`sqlite:${newFile()}`);
    for (const _ of migrationsFrom('KeyModel1764028800000')) await dataSource.undoLastMigration({ transaction: 'each' }); // back to before the key model
    await dataSource.query(
      `INSERT INTO "api_keys" ("id", "name", "plan", "per_minute", "per_day", "secret_hash", "created_at_ms", "revoked_at_ms") ` +
        `VALUES ('key_00000000000000aa', 'old', 'pro', NULL, 20000, ?, 1763769600000, NULL)`,
      [hashApiKeySecret('pk_legacy')],
    );
    expect(await migrate(dataSource)).toEqual(migrationsFrom('KeyModel1764028800000'));
    expect(await new TypeOrmKeyStore(dataSource).findByHash(hashApiKeySecret('pk_legacy'))).toEqual({
      key: anApiKey({
        id: 'key_00000000000000aa',
        name: 'old',
        plan: 'pro',
        limitOverrides: { perMinute: null, perDay: 20_000 },
        scopes: ['pets:read', 'pets:write'],
        expiresAt: null,
        disabled: false,
        createdAt: new Date(1763769600000),
        revokedAt: null,
        previousSecretExpiresAt: null,
      }),
      matched: 'current',
    });
    await dataSource.destroy();
  });

  it('is set up for a server: WAL, synchronous NORMAL, foreign keys, a busy timeout', async () => {
    const dataSource = await open(`sqlite:${newFile()}`);
    const pragma = async (name: string) => Object.values((await dataSource.query<Record<string, unknown>[]>(`PRAGMA ${name}`))[0]!)[0];
    expect(await pragma('journal_mode')).toBe('wal');
    expect(await pragma('synchronous')).toBe(1); // NORMAL
    expect(await pragma('foreign_keys')).toBe(1);
    expect(await pragma('busy_timeout')).toBe(5000);
    await dataSource.destroy();
  });

  it.each([
    ['NORMAL', 1],
    ['FULL', 2],
  ] as const)('sets PRAGMA synchronous to %s on a database file when asked to (%i)', async (sqliteSynchronous, value) => {
    const dataSource = createDataSource(`sqlite:${newFile()}`, { sqliteSynchronous });
    await dataSource.initialize();
    expect(await dataSource.query('PRAGMA synchronous')).toEqual([{ synchronous: value }]);
    expect(await dataSource.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
    await dataSource.destroy();
  });

  it('never reuses an id, even the highest one after it is deleted', async () => {
    const dataSource = await open(`sqlite:${newFile()}`);
    const pets = new TypeOrmPetRepository(dataSource);
    await pets.create(aPetDraft(), eventsOfCreate());
    const second = await pets.create(aPetDraft(), eventsOfCreate());
    await dataSource.query('DELETE FROM "pets" WHERE "id" = ?', [second.id]);
    expect((await pets.create(aPetDraft(), eventsOfCreate())).id).toBe(second.id + 1);
    await dataSource.destroy();
  });

  it('serves listing from the indexes: the covering (status, id) index and the primary key, no table sort', async () => {
    const dataSource = await open(`sqlite:${newFile()}`);
    const plan = async (sql: string) => (await dataSource.query<{ detail: string }[]>(`EXPLAIN QUERY PLAN ${sql}`)).map((r) => r.detail).join(' | ');
    const byStatus = await plan(
      `SELECT "id", "name", "category_id", "status" FROM "pets" WHERE "status" = 'sold' AND "id" > 5 ORDER BY "id" LIMIT CAST(21 AS INTEGER)`,
    );
    expect(byStatus).toMatch(/SEARCH pets USING COVERING INDEX idx_pets_status_id \(status=\? AND (id|rowid)>\?\)/);
    expect(byStatus).not.toMatch(/TEMP B-TREE/);
    const all = await plan(`SELECT "id", "name", "category_id", "status" FROM "pets" WHERE "id" > 5 ORDER BY "id" LIMIT CAST(21 AS INTEGER)`);
    expect(all).toMatch(/SEARCH pets USING INTEGER PRIMARY KEY \(rowid>\?\)/);
    await dataSource.destroy();
  });

  it('answers service_unavailable when a write stays locked out past the busy timeout (reads go on under WAL)', async () => {
    const file = newFile();
    const dataSource = await open(`sqlite:${file}`, 200);
    const locker = new Database(file);
    locker.exec('BEGIN EXCLUSIVE');
    try {
      await expect(new TypeOrmPetRepository(dataSource).create(aPetDraft(), eventsOfCreate())).rejects.toMatchObject({ code: 'service_unavailable' });
      await expect(new TypeOrmKeyStore(dataSource).create(anApiKey(), hashApiKeySecret('locked'))).rejects.toMatchObject({
        code: 'service_unavailable',
      });
      expect((await new TypeOrmPetRepository(dataSource).list({ limit: 1 })).pets).toEqual([]);
    } finally {
      locker.exec('ROLLBACK');
      locker.close();
    }
    expect((await new TypeOrmPetRepository(dataSource).create(aPetDraft(), eventsOfCreate())).id).toBe(1);
    await dataSource.destroy();
  });

  it('keeps creates out of a transaction opened through TypeORM on the shared connection: they wait for it to end', async () => {
    const dataSource = await open(`sqlite:${newFile()}`);
    const pets = new TypeOrmPetRepository(dataSource);
    const embedder = dataSource.createQueryRunner();
    await embedder.startTransaction();
    await embedder.query(`INSERT INTO "pets" ("name", "category_id", "status") VALUES ('rolled back', 1, 'available')`);
    const creating = pets.create(aPetDraft({ name: 'Rex' }), eventsOfCreate());
    // Turns of the event loop in which the group commit runs, while the transaction is open.
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    await embedder.rollbackTransaction();
    const rex = await creating;
    expect((await pets.list({ limit: 10 })).pets).toEqual([rex]);
    await dataSource.destroy();
  });

  it('answers service_unavailable for a create when such a transaction stays open past the busy timeout', async () => {
    const dataSource = await open(`sqlite:${newFile()}`, 200);
    const embedder = dataSource.createQueryRunner();
    await embedder.startTransaction();
    await expect(new TypeOrmPetRepository(dataSource).create(aPetDraft(), eventsOfCreate())).rejects.toMatchObject({ code: 'service_unavailable' });
    await embedder.rollbackTransaction();
    expect((await new TypeOrmPetRepository(dataSource).create(aPetDraft(), eventsOfCreate())).id).toBe(1);
    await dataSource.destroy();
  });

  it('answers service_unavailable, not a driver error, once the data source is closed', async () => {
    const dataSource = await open('sqlite::memory:');
    await dataSource.destroy();
    await expect(new TypeOrmPetRepository(dataSource).findById(1)).rejects.toMatchObject({ code: 'service_unavailable' });
  });
});

describe('typeOrmPorts', () => {
  it('stores pets, their events, keys, the audit trail and webhook endpoints on the one DataSource', async () => {
    const file = newFile();
    const dataSource = await open(`sqlite:${file}`);
    try {
      const ports = { rateLimits: new InMemoryRateLimitStore(), webhookTargets: new FakeWebhookTargets(), clock: new SystemClock() };
      const store = createPetStore({ ...typeOrmPorts(dataSource), ...ports, webhookSender: new RecordingWebhookSender() });
      const { key } = await store.issueApiKey.execute({ plan: 'free', name: 'front desk' }, 'cli');
      const rex = await store.createPet.execute({ name: 'Rex', categoryId: 1 });
      const { endpoint } = await store.createWebhookEndpoint.execute({ url: 'https://crm.example.org/hooks' }, 'cli');

      const other = new Database(file, { readonly: true });
      try {
        const count = (table: string) => (other.prepare(`SELECT COUNT(*) AS n FROM "${table}"`).get() as { n: number }).n;
        expect([count('pets'), count('pet_events'), count('api_keys'), count('webhook_endpoints')]).toEqual([1, 1, 1, 1]);
      } finally {
        other.close();
      }
      expect((await store.listEvents.execute()).events.map((event) => [event.type, event.data.id])).toEqual([['pet.created', rex.id]]);
      expect((await store.listAuditEvents.execute()).events.map((event) => event.action)).toEqual(['webhook.created', 'key.created']);
      expect((await store.getApiKey.execute(key.id)).id).toBe(key.id);
      expect((await store.getWebhookEndpoint.execute(endpoint.id)).url).toBe('https://crm.example.org/hooks');
    } finally {
      await dataSource.destroy();
    }
  });
});
