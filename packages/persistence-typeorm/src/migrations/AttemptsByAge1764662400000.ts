import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The delivery log by age: the purge of attempts older than the retention reads its batches from it. */
export class AttemptsByAge1764662400000 implements MigrationInterface {
  name = 'AttemptsByAge1764662400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX "idx_webhook_attempts_at" ON "webhook_attempts" ("at_ms")');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "idx_webhook_attempts_at"');
  }
}
