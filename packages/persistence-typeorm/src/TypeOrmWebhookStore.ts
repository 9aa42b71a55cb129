import {
  ServiceUnavailableError,
  type AttemptListRequest,
  type ClaimRequest,
  type Delivery,
  type DeliveryAttempt,
  type DeliveryOutcome,
  type DeliveryQueue,
  type DisabledReason,
  type EndpointPosition,
  type LoggedAttempt,
  type PetEventType,
  type WebhookEndpoint,
  type WebhookEndpointStore,
} from '@petstore/core';
import type { Database, Statement } from 'better-sqlite3';
import { In, LessThan, MoreThan, type DataSource, type Repository } from 'typeorm';
import { dialectOf } from './dialect.js';
import { sqliteConnectionOf } from './driverConnections.js';
import {
  WEBHOOK_ATTEMPT_ENTITY,
  WEBHOOK_DELIVERY_ENTITY,
  WEBHOOK_ENDPOINT_ENTITY,
  type WebhookAttemptRow,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from './schemas/WebhookSchemas.js';
import { toSafeInteger } from './schemas/safeInteger.js';
import { translateDatabaseError } from './translateDatabaseError.js';
import { dispatchSteps, holdSteps, numbered, runSteps, runStepsAsync, type Step, type Steps } from './webhookDispatch.js';

function toEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    eventTypes: row.event_types.split(',') as PetEventType[],
    description: row.description,
    disabled: row.disabled,
    disabledReason: row.disabled_reason as DisabledReason | null,
    createdAt: new Date(row.created_at_ms),
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: row.previous_secret_expires_at_ms === null ? null : new Date(row.previous_secret_expires_at_ms),
    version: row.version,
  };
}

function toEndpointRow(endpoint: WebhookEndpoint): WebhookEndpointRow {
  return {
    id: endpoint.id,
    url: endpoint.url,
    event_types: endpoint.eventTypes.join(','),
    description: endpoint.description,
    disabled: endpoint.disabled,
    disabled_reason: endpoint.disabledReason,
    created_at_ms: endpoint.createdAt.getTime(),
    secret: endpoint.secret,
    previous_secret: endpoint.previousSecret,
    previous_secret_expires_at_ms: endpoint.previousSecretExpiresAt?.getTime() ?? null,
    version: endpoint.version,
  };
}

/** `waiting`: the delivery still waits for the retry this attempt scheduled. */
function toAttempt(row: WebhookAttemptRow, waiting: boolean): LoggedAttempt {
  return {
    id: row.id,
    deliveryId: toSafeInteger(row.delivery_id),
    eventId: row.event_id,
    endpointId: row.endpoint_id,
    attempt: row.attempt,
    at: new Date(row.at_ms),
    statusCode: row.status_code,
    durationMs: row.duration_ms,
    error: row.error,
    responseBody: row.response_body,
    succeeded: row.succeeded,
    nextAttemptAt: waiting && row.next_attempt_at_ms !== null ? new Date(row.next_attempt_at_ms) : null,
  };
}

/** An attempt and what becomes of its delivery, as one record of a batch. */
type AttemptRecord = WebhookAttemptRow & { state: string };

const ATTEMPT_FIELDS = [
  'id',
  'delivery_id',
  'event_id',
  'endpoint_id',
  'attempt',
  'at_ms',
  'status_code',
  'duration_ms',
  'error',
  'response_body',
  'succeeded',
  'next_attempt_at_ms',
] as const satisfies readonly (keyof WebhookAttemptRow)[];
const ATTEMPT_COLUMNS = ATTEMPT_FIELDS.map((field) => `"${field}"`).join(', ');
/** The record's fields as jsonb_to_recordset reads them (PostgreSQL). */
const RECORD_COLUMNS =
  '"id" text, "delivery_id" bigint, "event_id" text, "endpoint_id" text, "attempt" integer, "at_ms" bigint, "status_code" integer, ' +
  '"duration_ms" integer, "error" text, "response_body" text, "succeeded" boolean, "next_attempt_at_ms" bigint, "state" text';

