import type { DataSource } from 'typeorm';
import { dialectOf } from './dialect.js';
import { assertSqliteWritable } from './driverStatements.js';
import { translateDatabaseError } from './translateDatabaseError.js';

// Any constant will do: it only has to be the same in every process that migrates this database.
const MIGRATION_LOCK = 7_351_420_917;

/**
 * Applies pending migrations, each in its own transaction, and returns their names. On PostgreSQL an advisory
 * lock makes several instances starting at once take turns instead of racing.
 */
export async function migrate(dataSource: DataSource): Promise<string[]> {
  if (dialectOf(dataSource) !== 'postgres') return (await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
  const lock = dataSource.createQueryRunner();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    return (await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await lock.release();
  }
}

/**
 * Throws ServiceUnavailableError unless the database can serve (for readiness checks). On SQLite it also checks
 * that a write could start now (no other process holds the lock), without waiting: reads alone succeed under WAL
 * even while every write would time out.
 */
export async function pingDatabase(dataSource: DataSource): Promise<void> {
  try {
    if (dialectOf(dataSource) === 'postgres') {
      await dataSource.query('SELECT 1');
      return;
    }
    assertSqliteWritable(dataSource);
  } catch (error) {
    translateDatabaseError(error);
  }
}
