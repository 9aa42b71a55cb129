import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect.js';

/**
 * The events each change to a pet records in its own transaction (a transactional outbox): the pet as the change
 * left it and, for an update, its fields before. Listed newest first by (at, id).
 */
export class PetEvents1764403200000 implements MigrationInterface {
  name = 'PetEvents1764403200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const integer = dialectOf(queryRunner.dataSource) === 'postgres' ? 'bigint' : 'INTEGER';
    await queryRunner.query(
      `CREATE TABLE "pet_events" ("id" text PRIMARY KEY NOT NULL, "type" text NOT NULL, "at_ms" ${integer} NOT NULL, ` +
        `"pet_id" ${integer} NOT NULL, "name" text NOT NULL, "category_id" ${integer} NOT NULL, "status" text NOT NULL, "version" integer NOT NULL, ` +
        `"before_name" text, "before_category_id" ${integer}, "before_status" text)`,
    );
    await queryRunner.query('CREATE INDEX "idx_pet_events_at_id" ON "pet_events" ("at_ms", "id")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "pet_events"');
  }
}