function toAttemptRow(attempt: DeliveryAttempt, outcome: DeliveryOutcome): AttemptRecord {
  return {
    id: attempt.id,
    delivery_id: attempt.deliveryId,
    event_id: attempt.eventId,
    endpoint_id: attempt.endpointId,
    attempt: attempt.attempt,
    at_ms: attempt.at.getTime(),
    status_code: attempt.statusCode,
    duration_ms: attempt.durationMs,
    error: attempt.error,
    response_body: attempt.responseBody,
    succeeded: attempt.succeeded,
    next_attempt_at_ms: outcome.state === 'pending' ? outcome.nextAttemptAt.getTime() : null,
    state: outcome.state,
  };
}

type ClaimedRow = { id: number | string; event_id: string; endpoint_id: string; attempts: number };
const toDelivery = (row: ClaimedRow): Delivery => ({
  id: toSafeInteger(row.id),
  eventId: row.event_id,
  endpointId: row.endpoint_id,
  attempts: row.attempts,
});

/**
 * Claims each endpoint's share in turns (every endpoint's soonest due delivery before any endpoint's second). Named
 * parameters: the lease's end, now, how many in all, the share of an endpoint not listed, the most any endpoint may
 * have, the endpoints with no share (a JSON array) and those with another share (a JSON object of endpoint id to
 * share). Each endpoint's next few due deliveries are read from the index by endpoint, so the deliveries waiting for
 * an endpoint with no share (paused, or busy) cost nothing. On PostgreSQL the rows are locked where they are checked
 * again, so two instances never claim one delivery.
 */
const CLAIM = (p: (name: ClaimParameter) => string, postgres: boolean) => {
  const [blocked, listed, shareOf] = postgres
    ? [
        `SELECT jsonb_array_elements_text(${p('blocked')}::jsonb)`,
        `SELECT jsonb_object_keys(${p('slots')}::jsonb)`,
        `(${p('slots')}::jsonb ->> t."endpoint_id")::int`,
      ]
    : [
        `SELECT "value" FROM json_each(${p('blocked')})`,
        `SELECT "key" FROM json_each(${p('slots')})`,
        `json_extract(${p('slots')}, '$."' || t."endpoint_id" || '"')`,
      ];
  const due = `"state" = 'pending' AND "due_at_ms" <= ${p('now')}`;
  const next = `SELECT "id", "endpoint_id", "due_at_ms" FROM "webhook_deliveries" x WHERE x."endpoint_id" = e."id" AND x.${due} ORDER BY x."due_at_ms", x."id" LIMIT ${p('most')}`;
  const candidates = postgres
    ? `SELECT d."id", d."endpoint_id", d."due_at_ms" FROM "webhook_endpoints" e CROSS JOIN LATERAL (${next}) d WHERE e."id" NOT IN (${blocked})`
    : `SELECT d."id", d."endpoint_id", d."due_at_ms" FROM "webhook_endpoints" e JOIN "webhook_deliveries" d ON d."id" IN (SELECT "id" FROM (${next})) ` +
      `WHERE e."id" NOT IN (${blocked})`;
  const picked =
    `SELECT t."id" FROM "turns" t WHERE t."turn" <= CASE WHEN t."endpoint_id" IN (${listed}) THEN ${shareOf} ELSE ${p('perEndpoint')} END ` +
    `ORDER BY t."turn", t."due_at_ms", t."id" LIMIT ${p('limit')}`;
  return (
    `WITH "turns" AS (SELECT c.*, row_number() OVER (PARTITION BY c."endpoint_id" ORDER BY c."due_at_ms", c."id") AS "turn" FROM (${candidates}) c) ` +
    `UPDATE "webhook_deliveries" SET "due_at_ms" = ${p('lease')} WHERE "id" IN ` +
    (postgres ? `(SELECT "id" FROM "webhook_deliveries" WHERE ${due} AND "id" IN (${picked}) FOR UPDATE SKIP LOCKED)` : `(${picked})`) +
    ' RETURNING "id", "event_id", "endpoint_id", "attempts"'
  );
};
type ClaimParameter = 'lease' | 'now' | 'limit' | 'perEndpoint' | 'most' | 'blocked' | 'slots';
/** The order of the PostgreSQL parameters ($1 to $7). */
const CLAIM_PARAMETERS: readonly ClaimParameter[] = ['lease', 'now', 'limit', 'perEndpoint', 'most', 'blocked', 'slots'];

