import { ServiceUnavailableError, type PurgedHistory, type WebhookHistory } from '@petstore/core';
import type { DataSource } from 'typeorm';
import { dialectOf } from './dialect.js';
import { sqliteConnectionOf } from './driverConnections.js';
import { translateDatabaseError } from './translateDatabaseError.js';

type Kind = keyof PurgedHistory;

/**
 * The rows of each kind a purge deletes, `cutoff` and `limit` as parameters: each statement deletes one batch, read
 * from an index on its age (attempts by `at_ms`; ended deliveries by state and `due_at_ms`, their last claim's end;
 * dispatched events by `at_ms`), so it holds the database for a batch's time whatever the table's size. On PostgreSQL
 * each batch locks its rows with `SKIP LOCKED`: instances purging at once take different rows and never wait.
 */
function purgeStatements(postgres: boolean): Record<Kind, string> {
  const [cutoff, limit, lock, yes] = postgres ? ['$1', '$2', ' FOR UPDATE SKIP LOCKED', 'true'] : ['?', '?', '', '1'];
  const batch = (table: string, where: string) =>
    `DELETE FROM "${table}" WHERE "id" IN (SELECT "id" FROM "${table}" WHERE ${where} LIMIT ${limit}${lock})`;
  return {
    attempts: batch('webhook_attempts', `"at_ms" < ${cutoff}`),
    deliveries: batch('webhook_deliveries', `"state" IN ('succeeded', 'failed') AND "due_at_ms" < ${cutoff}`),
    // An event still owed to an endpoint is kept: its delivery reads it at each attempt.
    events: batch(
      'pet_events',
      `"dispatched" = ${yes} AND "at_ms" < ${cutoff} AND "id" NOT IN (SELECT "event_id" FROM "webhook_deliveries" WHERE "state" = 'pending')`,
    ),
  };
}

const KINDS: readonly Kind[] = ['attempts', 'deliveries', 'events'];

/** WebhookHistory on the tables TypeOrmPetRepository and TypeOrmWebhookStore write: one short statement per kind and batch. */
export class TypeOrmWebhookHistory implements WebhookHistory {
  private readonly postgres: boolean;
  private readonly statements: Record<Kind, string>;

  constructor(private readonly dataSource: DataSource) {
    this.postgres = dialectOf(dataSource) === 'postgres';
    this.statements = purgeStatements(this.postgres);
  }

  async purge(before: Date, limit: number): Promise<PurgedHistory> {
    const purged: PurgedHistory = { attempts: 0, deliveries: 0, events: 0 };
    // Attempts, then their deliveries, then the events: each kind outlives what refers to it.
    for (const kind of KINDS) purged[kind] = await this.deleteBatch(this.statements[kind], before.getTime(), limit);
    return purged;
  }

  private async deleteBatch(text: string, cutoff: number, limit: number): Promise<number> {
    try {
      if (this.postgres) {
        const runner = this.dataSource.createQueryRunner();
        try {
          return (await runner.query(text, [cutoff, limit], true)).affected ?? 0;
        } finally {
          await runner.release();
        }
      }
      const db = sqliteConnectionOf(this.dataSource);
      if (!db) throw new ServiceUnavailableError('database');
      // Each batch commits on its own (autocommit), unless an embedder's transaction is open on this connection:
      // then nothing, until the next purge.
      return db.inTransaction ? 0 : db.prepare(text).run(cutoff, limit).changes;
    } catch (error) {
      translateDatabaseError(error);
    }
  }
}
