import { describe, expect, it } from '@jest/globals';
import { eventsOfCreate } from '@petstore/core';
import { aPetDraft } from '@petstore/core/testing';
import { eventually } from '@petstore/test-support';
import { describeWithPgBouncer } from '@petstore/test-support/jest';
import pg from 'pg';
import { createDataSource } from './createDataSource.js';
import { migrate } from './migrate.js';
import { EVERY_MIGRATION } from './testing/everyMigration.js';
import { migratedDataSource } from './testing/migratedDataSource.js';
import { writeDuringStall } from './testing/writeDuringStall.js';
import { TypeOrmPetRepository } from './TypeOrmPetRepository.js';
import { describeTypeOrmContracts } from './testing/describeTypeOrmContracts.js';

const TIMEOUT_MS = 1_000;

describeWithPgBouncer('through PgBouncer in transaction pooling mode', (servers) => {
  const throughPooler = (url = servers().pgbouncer.url) => createDataSource(url, { statementTimeoutMs: TIMEOUT_MS, poolMode: 'transaction' });
  /** Runs SQL straight on PostgreSQL, as an operator would look. */
  const direct = async <T extends pg.QueryResultRow>(sql: string, database = 'petstore') => {
    const client = new pg.Client({ connectionString: servers().postgres.url.replace(/\/petstore$/, `/${database}`) });
    await client.connect();
    try {
      return (await client.query<T>(sql)).rows;
    } finally {
      await client.end();
    }
  };

  const { database, emptied } = migratedDataSource(() => throughPooler());

  describeTypeOrmContracts('through PgBouncer', async () => ({ dataSource: await emptied() }));

  describe('PgBouncer', () => {
    it('serves creates and pages from two instances at once, whichever server connection each statement gets', async () => {
      await emptied();
      const other = throughPooler();
      await other.initialize();
      try {
        const repositories = [new TypeOrmPetRepository(database()), new TypeOrmPetRepository(other)];
        const work = Array.from({ length: 400 }, (_, i) => {
          const pets = repositories[i % 2]!;
          return i % 2 === 0 ? pets.create(aPetDraft({ name: `pet ${i}` }), eventsOfCreate()) : pets.list({ limit: 20, status: 'available' });
        });
        const settled = await Promise.allSettled(work);
        expect(settled.filter((s) => s.status === 'rejected')).toEqual([]);
        expect(await direct<{ count: number }>('SELECT count(*)::int AS count FROM "pets"')).toEqual([{ count: 200 }]);
      } finally {
        await other.destroy();
      }
    }, 60_000);

    it('migrates an empty database from two processes at once, and leaves no lock or setting behind', async () => {
      await direct('CREATE DATABASE petstore_pooled', 'postgres');
      const url = servers().pgbouncer.url.replace(/\/petstore$/, '/petstore_pooled');
      const [a, b] = [throughPooler(url), throughPooler(url)];
      await Promise.all([a.initialize(), b.initialize()]);
      try {
        const applied = await Promise.all([migrate(a), migrate(b)]);
        expect(applied.flat()).toEqual(EVERY_MIGRATION);
        expect(await migrate(a)).toEqual([]);
      } finally {
        await Promise.all([a.destroy(), b.destroy()]);
      }
      expect(await direct(`SELECT objid FROM pg_locks WHERE locktype = 'advisory'`)).toEqual([]);
    }, 60_000);

    it('leaves the server connections with PostgreSQL default timeouts: the pool sets its own per transaction', async () => {
      await new TypeOrmPetRepository(database()).list({ limit: 5 });
      expect(await database().query('SHOW statement_timeout')).toEqual([{ statement_timeout: '1s' }]);
      // Any client of the pooler, on whichever server connection the pool's statements ran before.
      const bare = new pg.Pool({ connectionString: servers().pgbouncer.url, max: 20 });
      try {
        const seen = await Promise.all(Array.from({ length: 20 }, async () => (await bare.query('SHOW statement_timeout')).rows[0]));
        expect(new Set(seen.map((row) => (row as { statement_timeout: string }).statement_timeout))).toEqual(new Set(['0']));
      } finally {
        await bare.end();
      }
    });

    it('cancels a statement that runs past DATABASE_TIMEOUT_MS on the server, before the client gives up', async () => {
      const started = Date.now();
      await expect(database().query('SELECT pg_sleep(10)')).rejects.toMatchObject({ driverError: expect.objectContaining({ code: '57014' }) });
      // The client would wait 2 x 1 s + 1 s; PostgreSQL stopped it after 1 s.
      expect(Date.now() - started).toBeLessThan(2_500);
    });

    it('rolls back a transaction whose statement failed, and serves the next one on the same client', async () => {
      const runner = database().createQueryRunner();
      try {
        await runner.startTransaction();
        await runner.query(`INSERT INTO "key_last_uses" ("key_id", "last_used_at_ms") VALUES ('key_rolled_back', 1)`);
        await expect(runner.query('SELECT 1 / 0')).rejects.toMatchObject({ driverError: expect.objectContaining({ code: '22012' }) });
        await runner.rollbackTransaction();
        expect(await runner.query('SELECT 41 + 1 AS answer')).toEqual([{ answer: 42 }]);
      } finally {
        await runner.release();
      }
      expect(await direct(`SELECT "key_id" FROM "key_last_uses" WHERE "key_id" = 'key_rolled_back'`)).toEqual([]);
    });

    it('ends a transaction left idle past twice the timeout, so it cannot hold its server connection or its locks', async () => {
      const runner = database().createQueryRunner();
      try {
        await runner.startTransaction();
        await runner.query('SELECT 1');
        const idleInTransaction = async () =>
          (await direct<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'idle in transaction'`))[0]!.n;
        expect(await idleInTransaction()).toBe(1);
        // Waits for the server to end it: nothing is sent meanwhile.
        await eventually(async () => (await idleInTransaction()) === 0, { timeoutMs: 10_000 });
        await expect(runner.query('SELECT 2')).rejects.toThrow();
      } finally {
        await runner.release();
      }
    }, 30_000);

    it('refuses, on its own clock, writes that reach a stalled server after their deadline: a 503 stores nothing', async () => {
      const { before, outcomes, pets, claim } = await writeDuringStall(await emptied(), servers().postgres);
      expect(outcomes).toEqual(Array(6).fill('service_unavailable'));
      const othersBusy = `SELECT count(*)::int AS busy FROM pg_stat_activity WHERE datname = 'petstore' AND pid <> pg_backend_pid() AND state <> 'idle'`;
      await eventually(async () => (await direct<{ busy: number }>(othersBusy))[0]!.busy === 0, { timeoutMs: 30_000 });
      expect((await eventually(() => pets.list({ limit: 100 }), { timeoutMs: 30_000 })).pets).toEqual([before]);
      expect(await claim()).toEqual({ state: 'claimed' });
    }, 60_000);
  });
});
