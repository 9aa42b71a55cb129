// The pet store's tables in your own TypeORM DataSource, beside your own: add its entity schemas and migrations to
// yours, migrate once, and run its adapters on that DataSource. Your code keeps using TypeORM as it always does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPetStore, InMemoryRateLimitStore, SystemClock } from '@petstore/core';
import { FakeWebhookTargets, RecordingWebhookSender } from '@petstore/core/testing';
import { betterSqlite3, migrations, petstoreEntities, typeOrmPorts } from '@petstore/persistence-typeorm';
import { DataSource, EntitySchema, type MigrationInterface, type QueryRunner } from 'typeorm';

// A table of your own: visits booked to meet a pet.
interface Visit {
  id: number;
  petId: number;
  visitor: string;
}
const VisitSchema = new EntitySchema<Visit>({
  name: 'Visit',
  tableName: 'visits',
  columns: {
    id: { type: 'integer', primary: true, generated: 'increment' },
    petId: { name: 'pet_id', type: 'integer' },
    visitor: { type: 'text' },
  },
});

// TypeORM runs migrations in the order of the timestamp in their names: yours after the pet store's here.
class CreateVisits1790000000000 implements MigrationInterface {
  name = 'CreateVisits1790000000000';
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "visits" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "pet_id" integer NOT NULL, "visitor" text NOT NULL)',
    );
  }
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "visits"');
  }
}

const directory = mkdtempSync(join(tmpdir(), 'shelter-'));
const dataSource = new DataSource({
  type: 'better-sqlite3',
  driver: betterSqlite3(), // the better-sqlite3 module the pet store's adapters run on and are tested with
  database: join(directory, 'shelter.db'),
  enableWAL: true,
  entities: [VisitSchema, ...petstoreEntities('sqlite')],
  migrations: [CreateVisits1790000000000, ...migrations],
  synchronize: false, // the schema comes from migrations, yours and the pet store's
});
await dataSource.initialize();
const applied = await dataSource.runMigrations({ transaction: 'each' });
console.log('migrated:', applied.map((migration) => migration.name).join(', '));
// What `typeorm schema:log` would print: the entities, yours and the pet store's, match what the migrations created.
console.log('schema changes pending:', (await dataSource.driver.createSchemaBuilder().log()).upQueries.length);

// Every port the pet store keeps in a database, on your DataSource (typeOrmPorts); rate limits in memory here.
const store = createPetStore({
  ...typeOrmPorts(dataSource),
  rateLimits: new InMemoryRateLimitStore(),
  // No webhooks sent from this example: the server's (@petstore/app) targets and sender check addresses and POST.
  webhookTargets: new FakeWebhookTargets(),
  webhookSender: new RecordingWebhookSender(),
  clock: new SystemClock(),
});
const { key, secret } = await store.issueApiKey.execute({ plan: 'free', name: 'front desk' }, 'cli');
const admitted = await store.admitRequest.execute({ secret, clientAddress: '203.0.113.7', scope: 'pets:read' });
console.log(`${key.id} admitted, ${admitted.rateLimit.remaining} requests left this minute`);

const rex = await store.createPet.execute({ name: 'Rex', categoryId: 1 });
await dataSource.getRepository(VisitSchema).insert({ petId: rex.id, visitor: 'Ada' });
console.log('listed:', (await store.listPets.execute({})).pets);
console.log('visits:', await dataSource.getRepository(VisitSchema).find());

await dataSource.destroy();
rmSync(directory, { recursive: true, force: true });
