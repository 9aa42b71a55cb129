// The one module that reaches past TypeORM's public API, into the driver objects it keeps: the better-sqlite3
// connection and the pg pool. TypeORM does not expose them; driverStatements.int.spec.ts fails loudly, naming what
// moved, if an upgrade moves them. The pet statements (driverStatements.ts) and the webhook store's SQLite
// transactions (TypeOrmWebhookStore.ts) reach the driver through here; everything else in this package goes through
// TypeORM: the entity schemas, the migrations, and its Repository and QueryBuilder.
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
