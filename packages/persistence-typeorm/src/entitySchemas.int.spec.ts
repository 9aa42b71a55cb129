import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { describeWithPostgres } from '@petstore/test-support/jest';
import type { DataSource } from 'typeorm';
import { createDataSource } from './createDataSource.js';
import { migrate } from './migrate.js';

/** The statements TypeORM's schema builder would run to make the database match the entity schemas. */
async function pendingSchemaChanges(dataSource: DataSource): Promise<string[]> {
  return (await dataSource.driver.createSchemaBuilder().log()).upQueries.map((q) => q.query);
}

// The entity schemas are what an embedder adds to their own DataSource; the migrations are what creates the tables.
// These tests keep the two from drifting apart.
function describeEntitiesMatchMigrations(label: string, emptyDatabaseUrl: () => string) {
  describe(`the entity schemas on ${label}`, () => {
    it('describe exactly what the migrations create: TypeORM finds nothing to change', async () => {
      const dataSource = createDataSource(emptyDatabaseUrl());
      await dataSource.initialize();
      try {
        const before = (await pendingSchemaChanges(dataSource)).join('\n');
        for (const table of ['pets', 'api_keys', 'idempotency_keys', 'audit_events', 'key_usage_days', 'key_last_uses', 'rate_limit_bans'])
          expect(before).toMatch(new RegExp(`CREATE TABLE "${table}"`));
        await migrate(dataSource);
        expect(await pendingSchemaChanges(dataSource)).toEqual([]);
      } finally {
        await dataSource.destroy();
      }
    }, 60_000);
  });
}

const dir = mkdtempSync(join(tmpdir(), 'petstore-entities-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
describeEntitiesMatchMigrations('SQLite', () => `sqlite:${join(dir, 'petstore.db')}`);

describeWithPostgres('on PostgreSQL 15', (postgres) => {
  describeEntitiesMatchMigrations('PostgreSQL', () => postgres().url);
});
