import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect.js';

/**
 * Keys as a product (decision 0021): scopes, expiry, disabling and the secret a rotation replaced on `api_keys` (existing
 * keys get both scopes, no expiry, enabled, no previous secret); the append-only audit trail; usage per key and UTC
 * day, and each key's last use. Scopes are stored as comma-separated text in the order of SCOPES.
 */
export class KeyModel1764028800000 implements MigrationInterface {
  name = 'KeyModel1764028800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = dialectOf(queryRunner.dataSource) === 'postgres';
    const integer = postgres ? 'bigint' : 'INTEGER';
    const no = postgres ? 'false' : '0';
    for (const column of [
      `"scopes" text NOT NULL DEFAULT 'pets:read,pets:write'`,
      `"expires_at_ms" ${integer}`,
      `"disabled" boolean NOT NULL DEFAULT ${no}`,
      `"previous_secret_hash" text`,
      `"previous_secret_expires_at_ms" ${integer}`,
    ]) {
      await queryRunner.query(`ALTER TABLE "api_keys" ADD COLUMN ${column}`);
    }
    await queryRunner.query('CREATE UNIQUE INDEX "uq_api_keys_previous_secret_hash" ON "api_keys" ("previous_secret_hash")');
    await queryRunner.query(
      `CREATE TABLE "audit_events" ("id" text PRIMARY KEY NOT NULL, "at_ms" ${integer} NOT NULL, "actor" text NOT NULL, ` +
        `"action" text NOT NULL, "key_id" text NOT NULL, "changes_json" text NOT NULL)`,
    );
    await queryRunner.query('CREATE INDEX "idx_audit_events_at_id" ON "audit_events" ("at_ms", "id")');
    await queryRunner.query('CREATE INDEX "idx_audit_events_key_at_id" ON "audit_events" ("key_id", "at_ms", "id")');
    await queryRunner.query(
      `CREATE TABLE "key_usage_days" ("key_id" text NOT NULL, "day" text NOT NULL, "requests" ${integer} NOT NULL, ` +
        `PRIMARY KEY ("key_id", "day"))`,
    );
    await queryRunner.query('CREATE INDEX "idx_key_usage_days_day" ON "key_usage_days" ("day")');
    await queryRunner.query(`CREATE TABLE "key_last_uses" ("key_id" text PRIMARY KEY NOT NULL, "last_used_at_ms" ${integer} NOT NULL)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "key_last_uses"');
    await queryRunner.query('DROP TABLE "key_usage_days"');
    await queryRunner.query('DROP TABLE "audit_events"');
    await queryRunner.query('DROP INDEX "uq_api_keys_previous_secret_hash"');
    for (const column of ['previous_secret_expires_at_ms', 'previous_secret_hash', 'disabled', 'expires_at_ms', 'scopes']) {
      await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "${column}"`);
    }
  }
}
