import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect.js';

/** Each key's requests refused by its rate limit per UTC day, beside those admitted (0 for the days counted before). */
export class LimitedRequestsPerDay1764691200000 implements MigrationInterface {
  name = 'LimitedRequestsPerDay1764691200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const integer = dialectOf(queryRunner.dataSource) === 'postgres' ? 'bigint' : 'INTEGER';
    await queryRunner.query(`ALTER TABLE "key_usage_days" ADD COLUMN "limited" ${integer} NOT NULL DEFAULT 0`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "key_usage_days" DROP COLUMN "limited"');
  }
}
