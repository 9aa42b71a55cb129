import { afterEach, describe, expect, it } from '@jest/globals';
import { describeWithPostgres } from '@petstore/test-support/jest';
import type { DataSource } from 'typeorm';
import { createDataSource } from './createDataSource.js';
import { postgresPoolOf, sqliteConnectionOf } from './driverConnections.js';

// These reach into TypeORM's driver objects; if an upgrade moves them, these tests name what moved.
describe('the driver connections behind TypeORM', () => {
  let dataSource: DataSource | undefined;
  afterEach(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
  });

  it('finds the better-sqlite3 connection of an initialized SQLite DataSource, and none after destroy', async () => {
    dataSource = createDataSource('sqlite::memory:');
    expect(sqliteConnectionOf(dataSource)).toBeUndefined();
    await dataSource.initialize();
    const db = sqliteConnectionOf(dataSource);
    expect(db?.prepare('SELECT 41 + 1 AS answer').get()).toEqual({ answer: 42 });
    expect(db?.pragma('journal_mode', { simple: true })).toBe('memory');
    await dataSource.destroy();
    expect(sqliteConnectionOf(dataSource)).toBeUndefined();
  });
});

describeWithPostgres('the pg pool behind TypeORM', (postgres) => {
  it('finds the pool of an initialized PostgreSQL DataSource and runs a named query on it', async () => {
    const dataSource = createDataSource(postgres().url);
    expect(() => postgresPoolOf(dataSource)).toThrow('driver.master');
    await dataSource.initialize();
    try {
      const result = await postgresPoolOf(dataSource).query({
        name: 'driver_check',
        text: 'SELECT $1::int + 1 AS answer',
        values: [41],
        rowMode: 'array',
      });
      expect(result.rows).toEqual([[42]]);
    } finally {
      await dataSource.destroy();
    }
  });

  it('gives every pooled client an error listener, so a connection the server drops cannot crash the process', async () => {
    const dataSource = createDataSource(postgres().url);
    await dataSource.initialize();
    try {
      // Handed out by the pool, not yet held by anyone: the moment in which PostgreSQL's shutdown crashed an instance.
      const client = await postgresPoolOf(dataSource).connect();
      expect(() => client.emit('error', new Error('terminating connection due to administrator command'))).not.toThrow();
      client.release(true);
    } finally {
      await dataSource.destroy();
    }
  });
});
