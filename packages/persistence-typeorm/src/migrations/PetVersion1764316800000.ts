import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect.js';

/**
 * Pets can change: `version` (1 for every existing pet) counts their changes, for entity tags and conditional
 * updates; `status_changed_at_ms` (0: not since created) is when the status last changed, so that a status change
 * overtaken in flight by another is refused. The (status, id) index covers `version` too, so a page filtered by
 * status is still read from the index alone.
 */
export class PetVersion1764316800000 implements MigrationInterface {
  name = 'PetVersion1764316800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = dialectOf(queryRunner.dataSource) === 'postgres';
    await queryRunner.query('ALTER TABLE "pets" ADD COLUMN "version" integer NOT NULL DEFAULT 1');
    await queryRunner.query(`ALTER TABLE "pets" ADD COLUMN "status_changed_at_ms" ${postgres ? 'bigint' : 'INTEGER'} NOT NULL DEFAULT 0`);
    await queryRunner.query('DROP INDEX "idx_pets_status_id"');
    await queryRunner.query(
      postgres
        ? 'CREATE INDEX "idx_pets_status_id" ON "pets" ("status", "id") INCLUDE ("name", "category_id", "version")'
        : 'CREATE INDEX "idx_pets_status_id" ON "pets" ("status", "id", "name", "category_id", "version")',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "idx_pets_status_id"');
    await queryRunner.query(
      dialectOf(queryRunner.dataSource) === 'postgres'
        ? 'CREATE INDEX "idx_pets_status_id" ON "pets" ("status", "id") INCLUDE ("name", "category_id")'
        : 'CREATE INDEX "idx_pets_status_id" ON "pets" ("status", "id", "name", "category_id")',
    );
    await queryRunner.query('ALTER TABLE "pets" DROP COLUMN "status_changed_at_ms"');
    await queryRunner.query('ALTER TABLE "pets" DROP COLUMN "version"');
  }
}
