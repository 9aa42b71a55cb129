import { MigrationExecutor, type DataSource } from 'typeorm';
import { dialectOf } from './dialect.js';
import { assertSqliteWritable } from './sqlitePetStatements.js';
import { translateDatabaseError } from './translateDatabaseError.js';

// Any constant will do: it only has to be the same in every process that migrates this database.
const MIGRATION_LOCK = 7_351_420_917;

/**
 * Applies pending migrations and returns their names. On SQLite each runs in its own transaction. On PostgreSQL all
 * of them run in one transaction that first takes a transaction-level advisory lock, so several instances starting
 * at once take turns instead of racing, and nothing outlives the transaction: the same on a direct connection and
 * through a transaction pooler, where a session-level lock would stay on whichever server connection took it.
 */
export async function migrate(dataSource: DataSource): Promise<string[]> {
  if (dialectOf(dataSource) !== 'postgres') return (await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
  const runner = dataSource.createQueryRunner();
  try {
    await runner.startTransaction();
    await runner.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    // Reads which migrations ran only once it holds the lock; runs the pending ones in the transaction it is given.
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'all';
    const applied = await executor.executePendingMigrations();
    await runner.commitTransaction();
    return applied.map((m) => m.name);
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    throw error;
  } finally {
    await runner.release();
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
