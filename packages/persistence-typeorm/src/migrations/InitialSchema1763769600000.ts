import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect.js';

const STATUS_CHECK = `CHECK ("status" IN ('available', 'pending', 'sold'))`;

/**
 * Pets and API keys. The (status, id) index serves both `WHERE status = ? AND id > ? ORDER BY id` and, through the
 * primary key, the unfiltered keyset scan. SQLite's AUTOINCREMENT and PostgreSQL's identity never reuse an id.
 */
export class InitialSchema1763769600000 implements MigrationInterface {
  name = 'InitialSchema1763769600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = dialectOf(queryRunner.dataSource) === 'postgres';
    const id = postgres ? '"id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY' : '"id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL';
    const integer = postgres ? 'bigint' : 'INTEGER';
    await queryRunner.query(
      `CREATE TABLE "pets" (${id}, "name" text NOT NULL, "category_id" ${integer} NOT NULL, "status" text NOT NULL ${STATUS_CHECK})`,
    );
    await queryRunner.query('CREATE INDEX "idx_pets_status_id" ON "pets" ("status", "id")');
    await queryRunner.query(
      `CREATE TABLE "api_keys" ("id" text PRIMARY KEY NOT NULL, "name" text NOT NULL, "plan" text NOT NULL, ` +
        `"per_minute" ${integer}, "per_day" ${integer}, "secret_hash" text NOT NULL, ` +
        `"created_at_ms" ${integer} NOT NULL, "revoked_at_ms" ${integer})`,
    );
    await queryRunner.query('CREATE UNIQUE INDEX "uq_api_keys_secret_hash" ON "api_keys" ("secret_hash")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "api_keys"');
    await queryRunner.query('DROP TABLE "pets"');
  }
}
