import type { DailyUsage, KeyUsageIncrement, KeyUsageStore, UtcDay } from '@petstore/core';
import { Between, In, LessThan, type DataSource, type Repository } from 'typeorm';
import { dialectOf } from './dialect.js';
import { KEY_LAST_USE_ENTITY, KEY_USAGE_DAY_ENTITY, type KeyLastUseRow, type KeyUsageDayRow } from './schemas/KeyUsageSchemas.js';
import { translateDatabaseError } from './translateDatabaseError.js';

/** Rows per statement: well under SQLite's and PostgreSQL's limits on bound parameters. */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/**
 * KeyUsageStore in `key_usage_days` and `key_last_uses`. A flush is one transaction of upserts that add to what is
 * stored (`requests + excluded.requests`, and so for `limited`) and move a last use only forward, so instances
 * flushing at the same time never overwrite each other. The upserts are plain SQL that SQLite and PostgreSQL both
 * accept.
 */
export class TypeOrmKeyUsageStore implements KeyUsageStore {
  private readonly days: Repository<KeyUsageDayRow>;
  private readonly lastUses: Repository<KeyLastUseRow>;
  private readonly placeholder: (position: number) => string;

  constructor(private readonly dataSource: DataSource) {
    this.days = dataSource.getRepository<KeyUsageDayRow>(KEY_USAGE_DAY_ENTITY);
    this.lastUses = dataSource.getRepository<KeyLastUseRow>(KEY_LAST_USE_ENTITY);
    this.placeholder = dialectOf(dataSource) === 'postgres' ? (position) => `$${position}` : () => '?';
  }

  add(increments: readonly KeyUsageIncrement[]): Promise<void> {
    if (increments.length === 0) return Promise.resolve();
    // One row per key for the last uses: an upsert may not touch a row twice in one statement.
    const latest = new Map<string, number>();
    for (const { keyId, lastUsedAt } of increments) latest.set(keyId, Math.max(latest.get(keyId) ?? 0, lastUsedAt.getTime()));
    return this.guard(() =>
      this.dataSource.transaction(async (manager) => {
        for (const batch of chunks(increments)) {
          await manager.query(
            `INSERT INTO "key_usage_days" ("key_id", "day", "requests", "limited") VALUES ${this.tuples(batch.length, 4)} ` +
              `ON CONFLICT ("key_id", "day") DO UPDATE SET "requests" = "key_usage_days"."requests" + excluded."requests", ` +
              `"limited" = "key_usage_days"."limited" + excluded."limited"`,
            batch.flatMap(({ keyId, day, requests, limited }) => [keyId, day, requests, limited]),
          );
        }
        for (const batch of chunks([...latest])) {
          await manager.query(
            `INSERT INTO "key_last_uses" ("key_id", "last_used_at_ms") VALUES ${this.tuples(batch.length, 2)} ` +
              `ON CONFLICT ("key_id") DO UPDATE SET "last_used_at_ms" = excluded."last_used_at_ms" ` +
              `WHERE excluded."last_used_at_ms" > "key_last_uses"."last_used_at_ms"`,
            batch.flat(),
          );
        }
      }),
    );
  }

  dailyUsage(keyId: string, from: UtcDay, to: UtcDay): Promise<DailyUsage[]> {
    return this.guard(async () => {
      const rows = await this.days.find({ where: { key_id: keyId, day: Between(from, to) }, order: { day: 'ASC' } });
      return rows.map(({ day, requests, limited }) => ({ day, requests, limited }));
    });
  }

  requestsOn(day: UtcDay): Promise<ReadonlyMap<string, number>> {
    return this.guard(async () => new Map((await this.days.findBy({ day })).map((row) => [row.key_id, row.requests])));
  }

  lastUsedAt(keyIds: readonly string[]): Promise<ReadonlyMap<string, Date>> {
    if (keyIds.length === 0) return Promise.resolve(new Map());
    return this.guard(async () => {
      const rows = await this.lastUses.findBy({ key_id: In([...keyIds]) });
      return new Map(rows.map((row) => [row.key_id, new Date(row.last_used_at_ms)]));
    });
  }

  purgeBefore(before: UtcDay): Promise<number> {
    return this.guard(async () => (await this.days.delete({ day: LessThan(before) })).affected ?? 0);
  }

  /** `(?, ?), (?, ?)` or `($1, $2), ($3, $4)`: `rows` tuples of `width` parameters. */
  private tuples(rows: number, width: number): string {
    return Array.from(
      { length: rows },
      (_, row) => `(${Array.from({ length: width }, (_, column) => this.placeholder(row * width + column + 1)).join(', ')})`,
    ).join(', ');
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      translateDatabaseError(error);
    }
  }
}
