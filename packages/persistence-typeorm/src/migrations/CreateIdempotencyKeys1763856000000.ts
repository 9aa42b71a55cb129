import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect.js';

/** Idempotency keys of POST /pets, per API key, with their stored result; `expires_at_ms` serves the purge. */
export class CreateIdempotencyKeys1763856000000 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1763856000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const integer = dialectOf(queryRunner.dataSource) === 'postgres' ? 'bigint' : 'INTEGER';
    await queryRunner.query(
      `CREATE TABLE "idempotency_keys" ("scope" text NOT NULL, "key" text NOT NULL, "fingerprint" text NOT NULL, ` +
        `"pet_json" text, "claimed_at_ms" ${integer} NOT NULL, "expires_at_ms" ${integer} NOT NULL, PRIMARY KEY ("scope", "key"))`,
    );
    await queryRunner.query('CREATE INDEX "idx_idempotency_keys_expires" ON "idempotency_keys" ("expires_at_ms")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "idempotency_keys"');
  }
}
