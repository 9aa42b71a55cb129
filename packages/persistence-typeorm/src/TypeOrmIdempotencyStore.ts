import { ServiceUnavailableError, type IdempotencyClaim, type IdempotencyOutcome, type IdempotencyStore, type Pet } from '@petstore/core';
import type { DataSource } from 'typeorm';
import { dialectOf } from './dialect.js';
import { translateDatabaseError } from './translateDatabaseError.js';
import { beforeDeadline, writeDeadline } from './writeDeadline.js';

function statementsFor(p: (n: number) => string) {
  return {
    // One atomic statement: insert the claim, or take over a row that has expired or whose claimant went silent.
    claim:
      `INSERT INTO "idempotency_keys" ("scope", "key", "fingerprint", "pet_json", "claimed_at_ms", "expires_at_ms") ` +
      `VALUES (${p(1)}, ${p(2)}, ${p(3)}, NULL, ${p(4)}, ${p(5)}) ` +
      `ON CONFLICT ("scope", "key") DO UPDATE SET "fingerprint" = excluded."fingerprint", "pet_json" = NULL, ` +
      `"claimed_at_ms" = excluded."claimed_at_ms", "expires_at_ms" = excluded."expires_at_ms" ` +
      `WHERE "idempotency_keys"."expires_at_ms" <= ${p(4)} OR ("idempotency_keys"."pet_json" IS NULL AND "idempotency_keys"."claimed_at_ms" < ${p(6)}) ` +
      `RETURNING "scope"`,
    // PostgreSQL: the same claim, carrying a deadline checked on the server's clock. Started late (the server stalled
    // with it queued, the client already answered 503), it claims nothing, so retries with the key are not blocked.
    guardedClaim:
      `WITH "guard" AS (SELECT ${beforeDeadline(p(7))} AS "in_time"), "claimed" AS (` +
      `INSERT INTO "idempotency_keys" ("scope", "key", "fingerprint", "pet_json", "claimed_at_ms", "expires_at_ms") ` +
      `SELECT ${p(1)}::text, ${p(2)}::text, ${p(3)}::text, NULL::text, ${p(4)}::bigint, ${p(5)}::bigint FROM "guard" WHERE "in_time" ` +
      `ON CONFLICT ("scope", "key") DO UPDATE SET "fingerprint" = excluded."fingerprint", "pet_json" = NULL, ` +
      `"claimed_at_ms" = excluded."claimed_at_ms", "expires_at_ms" = excluded."expires_at_ms" ` +
      `WHERE "idempotency_keys"."expires_at_ms" <= ${p(4)} OR ("idempotency_keys"."pet_json" IS NULL AND "idempotency_keys"."claimed_at_ms" < ${p(6)}) ` +
      `RETURNING "scope") ` +
      `SELECT "in_time", (SELECT count(*) FROM "claimed")::int AS "claimed" FROM "guard"`,
    find: `SELECT "fingerprint", "pet_json" FROM "idempotency_keys" WHERE "scope" = ${p(1)} AND "key" = ${p(2)}`,
    complete: `UPDATE "idempotency_keys" SET "pet_json" = ${p(1)} WHERE "scope" = ${p(2)} AND "key" = ${p(3)}`,
    release: `DELETE FROM "idempotency_keys" WHERE "scope" = ${p(1)} AND "key" = ${p(2)}`,
    purge: `DELETE FROM "idempotency_keys" WHERE "expires_at_ms" <= ${p(1)} RETURNING "scope"`,
  };
}

/** IdempotencyStore in the service's database (SQLite or PostgreSQL), so it holds across restarts and instances. */
export class TypeOrmIdempotencyStore implements IdempotencyStore {
  private readonly sql: ReturnType<typeof statementsFor>;
  private readonly postgres: boolean;

  constructor(private readonly dataSource: DataSource) {
    this.postgres = dialectOf(dataSource) === 'postgres';
    this.sql = statementsFor(this.postgres ? (n) => `$${n}` : () => '?');
  }

  async claim({ scope, key, fingerprint, now, expiresAt, staleAfter }: IdempotencyClaim): Promise<IdempotencyOutcome> {
    if (await this.claimed({ scope, key, fingerprint, now, expiresAt, staleAfter })) return { state: 'claimed' };
    const [row] = await this.query<{ fingerprint: string; pet_json: string | null }>(this.sql.find, [scope, key]);
    // Gone between the two statements (released by its claimant): the caller simply tries again.
    if (!row) return { state: 'in_progress' };
    if (row.fingerprint !== fingerprint) return { state: 'mismatch' };
    return row.pet_json === null ? { state: 'in_progress' } : { state: 'completed', pet: JSON.parse(row.pet_json) as Pet };
  }

  private async claimed({ scope, key, fingerprint, now, expiresAt, staleAfter }: IdempotencyClaim): Promise<boolean> {
    if (this.postgres) {
      const [guard] = await this.query<{ in_time: boolean; claimed: number }>(this.sql.guardedClaim, [
        scope,
        key,
        fingerprint,
        now,
        expiresAt,
        staleAfter,
        writeDeadline(this.dataSource),
      ]);
      if (!guard?.in_time)
        throw new ServiceUnavailableError('database', 5, {
          cause: new Error('PostgreSQL started the claim after its deadline: nothing was claimed'),
        });
      return guard.claimed > 0;
    }
    // SQLite runs in this process: a statement never executes after its caller gave up. It numbers its `?`
    // placeholders by position, so repeated values are passed again.
    return (await this.query<unknown>(this.sql.claim, [scope, key, fingerprint, now, expiresAt, now, staleAfter])).length > 0;
  }

  async complete(scope: string, key: string, pet: Pet): Promise<void> {
    await this.query(this.sql.complete, [JSON.stringify(pet), scope, key]);
  }

  async release(scope: string, key: string): Promise<void> {
    await this.query(this.sql.release, [scope, key]);
  }

  async purgeExpired(now: number): Promise<number> {
    return (await this.query(this.sql.purge, [now])).length;
  }

  /** The rows a statement returned (its RETURNING rows for writes), the same way on both databases. */
  private async query<Row>(sql: string, parameters: unknown[]): Promise<Row[]> {
    const runner = this.dataSource.createQueryRunner();
    try {
      return ((await runner.query(sql, parameters, true)) as { records?: Row[] }).records ?? [];
    } catch (error) {
      translateDatabaseError(error);
    } finally {
      await runner.release();
    }
  }
}