/**
 * WebhookEndpointStore and DeliveryQueue on TypeORM. Dispatches and holds (webhookDispatch.ts) take turns on the head
 * of the dispatch order: on PostgreSQL each is a transaction that locks its row first, on SQLite one immediate
 * transaction. A claim is one statement that, on PostgreSQL, locks the rows it takes with `FOR UPDATE SKIP LOCKED`, so
 * instances sharing the database never take the same event or delivery.
 */
export class TypeOrmWebhookStore implements WebhookEndpointStore, DeliveryQueue {
  private readonly endpoints: Repository<WebhookEndpointRow>;
  private readonly deliveries: Repository<WebhookDeliveryRow>;
  private readonly attempts: Repository<WebhookAttemptRow>;
  private readonly postgres: boolean;

  constructor(private readonly dataSource: DataSource) {
    this.endpoints = dataSource.getRepository<WebhookEndpointRow>(WEBHOOK_ENDPOINT_ENTITY);
    this.deliveries = dataSource.getRepository<WebhookDeliveryRow>(WEBHOOK_DELIVERY_ENTITY);
    this.attempts = dataSource.getRepository<WebhookAttemptRow>(WEBHOOK_ATTEMPT_ENTITY);
    this.postgres = dialectOf(dataSource) === 'postgres';
  }

  async create(endpoint: WebhookEndpoint): Promise<void> {
    await this.guard(() => this.endpoints.insert(toEndpointRow(endpoint)));
  }

  async findById(id: string): Promise<WebhookEndpoint | null> {
    const row = await this.guard(() => this.endpoints.findOneBy({ id }));
    return row ? toEndpoint(row) : null;
  }

  async findByIds(ids: readonly string[]): Promise<WebhookEndpoint[]> {
    if (ids.length === 0) return [];
    const rows = await this.guard(() => this.endpoints.findBy({ id: In([...ids]) }));
    return rows.map(toEndpoint);
  }

  async list({ after, limit }: { after: EndpointPosition | null; limit: number }): Promise<WebhookEndpoint[]> {
    const where = after ? [{ created_at_ms: MoreThan(after.at.getTime()) }, { created_at_ms: after.at.getTime(), id: MoreThan(after.id) }] : {};
    const rows = await this.guard(() => this.endpoints.find({ where, order: { created_at_ms: 'ASC', id: 'ASC' }, take: limit }));
    return rows.map(toEndpoint);
  }

  async save(endpoint: WebhookEndpoint): Promise<boolean> {
    const { id, version, ...columns } = toEndpointRow(endpoint);
    // One UPDATE: PostgreSQL re-checks the version on the row a concurrent writer left; SQLite has one writer at a time.
    const { affected } = await this.guard(() => this.endpoints.update({ id, version }, { ...columns, version: version + 1 }));
    return (affected ?? 0) > 0;
  }

  async delete(id: string): Promise<boolean> {
    const { affected } = await this.guard(() => this.endpoints.delete({ id }));
    await this.drop(id);
    return (affected ?? 0) > 0;
  }

  async drop(endpointId: string): Promise<number> {
    const { affected } = await this.guard(async () => {
      await this.dataSource.query(`DELETE FROM "webhook_endpoint_holds" WHERE "endpoint_id" = ${this.postgres ? '$1' : '?'}`, [endpointId]);
      return this.deliveries.update({ endpoint_id: endpointId, state: 'pending' }, { state: 'failed' });
    });
    return affected ?? 0;
  }

