import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The deliveries of one endpoint, due soonest first: a claim reads each endpoint's next few deliveries from it, so
 * that an endpoint with a large backlog costs a claim no more than one with none.
 */
export class DeliveriesByEndpoint1764576000000 implements MigrationInterface {
  name = 'DeliveriesByEndpoint1764576000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX "idx_webhook_deliveries_endpoint_due" ON "webhook_deliveries" ("endpoint_id", "state", "due_at_ms", "id")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "idx_webhook_deliveries_endpoint_due"');
  }
}
