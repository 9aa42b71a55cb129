import { ServiceUnavailableError, type IdempotencyClaim, type IdempotencyOutcome, type IdempotencyStore, type Pet } from '@petstore/core';
import { LessThanOrEqual, type DataSource, type Repository } from 'typeorm';
import { dialectOf } from './dialect.js';
import { IDEMPOTENCY_KEY_ENTITY, type IdempotencyKeyRow } from './schemas/IdempotencyKeySchema.js';
import { isUniqueViolation, translateDatabaseError } from './translateDatabaseError.js';
import { beforeDeadline, writeDeadline } from './writeDeadline.js';

const late = (what: string) => new ServiceUnavailableError('database', 5, { cause: new Error(`PostgreSQL started ${what} after its deadline`) });

/**
 * IdempotencyStore in the service's database (SQLite or PostgreSQL), so it holds across restarts and instances, on
 * TypeORM's query builder. A claim is a compare-and-set in single statements, each atomic on its own: insert the
 * key, or else take over the row if it expired or its claimant went silent, or else read what the row holds. Two
 * claimants never both win, on one connection or many.
 *
 * On PostgreSQL every write of a claim carries a deadline checked on the server's clock (writeDeadline.ts): started
 * late (the server stalled with it queued, the client already answered 503) it writes nothing, so retries with the
 * key are not blocked. SQLite runs in this process: a statement never executes after its caller gave up.
 */
export class TypeOrmIdempotencyStore implements IdempotencyStore {
  private readonly rows: Repository<IdempotencyKeyRow>;
  private readonly postgres: boolean;

  constructor(private readonly dataSource: DataSource) {
    this.rows = dataSource.getRepository<IdempotencyKeyRow>(IDEMPOTENCY_KEY_ENTITY);
    this.postgres = dialectOf(dataSource) === 'postgres';
  }

  claim(claim: IdempotencyClaim): Promise<IdempotencyOutcome> {
    return this.guard(async () => {
      // One deadline for the whole claim: a read in time then proves every earlier write was in time too.
      const inTime = this.postgres ? { sql: beforeDeadline(':deadline'), parameters: { deadline: writeDeadline(this.dataSource) } } : null;
      if ((await this.inserted(claim, inTime)) || (await this.tookOver(claim, inTime))) return { state: 'claimed' };
      const query = this.rows.createQueryBuilder('row').select(['row.fingerprint', 'row.pet_json']).where({ scope: claim.scope, key: claim.key });
      if (inTime) query.addSelect(inTime.sql, 'in_time').setParameters(inTime.parameters);
      const { entities, raw } = await query.getRawAndEntities<{ in_time?: boolean }>();
      const row = entities[0];
      // Gone since the insert found it (released by its claimant): the caller simply tries again.
      if (!row) return { state: 'in_progress' };
      if (inTime && !raw[0]?.in_time) throw late('a claim');
      if (row.fingerprint !== claim.fingerprint) return { state: 'mismatch' };
      if (row.pet_json === null) return { state: 'in_progress' };
      // Records written before pets had versions were of pets just created: version 1.
      return { state: 'completed', pet: { version: 1, ...(JSON.parse(row.pet_json) as Omit<Pet, 'version'>) } };
    });
  }

  /** Inserts the claim; false when the key is already there. */
  private async inserted({ scope, key, fingerprint, now, expiresAt }: IdempotencyClaim, inTime: InTime | null): Promise<boolean> {
    const insert = this.rows.createQueryBuilder().insert();
    if (inTime) {
      // INSERT ... SELECT, so that the deadline can refuse it.
      insert
        .into(IDEMPOTENCY_KEY_ENTITY, ['scope', 'key', 'fingerprint', 'pet_json', 'claimed_at_ms', 'expires_at_ms'])
        .valuesFromSelect((select) =>
          select
            .select([
              'CAST(:scope AS text)',
              'CAST(:key AS text)',
              'CAST(:fingerprint AS text)',
              'NULL',
              'CAST(:now AS bigint)',
              'CAST(:expiresAt AS bigint)',
            ])
            .fromDummy()
            .where(inTime.sql),
        )
        .setParameters({ scope, key, fingerprint, now, expiresAt, ...inTime.parameters })
        .returning(['scope']);
    } else {
      insert.values({ scope, key, fingerprint, pet_json: null, claimed_at_ms: now, expires_at_ms: expiresAt });
    }
    try {
      const { raw } = await insert.execute();
      if (inTime && (raw as unknown[]).length === 0) throw late('the insert of a claim');
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Takes the key over if its record expired or its claimant went silent; false when it did not. */
  private async tookOver({ scope, key, fingerprint, now, expiresAt, staleAfter }: IdempotencyClaim, inTime: InTime | null): Promise<boolean> {
    const update = this.rows
      .createQueryBuilder()
      .update()
      .set({ fingerprint, pet_json: null, claimed_at_ms: now, expires_at_ms: expiresAt })
      .where({ scope, key })
      .andWhere('("expires_at_ms" <= :now OR ("pet_json" IS NULL AND "claimed_at_ms" < :staleAfter))', { now, staleAfter });
    if (inTime) update.andWhere(inTime.sql, inTime.parameters);
    return ((await update.execute()).affected ?? 0) > 0;
  }

  complete(scope: string, key: string, pet: Pet): Promise<void> {
    return this.guard(async () => {
      await this.rows.update({ scope, key }, { pet_json: JSON.stringify(pet) });
    });
  }

  release(scope: string, key: string): Promise<void> {
    return this.guard(async () => {
      await this.rows.delete({ scope, key });
    });
  }

  purgeExpired(now: number): Promise<number> {
    return this.guard(async () => (await this.rows.delete({ expires_at_ms: LessThanOrEqual(now) })).affected ?? 0);
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      translateDatabaseError(error);
    }
  }
}

/** SQL true while PostgreSQL's clock is before the claim's deadline, and its parameter. */
type InTime = { sql: string; parameters: { deadline: number } };