  async dispatch(at: Date, limit: number, probeUntil: Date): Promise<number> {
    if (this.postgres) return this.inPostgresTransaction(dispatchSteps(true, at, limit, probeUntil));
    return this.guard(async () => {
      const db = sqliteConnectionOf(this.dataSource);
      // A transaction an embedder opened through TypeORM on this one connection: dispatch at the next round instead.
      if (!db || db.inTransaction) return 0;
      return db.transaction(() => runSteps(dispatchSteps(false, at, limit, probeUntil), (step) => this.runOnSqlite(db, step))).immediate();
    });
  }

  async hold(holds: ReadonlyMap<string, Date>): Promise<void> {
    if (this.postgres) return this.inPostgresTransaction(holdSteps(true, holds));
    const db = sqliteConnectionOf(this.dataSource);
    if (!db) throw new ServiceUnavailableError('database');
    const write = () => runSteps(holdSteps(false, holds), (step) => this.runOnSqlite(db, step));
    // Inside a transaction an embedder opened through TypeORM the writes join it, as any statement on this connection would.
    await this.guard(async () => (db.inTransaction ? write() : db.transaction(write).immediate()));
  }

  private runOnSqlite(db: Database, { text, parameters }: Step): Record<string, unknown>[] {
    const statement = this.prepared(db, text);
    const values = parameters.map((value) => (typeof value === 'boolean' ? Number(value) : value));
    if (statement.reader) return statement.all(...values) as Record<string, unknown>[];
    statement.run(...values);
    return [];
  }

  private inPostgresTransaction<T>(steps: Steps<T>): Promise<T> {
    return this.guard(() =>
      this.dataSource.transaction((manager) =>
        runStepsAsync(steps, async ({ text, parameters }) => {
          const rows: unknown = await manager.query(numbered(text), parameters);
          // A write answers [rows, count]; no step reads what a write answers.
          return Array.isArray(rows) && !Array.isArray(rows[0]) ? (rows as Record<string, unknown>[]) : [];
        }),
      ),
    );
  }

