import { afterAll, beforeAll } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { migrate } from '../migrate.js';

const EVERY_TABLE = [
  'pets',
  'api_keys',
  'idempotency_keys',
  'audit_events',
  'key_usage_days',
  'key_last_uses',
  'rate_limit_bans',
  'pet_events',
  'webhook_endpoints',
  'webhook_deliveries',
  'webhook_attempts',
];

/**
 * Opens and migrates one PostgreSQL data source for the enclosing describe and destroys it after; `emptied()`
 * truncates every table and hands it back, for a test that must start from no rows.
 */
export function migratedDataSource(create: () => DataSource): { database: () => DataSource; emptied: () => Promise<DataSource> } {
  let dataSource: DataSource | undefined;
  beforeAll(async () => {
    dataSource = create();
    await dataSource.initialize();
    await migrate(dataSource);
  }, 60_000);
  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
  }, 30_000);
  const database = () => dataSource!;
  const emptied = async () => {
    await database().query(`TRUNCATE ${EVERY_TABLE.map((table) => `"${table}"`).join(', ')} RESTART IDENTITY`);
    return database();
  };
  return { database, emptied };
}
