import { describe, expect, it } from '@jest/globals';
import { hashApiKeySecret, eventsOfCreate } from '@petstore/core';
import { aPetDraft } from '@petstore/core/testing';
import { eventually } from '@petstore/test-support';
import { describeWithPostgres } from '@petstore/test-support/jest';
import { createDataSource } from './createDataSource.js';
import { postgresPoolOf } from './driverConnections.js';
import { PET_COLUMNS } from './petRows.js';
import { migrate } from './migrate.js';
import { EVERY_MIGRATION, migrationsFrom } from './testing/everyMigration.js';
import { migratedDataSource } from './testing/migratedDataSource.js';
import { pageReadsSql } from './postgresPageReads.js';
import { writeDuringStall } from './testing/writeDuringStall.js';
import { TypeOrmKeyStore } from './TypeOrmKeyStore.js';
import { TypeOrmPetRepository } from './TypeOrmPetRepository.js';
import { describeTypeOrmContracts } from './testing/describeTypeOrmContracts.js';

describeWithPostgres('on PostgreSQL 15', (server) => {
  const { database, emptied } = migratedDataSource(() => createDataSource(server().url, { statementTimeoutMs: 2_000 }));

  describeTypeOrmContracts('on PostgreSQL 15', async () => ({ dataSource: await emptied() }));

  describe('PostgreSQL', () => {
    it('runs migrations on an up-to-date database without doing anything', async () => {
      expect(await migrate(database())).toEqual([]);
    });

    it('migrates an empty database, also when two processes start at once', async () => {
      const admin = createDataSource(server().url);
      await admin.initialize();
      await admin.query('CREATE DATABASE petstore_fresh');
      await admin.destroy();
      const url = server().url.replace(/\/petstore$/, '/petstore_fresh');
      const [a, b] = [createDataSource(url), createDataSource(url)];
      await Promise.all([a.initialize(), b.initialize()]);
      const applied = await Promise.all([migrate(a), migrate(b)]);
      expect(applied.flat()).toEqual(EVERY_MIGRATION);
      await Promise.all([a.destroy(), b.destroy()]);
    });

    it('keeps a key stored before the key-model migration working: both scopes, no expiry, enabled, found by its hash', async () => {
      await emptied();
      for (const _ of migrationsFrom('KeyModel1764028800000')) await database().undoLastMigration({ transaction: 'each' }); // back to before the key model
      try {
        await database().query(
          `INSERT INTO "api_keys" ("id", "name", "plan", "per_minute", "per_day", "secret_hash", "created_at_ms", "revoked_at_ms") ` +
            `VALUES ('key_00000000000000aa', 'old', 'free', 10, NULL, $1, 1763769600000, NULL)`,
          [hashApiKeySecret('pk_legacy')],
        );
      } finally {
        expect(await migrate(database())).toEqual(migrationsFrom('KeyModel1764028800000'));
      }
      const found = await new TypeOrmKeyStore(database()).findByHash(hashApiKeySecret('pk_legacy'));
      expect(found).toMatchObject({
        key: { id: 'key_00000000000000aa', scopes: ['pets:read', 'pets:write'], expiresAt: null, disabled: false, previousSecretExpiresAt: null },
        matched: 'current',
      });
    });

    it('never reuses an id, even the highest one after it is deleted', async () => {
      const pets = new TypeOrmPetRepository(await emptied());
      await pets.create(aPetDraft(), eventsOfCreate());
      const second = await pets.create(aPetDraft(), eventsOfCreate());
      await database().query('DELETE FROM "pets" WHERE "id" = $1', [second.id]);
      await expect(database().query(`INSERT INTO "pets" ("name", "category_id", "status") VALUES ('x', 1, 'lost')`)).rejects.toThrow();
      expect((await pets.create(aPetDraft(), eventsOfCreate())).id).toBeGreaterThan(second.id);
    });

    it('refuses loudly an id beyond 2^53-1 instead of losing precision', async () => {
      await emptied();
      await database().query(
        `INSERT INTO "pets" ("id", "name", "category_id", "status") OVERRIDING SYSTEM VALUE VALUES (9007199254740993, 'big', 1, 'sold')`,
      );
      await expect(new TypeOrmPetRepository(database()).list({ limit: 5 })).rejects.toThrow('database integer 9007199254740993 is beyond 2^53-1');
    });

    it('reads pages from the indexes on 20,000 rows (1% sold), several in one statement: no sequential scan, no sort', async () => {
      await emptied();
      await database().query(
        `INSERT INTO "pets" ("name", "category_id", "status") SELECT 'pet ' || i, 1 + i % 50, CASE WHEN i % 100 = 0 THEN 'sold' WHEN i % 2 = 0 THEN 'pending' ELSE 'available' END FROM generate_series(1, 20000) AS i`,
      );
      await database().query('ANALYZE "pets"');
      // A page of every pet and a page of sold ones, both from id 15000, 21 rows: as the repository sends them.
      const reads = [
        [0, 1],
        [null, 'sold'],
        [15000, 15000],
        [21, 21],
      ];
      const plan = (await database().query<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${pageReadsSql(PET_COLUMNS)}`, reads))
        .map((row) => row['QUERY PLAN'])
        .join('\n');
      expect(plan).toMatch(
        /Index (Only )?Scan using idx_pets_status_id on pets \w+ .*\n\s+Index Cond: \(\(status = 'sold'::text\) AND \(id > r\.after\)\)/,
      );
      expect(plan).toMatch(/One-Time Filter: \(r\.status IS NULL\)\s+->\s+Index Scan using pets_pkey on pets .*\n\s+Index Cond: \(id > r\.after\)/);
      expect(plan).not.toMatch(/Seq Scan|Sort/);
    });

    it('reads the pages asked for in one turn of the event loop in one statement, each page as it reads alone', async () => {
      const dataSource = await emptied();
      const pets = new TypeOrmPetRepository(dataSource);
      const statuses = ['available', 'pending', 'sold', 'pending', 'available'] as const;
      const created = [];
      for (let i = 0; i < 40; i++) created.push(await pets.create(aPetDraft({ status: statuses[i % statuses.length] }), eventsOfCreate()));
      const requests = [
        { limit: 5 },
        { limit: 5, after: created[4]!.id },
        { status: 'sold', limit: 3 },
        { status: 'pending', limit: 4, after: created[10]!.id },
        { status: 'available', limit: 100 },
        { limit: 2, after: created[39]!.id },
        { status: 'sold', limit: 1, after: created[37]!.id },
      ] as const;
      const alone = [];
      for (const request of requests) alone.push(await pets.list(request));
      let checkouts = 0;
      postgresPoolOf(dataSource).on('acquire', () => checkouts++);
      const together = await Promise.all(requests.map((request) => pets.list(request)));
      expect(together).toEqual(alone);
      expect(checkouts).toBe(1);
      expect(together[4]!.pets).toHaveLength(16);
      expect(together[5]).toEqual({ pets: [] });
    });

    it('answers service_unavailable while the server is down and recovers by itself when it returns', async () => {
      const pets = new TypeOrmPetRepository(await emptied());
      const rex = await pets.create(aPetDraft(), eventsOfCreate());
      await server().pause();
      await expect(pets.findById(rex.id)).rejects.toMatchObject({ code: 'service_unavailable' });
      await expect(pets.create(aPetDraft(), eventsOfCreate())).rejects.toMatchObject({ code: 'service_unavailable' });
      await server().start();
      expect(await eventually(() => pets.findById(rex.id), { timeoutMs: 30_000 })).toEqual(rex);
    }, 60_000);

    it('refuses, on its own clock, writes that reach it after their deadline: a stalled server stores nothing for a 503', async () => {
      const { before, outcomes, pets, claim } = await writeDuringStall(await emptied(), server());
      expect(outcomes).toEqual(Array(6).fill('service_unavailable'));
      // Whatever the server does with the statements queued while it was stopped, none of them may take effect.
      // Asserting an absence: wait until PostgreSQL has run (and refused) every statement queued while it was stopped.
      const othersBusy = `SELECT count(*)::int AS busy FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'`;
      await eventually(async () => (await database().query<{ busy: number }[]>(othersBusy))[0]!.busy === 0, { timeoutMs: 30_000 });
      expect((await pets.list({ limit: 100 })).pets).toEqual([before]);
      expect(await claim()).toEqual({ state: 'claimed' });
    }, 60_000);
  });
});