  /**
   * One statement that inserts unless a replay of the pair is pending. SQLite runs one writer at a time; on
   * PostgreSQL the statement runs in a transaction holding a lock named after the pair (`pg_advisory_xact_lock`), taken
   * by an earlier statement so that the insert's snapshot sees a concurrent replay that committed meanwhile.
   */
  async enqueue(eventId: string, endpointId: string, at: Date): Promise<Delivery | null> {
    const p = this.postgres ? (n: number) => `$${n}` : () => '?';
    const yes = this.postgres ? 'true' : '1';
    const insert =
      `INSERT INTO "webhook_deliveries" ("event_id", "endpoint_id", "state", "attempts", "due_at_ms", "replay") SELECT ${p(1)}, ${p(2)}, 'pending', 0, ${p(3)}, ${yes} ` +
      `WHERE NOT EXISTS (SELECT 1 FROM "webhook_deliveries" WHERE "endpoint_id" = ${p(2)} AND "state" = 'pending' AND "event_id" = ${p(1)} AND "replay" = ${yes}) ` +
      'RETURNING "id"';
    // SQLite binds its anonymous parameters in the order they appear.
    const values = this.postgres ? [eventId, endpointId, at.getTime()] : [eventId, endpointId, at.getTime(), endpointId, eventId];
    const rows = await this.guard(async () => {
      if (!this.postgres) return (await this.dataSource.query<{ id: number }[]>(insert, values)) ?? [];
      return this.dataSource.transaction(async (manager) => {
        await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`petstore.replay|${eventId}|${endpointId}`]);
        return manager.query<{ id: number | string }[]>(insert, values);
      });
    });
    const id = rows[0]?.id;
    return id === undefined ? null : { id: toSafeInteger(id), eventId, endpointId, attempts: 0 };
  }

  async claim({ now, leaseUntil, limit, perEndpoint, slots }: ClaimRequest): Promise<Delivery[]> {
    const blocked = [...slots].filter(([, share]) => share <= 0).map(([id]) => id);
    const values = {
      lease: leaseUntil.getTime(),
      now: now.getTime(),
      limit,
      perEndpoint,
      most: Math.max(perEndpoint, ...slots.values()),
      blocked: JSON.stringify(blocked),
      slots: JSON.stringify(Object.fromEntries([...slots].filter(([, share]) => share > 0))),
    };
    if (this.postgres) {
      const text = CLAIM((name) => `$${CLAIM_PARAMETERS.indexOf(name) + 1}`, true);
      const rows = await this.rowsOf<ClaimedRow>(
        text,
        CLAIM_PARAMETERS.map((name) => values[name]),
      );
      return rows.map(toDelivery).sort((a, b) => a.id - b.id);
    }
    const db = sqliteConnectionOf(this.dataSource);
    if (!db) throw new ServiceUnavailableError('database');
    const rows = await this.guard(
      async () =>
        this.prepared(
          db,
          CLAIM((name) => `@${name}`, false),
        ).all(values) as ClaimedRow[],
    );
    return rows.map(toDelivery).sort((a, b) => a.id - b.id);
  }

  /**
   * Attempts that end in the same turn of the event loop are recorded together: one transaction on SQLite, one
   * statement on PostgreSQL (a round's attempts to a fast receiver end together). Each call resolves once its own
   * attempt is stored.
   */
  record(attempt: DeliveryAttempt, outcome: DeliveryOutcome): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.batch.length === 0) setImmediate(() => void this.recordBatch());
      this.batch.push({ row: toAttemptRow(attempt, outcome), resolve, reject });
    });
  }

  private batch: { row: AttemptRecord; resolve: () => void; reject: (error: unknown) => void }[] = [];

  private async recordBatch(): Promise<void> {
    const pending = this.batch;
    this.batch = [];
    try {
      await this.guard(() => this.store(pending.map((p) => p.row)));
      for (const p of pending) p.resolve();
    } catch (error) {
      if (pending.length === 1) {
        pending[0]!.reject(error);
        return;
      }
      // One record the database refuses must not fail the others: each alone, then.
      await Promise.all(pending.map((p) => this.guard(() => this.store([p.row])).then(p.resolve, p.reject)));
    }
  }

  /**
   * Stores attempts and their deliveries' states. An attempt recorded already (its id) is left as it is, and a
   * delivery moves on only from an earlier attempt, so a late or repeated record changes nothing. A success ends its
   * endpoint's failing: a held endpoint is then given what it is owed at the next dispatch.
   */
  private async store(rows: AttemptRecord[]): Promise<void> {
    if (this.postgres) {
      await this.dataSource.query(
        `WITH "x" AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(${RECORD_COLUMNS})), ` +
          `"logged" AS (INSERT INTO "webhook_attempts" (${ATTEMPT_COLUMNS}) SELECT ${ATTEMPT_COLUMNS} FROM "x" ON CONFLICT ("id") DO NOTHING RETURNING "id"), ` +
          `"released" AS (UPDATE "webhook_endpoint_holds" h SET "failing" = false, "due_at_ms" = 0 FROM "x" ` +
          `WHERE h."endpoint_id" = x."endpoint_id" AND h."failing" AND x."succeeded" AND x."id" IN (SELECT "id" FROM "logged")) ` +
          `UPDATE "webhook_deliveries" d SET "state" = x."state", "attempts" = x."attempt", "due_at_ms" = COALESCE(x."next_attempt_at_ms", d."due_at_ms") ` +
          `FROM "x" WHERE d."id" = x."delivery_id" AND d."attempts" < x."attempt" AND x."id" IN (SELECT "id" FROM "logged")`,
        [JSON.stringify(rows)],
      );
      return;
    }
    const db = sqliteConnectionOf(this.dataSource);
    if (!db) throw new ServiceUnavailableError('database');
    const log = this.prepared(
      db,
      `INSERT INTO "webhook_attempts" (${ATTEMPT_COLUMNS}) VALUES (${ATTEMPT_FIELDS.map(() => '?').join(', ')}) ON CONFLICT ("id") DO NOTHING`,
    );
    const update = this.prepared(
      db,
      'UPDATE "webhook_deliveries" SET "state" = ?, "attempts" = ?, "due_at_ms" = COALESCE(?, "due_at_ms") WHERE "id" = ? AND "attempts" < ?',
    );
    const release = this.prepared(db, 'UPDATE "webhook_endpoint_holds" SET "failing" = 0, "due_at_ms" = 0 WHERE "endpoint_id" = ? AND "failing" = 1');
    const write = () => {
      for (const row of rows) {
        const { changes } = log.run(...ATTEMPT_FIELDS.map((field) => (typeof row[field] === 'boolean' ? Number(row[field]) : row[field])));
        if (changes === 0) continue;
        update.run(row.state, row.attempt, row.next_attempt_at_ms, row.delivery_id, row.attempt);
        if (row.succeeded) release.run(row.endpoint_id);
      }
    };
    // Inside a transaction an embedder opened through TypeORM the writes join it, as any statement on this connection would.
    if (db.inTransaction) write();
    else db.transaction(write).immediate();
  }

  async listAttempts({ endpointId, before, limit }: AttemptListRequest): Promise<LoggedAttempt[]> {
    const where = before
      ? [
          { endpoint_id: endpointId, at_ms: LessThan(before.at.getTime()) },
          { endpoint_id: endpointId, at_ms: before.at.getTime(), id: LessThan(before.id) },
        ]
      : { endpoint_id: endpointId };
    const rows = await this.guard(() => this.attempts.find({ where, order: { at_ms: 'DESC', id: 'DESC' }, take: limit }));
    // The deliveries of the attempts that scheduled a retry: is it still to come?
    const scheduled = [...new Set(rows.filter((row) => row.next_attempt_at_ms !== null).map((row) => row.delivery_id))];
    const deliveries =
      scheduled.length === 0
        ? []
        : await this.guard(() => this.deliveries.find({ select: { id: true, state: true, attempts: true }, where: { id: In(scheduled) } }));
    const waitingAfter = new Map(deliveries.filter((d) => d.state === 'pending').map((d) => [toSafeInteger(d.id), d.attempts]));
    return rows.map((row) => toAttempt(row, waitingAfter.get(toSafeInteger(row.delivery_id)) === row.attempt));
  }

  async backlog(): Promise<{ pending: number; undispatched: number; oldestDueAt: Date | null }> {
    type Row = { owed: number | string; oldest: number | string | null };
    const [deliveries, events] = await this.guard(() =>
      Promise.all([
        this.dataSource.query<Row[]>(`SELECT count(*) AS "owed", min("due_at_ms") AS "oldest" FROM "webhook_deliveries" WHERE "state" = 'pending'`),
        this.dataSource.query<Row[]>(
          `SELECT count(*) AS "owed", min("at_ms") AS "oldest" FROM "pet_events" WHERE "dispatched" = ${this.postgres ? 'false' : '0'}`,
        ),
      ]),
    );
    const oldest = [deliveries[0]?.oldest, events[0]?.oldest].filter((at) => at !== null && at !== undefined).map(Number);
    return {
      pending: Number(deliveries[0]?.owed ?? 0),
      undispatched: Number(events[0]?.owed ?? 0),
      oldestDueAt: oldest.length > 0 ? new Date(Math.min(...oldest)) : null,
    };
  }

  /** The rows a statement returns (TypeORM's plain `query` answers an UPDATE on PostgreSQL with `[rows, count]`). */
  private async rowsOf<T>(text: string, parameters: unknown[]): Promise<T[]> {
    const runner = this.dataSource.createQueryRunner();
    try {
      return (await this.guard(() => runner.query(text, parameters, true))).records as T[];
    } finally {
      await runner.release();
    }
  }

  private statements: { db: Database; byText: Map<string, Statement> } | undefined;

  /** A statement prepared once per SQLite connection (preparing costs more than running these). */
  private prepared(db: Database, text: string): Statement {
    if (this.statements?.db !== db) this.statements = { db, byText: new Map() };
    const { byText } = this.statements;
    return byText.get(text) ?? byText.set(text, db.prepare(text)).get(text)!;
  }

  private async guard<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      translateDatabaseError(error);
    }
  }
}
