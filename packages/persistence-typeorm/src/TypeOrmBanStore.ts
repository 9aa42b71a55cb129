import type { BanStore, SavedBan } from '@petstore/core';
import { LessThanOrEqual, MoreThan, type DataSource, type Repository } from 'typeorm';
import { RATE_LIMIT_BAN_ENTITY, type RateLimitBanRow } from './schemas/RateLimitBanSchema.js';
import { translateDatabaseError } from './translateDatabaseError.js';

/** BanStore in `rate_limit_bans`: one row per banned subject; bans are rare, so each change is one statement. */
export class TypeOrmBanStore implements BanStore {
  private readonly rows: Repository<RateLimitBanRow>;

  constructor(dataSource: DataSource) {
    this.rows = dataSource.getRepository<RateLimitBanRow>(RATE_LIMIT_BAN_ENTITY);
  }

  save({ subject, bannedUntil }: SavedBan): Promise<void> {
    return this.guard(async () => {
      await this.rows.upsert({ subject, banned_until_ms: bannedUntil }, ['subject']);
    });
  }

  remove(subject: string): Promise<void> {
    return this.guard(async () => {
      await this.rows.delete({ subject });
    });
  }

  /** Also deletes the bans that have ended, so the table holds no more than the bans started since the last start. */
  inForce(now: number): Promise<SavedBan[]> {
    return this.guard(async () => {
      await this.rows.delete({ banned_until_ms: LessThanOrEqual(now) });
      const rows = await this.rows.findBy({ banned_until_ms: MoreThan(now) });
      return rows.map((row) => ({ subject: row.subject, bannedUntil: row.banned_until_ms }));
    });
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      translateDatabaseError(error);
    }
  }
}
