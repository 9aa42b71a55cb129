import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect.js';

/** The bans of the in-process rate-limit store (no Redis), kept so that a restart does not lift them. */
export class RateLimitBans1764230400000 implements MigrationInterface {
  name = 'RateLimitBans1764230400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const integer = dialectOf(queryRunner.dataSource) === 'postgres' ? 'bigint' : 'INTEGER';
    await queryRunner.query(`CREATE TABLE "rate_limit_bans" ("subject" text PRIMARY KEY NOT NULL, "banned_until_ms" ${integer} NOT NULL)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "rate_limit_bans"');
  }
}
