import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect.js';

/**
 * Webhook endpoints (with their signing secrets), their deliveries (one event to one endpoint, due at `due_at_ms`)
 * and every attempt of a delivery. `pet_events.dispatched` marks the events already turned into deliveries.
 */
export class Webhooks1764489600000 implements MigrationInterface {
  name = 'Webhooks1764489600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = dialectOf(queryRunner.dataSource) === 'postgres';
    const integer = postgres ? 'bigint' : 'INTEGER';
    const id = postgres ? '"id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY' : '"id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL';
    const no = postgres ? 'false' : '0';
    await queryRunner.query(`ALTER TABLE "pet_events" ADD COLUMN "dispatched" boolean NOT NULL DEFAULT ${no}`);
    await queryRunner.query('CREATE INDEX "idx_pet_events_dispatched" ON "pet_events" ("dispatched", "at_ms", "id")');
    await queryRunner.query(
      `CREATE TABLE "webhook_endpoints" ("id" text PRIMARY KEY NOT NULL, "url" text NOT NULL, "event_types" text NOT NULL, ` +
        `"description" text NOT NULL, "disabled" boolean NOT NULL DEFAULT ${no}, "disabled_reason" text, "created_at_ms" ${integer} NOT NULL, ` +
        `"secret" text NOT NULL, "previous_secret" text, "previous_secret_expires_at_ms" ${integer}, "version" integer NOT NULL DEFAULT 1)`,
    );
    await queryRunner.query('CREATE INDEX "idx_webhook_endpoints_created" ON "webhook_endpoints" ("created_at_ms", "id")');
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" (${id}, "event_id" text NOT NULL, "endpoint_id" text NOT NULL, "state" text NOT NULL, ` +
        `"attempts" integer NOT NULL, "due_at_ms" ${integer} NOT NULL)`,
    );
    await queryRunner.query('CREATE INDEX "idx_webhook_deliveries_due" ON "webhook_deliveries" ("state", "due_at_ms")');
    await queryRunner.query(
      `CREATE TABLE "webhook_attempts" ("id" text PRIMARY KEY NOT NULL, "delivery_id" ${integer} NOT NULL, "event_id" text NOT NULL, ` +
        `"endpoint_id" text NOT NULL, "attempt" integer NOT NULL, "at_ms" ${integer} NOT NULL, "status_code" integer, ` +
        `"duration_ms" integer NOT NULL, "error" text, "response_body" text, "succeeded" boolean NOT NULL)`,
    );
    await queryRunner.query('CREATE INDEX "idx_webhook_attempts_endpoint" ON "webhook_attempts" ("endpoint_id", "at_ms", "id")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "webhook_attempts"');
    await queryRunner.query('DROP TABLE "webhook_deliveries"');
    await queryRunner.query('DROP TABLE "webhook_endpoints"');
    await queryRunner.query('DROP INDEX "idx_pet_events_dispatched"');
    await queryRunner.query('ALTER TABLE "pet_events" DROP COLUMN "dispatched"');
  }
}
