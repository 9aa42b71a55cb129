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
  type PetEventType,
  type WebhookEndpoint,
  type WebhookEndpointStore,
} from '@petstore/core';
import type { Database, Statement } from 'better-sqlite3';
import { LessThan, MoreThan, type DataSource, type Repository } from 'typeorm';
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

function toAttempt(row: WebhookAttemptRow): DeliveryAttempt {
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
  };
}

/** An attempt and what becomes of its delivery, as one record of a batch. */
type AttemptRecord = WebhookAttemptRow & { state: string; next_due_at_ms: number | null };

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
] as const satisfies readonly (keyof WebhookAttemptRow)[];
const ATTEMPT_COLUMNS = ATTEMPT_FIELDS.map((field) => `"${field}"`).join(', ');
/** The record's fields as jsonb_to_recordset reads them (PostgreSQL). */
const RECORD_COLUMNS =
  '"id" text, "delivery_id" bigint, "event_id" text, "endpoint_id" text, "attempt" integer, "at_ms" bigint, "status_code" integer, ' +
  '"duration_ms" integer, "error" text, "response_body" text, "succeeded" boolean, "state" text, "next_due_at_ms" bigint';

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
    state: outcome.state,
    next_due_at_ms: outcome.state === 'pending' ? outcome.nextAttemptAt.getTime() : null,
  };
}

type ClaimedRow = { id: number | string; event_id: string; endpoint_id: string; attempts: number };
const toDelivery = (row: ClaimedRow): Delivery => ({
  id: toSafeInteger(row.id),
  eventId: row.event_id,
  endpointId: row.endpoint_id,
  attempts: row.attempts,
});

/** An endpoint subscribed to the event `p` (its types are stored comma-separated). */
const SUBSCRIBED = `(',' || e."event_types" || ',') LIKE ('%,' || p."type" || ',%')`;

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
 * WebhookEndpointStore and DeliveryQueue on TypeORM. On PostgreSQL, dispatching and claiming are single statements
 * that lock the rows they take with `FOR UPDATE SKIP LOCKED`, so instances sharing the database never take the same
 * event or delivery; on SQLite, where one writer runs at a time, dispatch is one immediate transaction and a claim
 * one statement.
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
    const { affected } = await this.guard(() => this.deliveries.update({ endpoint_id: endpointId, state: 'pending' }, { state: 'failed' }));
    return affected ?? 0;
  }

  async dispatch(at: Date, limit: number): Promise<number> {
    if (this.postgres) {
      const [row] = await this.guard<{ count: number }[]>(() =>
        this.dataSource.query(
          `WITH "picked" AS (SELECT "id", "type" FROM "pet_events" WHERE NOT "dispatched" ORDER BY "at_ms", "id" LIMIT $1 FOR UPDATE SKIP LOCKED), ` +
            `"marked" AS (UPDATE "pet_events" SET "dispatched" = true WHERE "id" IN (SELECT "id" FROM "picked")), ` +
            `"queued" AS (INSERT INTO "webhook_deliveries" ("event_id", "endpoint_id", "state", "attempts", "due_at_ms") ` +
            `SELECT p."id", e."id", 'pending', 0, $2 FROM "picked" p JOIN "webhook_endpoints" e ON NOT e."disabled" AND ${SUBSCRIBED} ORDER BY p."id") ` +
            `SELECT count(*)::int AS "count" FROM "picked"`,
          [limit, at.getTime()],
        ),
      );
      return row?.count ?? 0;
    }
    return this.guard(async () => {
      const db = sqliteConnectionOf(this.dataSource);
      // A transaction an embedder opened through TypeORM on this one connection: dispatch at the next round instead.
      if (!db || db.inTransaction) return 0;
      const dispatch = db.transaction(() => {
        const picked = this.prepared(db, 'SELECT "id" FROM "pet_events" WHERE "dispatched" = 0 ORDER BY "at_ms", "id" LIMIT ?')
          .pluck()
          .all(limit) as string[];
        const queue = this.prepared(
          db,
          `INSERT INTO "webhook_deliveries" ("event_id", "endpoint_id", "state", "attempts", "due_at_ms") ` +
            `SELECT p."id", e."id", 'pending', 0, ? FROM "pet_events" p JOIN "webhook_endpoints" e ON NOT e."disabled" AND ${SUBSCRIBED} WHERE p."id" = ?`,
        );
        const mark = this.prepared(db, 'UPDATE "pet_events" SET "dispatched" = 1 WHERE "id" = ?');
        for (const id of picked) {
          queue.run(at.getTime(), id);
          mark.run(id);
        }
        return picked.length;
      });
      return dispatch.immediate();
    });
  }

  async enqueue(eventId: string, endpointId: string, at: Date): Promise<Delivery> {
    const row = { event_id: eventId, endpoint_id: endpointId, state: 'pending', attempts: 0, due_at_ms: at.getTime() };
    const { identifiers } = await this.guard(() => this.deliveries.insert(row));
    return { id: toSafeInteger(identifiers[0]!['id'] as number), eventId, endpointId, attempts: 0 };
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
   * delivery moves on only from an earlier attempt, so a late or repeated record changes nothing.
   */
  private async store(rows: AttemptRecord[]): Promise<void> {
    if (this.postgres) {
      await this.dataSource.query(
        `WITH "x" AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(${RECORD_COLUMNS})), ` +
          `"logged" AS (INSERT INTO "webhook_attempts" (${ATTEMPT_COLUMNS}) SELECT ${ATTEMPT_COLUMNS} FROM "x" ON CONFLICT ("id") DO NOTHING RETURNING "id") ` +
          `UPDATE "webhook_deliveries" d SET "state" = x."state", "attempts" = x."attempt", "due_at_ms" = COALESCE(x."next_due_at_ms", d."due_at_ms") ` +
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
    const write = () => {
      for (const row of rows) {
        const { changes } = log.run(...ATTEMPT_FIELDS.map((field) => (typeof row[field] === 'boolean' ? Number(row[field]) : row[field])));
        if (changes > 0) update.run(row.state, row.attempt, row.next_due_at_ms, row.delivery_id, row.attempt);
      }
    };
    // Inside a transaction an embedder opened through TypeORM the writes join it, as any statement on this connection would.
    if (db.inTransaction) write();
    else db.transaction(write).immediate();
  }

  async listAttempts({ endpointId, before, limit }: AttemptListRequest): Promise<DeliveryAttempt[]> {
    const where = before
      ? [
          { endpoint_id: endpointId, at_ms: LessThan(before.at.getTime()) },
          { endpoint_id: endpointId, at_ms: before.at.getTime(), id: LessThan(before.id) },
        ]
      : { endpoint_id: endpointId };
    const rows = await this.guard(() => this.attempts.find({ where, order: { at_ms: 'DESC', id: 'DESC' }, take: limit }));
    return rows.map(toAttempt);
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
