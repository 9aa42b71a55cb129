import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect.js';

/**
 * The order events are dispatched in (`pet_events.dispatch_seq`, numbered from `webhook_dispatch_head`) and the
 * failing endpoints held out of the dispatch (`webhook_endpoint_holds`), each with its place in that order, so that an
 * endpoint that fails costs nothing per event. Events dispatched before have no number: no hold is owed them.
 */
export class WebhookHolds1764705600000 implements MigrationInterface {
  name = 'WebhookHolds1764705600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const integer = dialectOf(queryRunner.dataSource) === 'postgres' ? 'bigint' : 'INTEGER';
    await queryRunner.query(`ALTER TABLE "pet_events" ADD COLUMN "dispatch_seq" ${integer}`);
    await queryRunner.query('CREATE INDEX "idx_pet_events_dispatch_seq" ON "pet_events" ("dispatch_seq")');
    await queryRunner.query(`CREATE TABLE "webhook_dispatch_head" ("id" integer PRIMARY KEY NOT NULL, "seq" ${integer} NOT NULL)`);
    await queryRunner.query('INSERT INTO "webhook_dispatch_head" ("id", "seq") VALUES (1, 0)');
    await queryRunner.query(
      `CREATE TABLE "webhook_endpoint_holds" ("endpoint_id" text PRIMARY KEY NOT NULL, "position" ${integer} NOT NULL, ` +
        `"failing" boolean NOT NULL, "due_at_ms" ${integer} NOT NULL)`,
    );
    await queryRunner.query('CREATE INDEX "idx_webhook_endpoint_holds_due" ON "webhook_endpoint_holds" ("due_at_ms")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "webhook_endpoint_holds"');
    await queryRunner.query('DROP TABLE "webhook_dispatch_head"');
    await queryRunner.query('DROP INDEX "idx_pet_events_dispatch_seq"');
    await queryRunner.query('ALTER TABLE "pet_events" DROP COLUMN "dispatch_seq"');
  }
}
