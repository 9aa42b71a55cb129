// The only module that reaches past TypeORM's public API, into the driver objects it keeps: the better-sqlite3
// connection (for prepared statements and pragmas) and the pg pool (for named prepared queries). TypeORM does not
// expose them; `driverConnections.int.spec.ts` fails loudly if an upgrade moves them.
import type { Database } from 'better-sqlite3';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';

/** The better-sqlite3 connection of an initialized SQLite DataSource, or undefined when it is not open. */
export function sqliteConnectionOf(dataSource: DataSource): Database | undefined {
  const db = (dataSource.driver as unknown as { databaseConnection?: Database }).databaseConnection;
  return db?.open ? db : undefined;
}

/** The pg pool of an initialized PostgreSQL DataSource. */
export function postgresPoolOf(dataSource: DataSource): Pool {
  const pool = (dataSource.driver as unknown as { master?: Pool }).master;
  if (!pool) throw new Error('TypeORM keeps no pg pool at driver.master: the DataSource is not initialized, or TypeORM moved it');
  return pool;
}
