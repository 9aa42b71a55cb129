import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect.js';

/** Which deliveries a resend queued (`replay`): one of an event to an endpoint is pending at a time. */
export class ResendsMarked1764748800000 implements MigrationInterface {
  name = 'ResendsMarked1764748800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const no = dialectOf(queryRunner.dataSource) === 'postgres' ? 'false' : '0';
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" ADD COLUMN "replay" boolean NOT NULL DEFAULT ${no}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "webhook_deliveries" DROP COLUMN "replay"');
  }
}
