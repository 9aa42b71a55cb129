import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect.js';

/**
 * When each attempt scheduled its delivery's retry (null when it scheduled none): the delivery log shows it as the
 * delivery's next attempt while the delivery still waits for it. Attempts logged before have none.
 */
export class AttemptRetryTimes1764687600000 implements MigrationInterface {
  name = 'AttemptRetryTimes1764687600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const integer = dialectOf(queryRunner.dataSource) === 'postgres' ? 'bigint' : 'INTEGER';
    await queryRunner.query(`ALTER TABLE "webhook_attempts" ADD COLUMN "next_attempt_at_ms" ${integer}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "webhook_attempts" DROP COLUMN "next_attempt_at_ms"');
  }
}
