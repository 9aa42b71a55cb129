// The pet statements on the raw driver (reached through driverConnections.ts), not through TypeORM's Repository.
//
// Why: the pet statements (insert, find by id, list a page, conditional update) run on every request, and through
// TypeORM each would cost a query runner and a keyed object per row, more than the query itself (on SQLite a one-row
// lookup is about 8 times faster prepared). Here they are prepared once, read positional rows that become pets here
// and nowhere else, and SQLite's inserts are group-committed. The SQLite readiness probe is here too: it must not
// wait for the lock, which only the connection's own busy timeout can say.
import {
  eventIdSuffix,
  generateEventId,
  PET_STATUSES,
  ServiceUnavailableError,
  type ChangeTiming,
  type Pet,
  type PetChangeEvent,
  type PetDraft,
  type PetPage,
  type PetStatus,
} from '@petstore/core';
import type { Database, Statement } from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import { dialectOf } from './dialect.js';
import { postgresPoolOf, sqliteConnectionOf } from './driverConnections.js';
import { toSafeInteger } from './schemas/safeInteger.js';
import { timeoutsPerTransaction } from './transactionPooling.js';
import { beforeDeadline, writeDeadline } from './writeDeadline.js';
import { ListingRuns } from './ListingRuns.js';
import { pageReadsPerTurn, pageReadsSql, type NumberedPetRow } from './postgresPageReads.js';
import type { StatementObserver } from './StatementObserver.js';

/** A row as `[id, name, category_id, status, version]`: positional rows skip building a keyed object per row (the statements' own shape, mapped to pets before they answer). */
export type PetTuple = [id: number | string, name: string, categoryId: number | string, status: string, version: number];

function toPet(row: PetTuple): Pet {
  return { id: toSafeInteger(row[0]), name: row[1], categoryId: toSafeInteger(row[2]), status: row[3] as PetStatus, version: row[4] };
}

/** A page of at most `limit` pets, from up to `limit + 1` rows: one more tells that a next page exists. */
function pageOf(rows: readonly PetTuple[], limit: number): PetPage {
  const pets = rows.slice(0, limit).map(toPet);
  return rows.length > limit ? { pets, next: pets[pets.length - 1]!.id } : { pets };
}

/** A row as SQLite returns it: integers are numbers. */
type SqlitePetRow = [id: number, name: string, categoryId: number, status: string, version: number];

/** A pet to insert and the events to record with it. */
type Create = { draft: PetDraft; events: readonly PetChangeEvent[] };

/** Each status's one string, so that kept rows share it. */
const STATUS_STRINGS = new Map<string, string>(PET_STATUSES.map((status) => [status, status]));

/**
 * A row to keep: better-sqlite3's row arrays have room for 17 values and a status string of their own, about 245
 * bytes a row; a copy of exactly five values sharing the status string takes half that.
 */
const keptRow = (row: SqlitePetRow): SqlitePetRow => [row[0], row[1], row[2], STATUS_STRINGS.get(row[3]) ?? row[3], row[4]];

/** The pet statements, the same on both databases, in the PetRepository's terms (it translates their errors). */
export interface PetStatements {
  /** Inserts the pet and its events (see PetRepository.create). */
  insert(draft: PetDraft, events: readonly PetChangeEvent[]): Promise<Pet>;
  findById(id: number): Promise<Pet | undefined>;
  /** A page of at most `limit` pets (see PetRepository.list). */
  list(status: PetStatus | undefined, after: number, limit: number): Promise<PetPage>;
  /** The pet after the change, or undefined when refused (see PetRepository.update) or there is no such pet. */
  update(id: number, expectedVersion: number, next: PetDraft, timing: ChangeTiming, events: readonly PetChangeEvent[]): Promise<Pet | undefined>;
  /** Only while listing rows are kept (SQLite): see PetRepository.listingRevision. */
  listingRevision?(): Promise<number | undefined>;
}

/**
 * The pet statements for a DataSource, prepared on its connection the first time they run. Without an observer
 * they run as they are, with no indirection on the hot path. `keptListingRows` (SQLite only) keeps up to that many
 * rows of the listings in memory (ListingRuns), for as long as nothing changes them.
 */
export function petStatements(dataSource: DataSource, observer?: StatementObserver, keptListingRows = 0): PetStatements {
  if (dialectOf(dataSource) === 'postgres') return postgresStatements(dataSource);
  const statements = sqliteStatements(dataSource, keptListingRows);
  return observer ? observedStatements(statements, observer, SQLITE_SQL) : statements;
}

/** Each statement handed to the observer with its SQL text; an insert's covers the wait for its group commit. */
function observedStatements(statements: PetStatements, observer: StatementObserver, text: ReturnType<typeof sql>): PetStatements {
  return {
    insert: (draft, events) => observer.statement(text.insert, () => statements.insert(draft, events)),
    findById: (id) => observer.statement(text.findById, () => statements.findById(id)),
    list: (status, after, limit) =>
      observer.statement(status === undefined ? text.listAll : text.listByStatus, () => statements.list(status, after, limit)),
    update: (id, expectedVersion, next, timing, events) =>
      observer.statement(text.update, () => statements.update(id, expectedVersion, next, timing, events)),
    ...(statements.listingRevision && { listingRevision: statements.listingRevision }),
  };
}

/** The columns of a PetTuple, in its order. */
export const PET_COLUMNS = '"id", "name", "category_id", "status", "version"';
const EVENT_COLUMNS =
  '"id", "type", "at_ms", "pet_id", "name", "category_id", "status", "version", "before_name", "before_category_id", "before_status"';

/**
 * The statements' text, with `p(n)` for the n-th parameter and `limit(n)` for a parameter that is a page's LIMIT.
 * SQLite (measured on 3.53, bundled by better-sqlite3 12) compiles a bare bound LIMIT into the statement as its value, so it
 * re-prepares the statement whenever that parameter is bound again, which is every read: about a sixth of a page's
 * read (docs/performance.md). `CAST(? AS INTEGER)` is an expression it evaluates at run time instead.
 */
function sql(p: (position: number) => string, limit: (position: number) => string = p) {
  return {
    insert: `INSERT INTO "pets" ("name", "category_id", "status") VALUES (${p(1)}, ${p(2)}, ${p(3)}) RETURNING "id"`,
    findById: `SELECT ${PET_COLUMNS} FROM "pets" WHERE "id" = ${p(1)}`,
    // Keyset pagination: one extra row tells whether a next page exists. Both are index range scans, so a page
    // costs the same at any depth and any table size.
    listAll: `SELECT ${PET_COLUMNS} FROM "pets" WHERE "id" > ${p(1)} ORDER BY "id" LIMIT ${limit(2)}`,
    listByStatus: `SELECT ${PET_COLUMNS} FROM "pets" WHERE "status" = ${p(1)} AND "id" > ${p(2)} ORDER BY "id" LIMIT ${limit(3)}`,
    // Compare-and-set on the version: of concurrent updates from one version, the database lets exactly one through.
    // A status change is refused too when the status changed after the request arrived; it records when it did.
    update:
      `UPDATE "pets" SET "name" = ${p(1)}, "category_id" = ${p(2)}, "status" = ${p(3)}, "version" = "version" + 1, ` +
      `"status_changed_at_ms" = CASE WHEN "status" = ${p(4)} THEN "status_changed_at_ms" ELSE ${p(5)} END ` +
      `WHERE "id" = ${p(6)} AND "version" = ${p(7)} AND ("status" = ${p(8)} OR "status_changed_at_ms" <= ${p(9)}) RETURNING ${PET_COLUMNS}`,
    // The event of a change, written in the change's transaction (the outbox the webhook deliveries read).
    recordEvent: `INSERT INTO "pet_events" (${EVENT_COLUMNS}) VALUES (${Array.from({ length: 11 }, (_, i) => p(i + 1)).join(', ')})`,
  };
}

/** The update's parameters, in the order of its text. */
const updateValues = (id: number, expectedVersion: number, { name, categoryId, status }: PetDraft, { at, requestedAt }: ChangeTiming) =>
  [name, categoryId, status, status, at, id, expectedVersion, status, requestedAt] as const;

const SQLITE_SQL = sql(
  () => '?',
  () => 'CAST(? AS INTEGER)',
);

/**
 * `read` made once for every caller of one turn of the event loop, in the turn's check phase (`setImmediate`), after
 * the turn's I/O callbacks: so after every caller asked, and as fresh as each needs. SQLite's `data_version` costs
 * three system calls (two locks and a stat), which a request that reads nothing else pays alone; here a turn's
 * requests share them. `justRead()` is true from the read until its callers' promise reactions have run (an
 * immediate queued right behind the read: the check phase runs the microtasks between the two, and no I/O), so
 * every request the process knows of then was received before the read, which is as fresh as each of them needs.
 */
function oneReadPerTurn<T>(read: () => T): { next: () => Promise<T>; justRead: () => boolean } {
  let pending: Promise<T> | undefined;
  let justRead = false;
  return {
    next: () =>
      (pending ??= new Promise<T>((resolve, reject) => {
        setImmediate(() => {
          pending = undefined;
          try {
            resolve(read());
            justRead = true;
          } catch (error) {
            reject(error);
          }
        });
        setImmediate(() => (justRead = false));
      })),
    justRead: () => justRead,
  };
}

/**
 * better-sqlite3 statements prepared once on TypeORM's connection. Inserts use group commit: the creates that reach
 * the repository in one turn of the event loop are written in one transaction, so under load a commit (the costly
 * part of a write) is shared by many requests, and each caller still resolves only after its row is committed.
 *
 * With `keptListingRows`, pages are served from stretches of the listings kept in memory (ListingRuns). What is
 * kept is exactly what the database holds because every statement here is synchronous and every change to a pet
 * goes through them: an update or a committed batch of inserts brings the stretches holding the pet's id up to date
 * with the row as the database returns it, before anything else runs; a commit by another connection (another
 * process on the same file) changes SQLite's `data_version`, read before every page (or by the turn's read just
 * before it: oneReadPerTurn), and drops everything; and nothing read inside a transaction opened through TypeORM (whose changes may still roll back) is
 * kept.
 */
function sqliteStatements(dataSource: DataSource, keptListingRows: number): PetStatements {
  const text = SQLITE_SQL;
  type Prepared = {
    db: Database;
    findById: Statement;
    listAll: Statement;
    listByStatus: Statement;
    insertMany: (creates: Create[]) => SqlitePetRow[];
    dataVersion: Statement;
    kept: { runs: ListingRuns<SqlitePetRow>; dataVersion: unknown } | undefined;
    update: (id: number, expectedVersion: number, next: PetDraft, timing: ChangeTiming, events: readonly PetChangeEvent[]) => PetTuple | undefined;
  };
  // One set of kept runs for the repository's life, so that its revision never comes back to an earlier value. A
  // listing is named by its status, or '' for all pets.
  const runs =
    keptListingRows > 0 ? new ListingRuns<SqlitePetRow>(keptListingRows, (listing, row) => listing === '' || listing === row[3]) : undefined;
  let prepared: Prepared | undefined;
  const statements = (): Prepared => {
    const db = sqliteConnectionOf(dataSource);
    if (!db) throw new ServiceUnavailableError('database');
    // Prepared again only if the DataSource was re-initialized with a new connection.
    if (prepared?.db !== db) {
      const insert = db.prepare(text.insert).pluck();
      const findById = db.prepare(text.findById).raw();
      const update = db.prepare(text.update).raw();
      const recordEvent = db.prepare(text.recordEvent);
      const record = (events: readonly PetChangeEvent[], row: PetTuple, at: number) => {
        for (const { type, before } of events)
          recordEvent.run(generateEventId(new Date(at)), type, at, ...row, before?.name ?? null, before?.categoryId ?? null, before?.status ?? null);
      };
      prepared = {
        db,
        findById,
        listAll: db.prepare(text.listAll).raw(),
        listByStatus: db.prepare(text.listByStatus).raw(),
        // IMMEDIATE takes the write lock up front, so the transaction cannot fail half-way on SQLITE_BUSY.
        insertMany: db.transaction((creates: Create[]) => {
          const at = Date.now();
          return creates.map(({ draft: { name, categoryId, status }, events }) => {
            // As the database holds it, for the kept runs.
            const row = findById.get(insert.get(name, categoryId, status)) as SqlitePetRow;
            record(events, row, at);
            return row;
          });
        }).immediate,
        update: db.transaction((id: number, expectedVersion: number, next: PetDraft, timing: ChangeTiming, events: readonly PetChangeEvent[]) => {
          // Dated once the write lock is held: after every change that held it before, before this one commits.
          const at = Math.max(timing.at, Date.now());
          const row = update.get(...updateValues(id, expectedVersion, next, { at, requestedAt: timing.requestedAt })) as PetTuple | undefined;
          if (row) record(events, row, at);
          return row;
        }).immediate,
        dataVersion: db.prepare('PRAGMA data_version').pluck(),
        kept: runs && { runs, dataVersion: undefined },
      };
      runs?.clear();
    }
    return prepared;
  };

  // TypeORM runs everything on this one connection, so a transaction opened through TypeORM (by an embedder's
  // `dataSource.transaction()`) may be open between two of its statements. A batch started then would become a
  // savepoint of that transaction, and its rollback would undo pets already answered 201: the batch waits for it
  // to end instead (looking again every millisecond), as long as SQLite would wait for another process's lock.
  const lockTimeoutMs = (dataSource.options as { timeout?: number }).timeout ?? 5_000;
  let batch: (Create & { resolve: (pet: Pet) => void; reject: (error: unknown) => void })[] = [];
  let waitingSince: number | undefined;
  const commitBatch = () => {
    const pending = batch;
    try {
      const { db, insertMany, kept } = statements();
      if (db.inTransaction) {
        waitingSince ??= Date.now();
        if (Date.now() - waitingSince < lockTimeoutMs) return void setTimeout(commitBatch, 1);
        throw new ServiceUnavailableError('database', 5, { cause: new Error('a transaction opened through TypeORM stayed open') });
      }
      waitingSince = undefined;
      batch = [];
      const rows = insertMany(pending);
      for (const row of rows) kept?.runs.changed(keptRow(row));
      pending.forEach((p, i) => p.resolve(toPet(rows[i]!)));
    } catch (error) {
      waitingSince = undefined;
      batch = [];
      for (const p of pending) p.reject(error);
    }
  };

  /**
   * The kept runs, first made as current as the file (another connection's commit drops them all), unless the
   * turn's `data_version` read has just done so; undefined while none may be used.
   */
  const currentRuns = (prepared: Prepared): ListingRuns<SqlitePetRow> | undefined => {
    const { kept, db } = prepared;
    if (!kept || db.inTransaction) return undefined;
    if (revisionPerTurn?.justRead()) return kept.runs;
    const dataVersion = prepared.dataVersion.get();
    if (dataVersion !== kept.dataVersion) {
      kept.runs.clear();
      kept.dataVersion = dataVersion;
    }
    return kept.runs;
  };
  // Every change to a pet is reported to the kept runs (or clears them), so their revision is the listings'.
  const revisionPerTurn = runs && oneReadPerTurn(() => currentRuns(statements())?.revision);

  return {
    insert: (draft, events) =>
      new Promise<Pet>((resolve, reject) => {
        if (batch.length === 0) setImmediate(commitBatch);
        batch.push({ draft, events, resolve, reject });
      }),
    findById: async (id) => {
      const row = statements().findById.get(id) as PetTuple | undefined;
      return row && toPet(row);
    },
    list: async (status, after, limit) => {
      const prepared = statements();
      const read = (from: number, rows: number) =>
        (status === undefined ? prepared.listAll.all(from, rows) : prepared.listByStatus.all(status, from, rows)) as SqlitePetRow[];
      const runs = currentRuns(prepared);
      const rows = runs ? runs.page(status ?? '', after, limit + 1, (from, count) => read(from, count).map(keptRow)) : read(after, limit + 1);
      return pageOf(rows, limit);
    },
    ...(revisionPerTurn && { listingRevision: revisionPerTurn.next }),
    update: async (id, expectedVersion, next, timing, events) => {
      // Like a batch of inserts, an update waits for a transaction opened through TypeORM to end rather than join it.
      for (const since = Date.now(); statements().db.inTransaction; await new Promise((resolve) => setTimeout(resolve, 1))) {
        if (Date.now() - since >= lockTimeoutMs)
          throw new ServiceUnavailableError('database', 5, { cause: new Error('a transaction opened through TypeORM stayed open') });
      }
      const { update, kept } = statements();
      const row = update(id, expectedVersion, next, timing, events);
      if (!row) return undefined;
      kept?.runs.changed(keptRow(row as SqlitePetRow));
      return toPet(row);
    },
  };
}

/**
 * Named (server-side prepared) queries on TypeORM's pg pool, returning positional rows; unnamed behind a transaction
 * pooler, where a statement prepared on one server connection is unknown on the next. The insert carries a
 * deadline that PostgreSQL checks on its own clock: started late (the server stalled with the insert queued), it
 * inserts nothing, so a create that timed out on the client (503) never appears later. Pages are read together, one
 * statement for the pages asked for in a turn of the event loop (postgresPageReads.ts).
 */
function postgresStatements(dataSource: DataSource): PetStatements {
  const plain = sql((n) => `$${n}`);
  // Each change and its events are one statement (data-modifying WITH), so one round trip and one transaction. The
  // events come as five arrays from parameter `first` on (eventValues), and each is dated by PostgreSQL's clock as
  // the change writes ("at"), its id made of that date and a suffix from eventIdSuffix.
  const events = (first: number) =>
    `SELECT 'evt_' || lpad(to_hex("at"), 12, '0') || "suffix", "type", "at", ${PET_COLUMNS}, "before_name", "before_category_id", "before_status" ` +
    `FROM unnest($${first}::text[], $${first + 1}::text[], $${first + 2}::text[], $${first + 3}::bigint[], $${first + 4}::text[]) ` +
    `AS "e"("suffix", "type", "before_name", "before_category_id", "before_status")`;
  const now = '(extract(epoch from clock_timestamp()) * 1000)::bigint';
  const text = {
    ...plain,
    insert:
      `WITH "created" AS (INSERT INTO "pets" ("name", "category_id", "status") SELECT $1::text, $2::bigint, $3::text ` +
      `WHERE ${beforeDeadline('$4')} RETURNING ${PET_COLUMNS}, ${now} AS "at"), ` +
      `"recorded" AS (INSERT INTO "pet_events" (${EVENT_COLUMNS}) ${events(5)}, "created") ` +
      'SELECT "id" FROM "created"',
    // The change first holds the pet's row ("locked", FOR UPDATE) and only then reads the clock ("stamp"): a change
    // that waited for the row (another writer held it) is dated after the wait, as it commits, so a request that
    // arrived while it waited counts as overtaken. The clock is read in "stamp" because an expression of the locking
    // SELECT itself is evaluated before its wait.
    update:
      `WITH "locked" AS (SELECT "id" FROM "pets" WHERE "id" = $6 AND "version" = $7 FOR UPDATE), ` +
      `"stamp" AS MATERIALIZED (SELECT GREATEST($5::bigint, ${now}) AS "at" FROM "locked"), ` +
      `"changed" AS (UPDATE "pets" SET "name" = $1, "category_id" = $2, "status" = $3, "version" = "version" + 1, ` +
      `"status_changed_at_ms" = CASE WHEN "status" = $4 THEN "status_changed_at_ms" ELSE "stamp"."at" END FROM "stamp" ` +
      `WHERE "id" = $6 AND "version" = $7 AND ("status" = $8 OR "status_changed_at_ms" <= $9) AND ${beforeDeadline('$10')} ` +
      `RETURNING ${PET_COLUMNS}, "at"), ` +
      `"recorded" AS (INSERT INTO "pet_events" (${EVENT_COLUMNS}) ${events(11)}, "changed") ` +
      `SELECT ${PET_COLUMNS} FROM "changed"`,
    listPages: pageReadsSql(PET_COLUMNS),
  };
  const named = !timeoutsPerTransaction(dataSource);
  const rows = async <Row extends unknown[] = PetTuple>(name: string, query: string, values: unknown[]) =>
    (await postgresPoolOf(dataSource).query<Row>({ name: named ? `petstore_${name}` : undefined, text: query, values, rowMode: 'array' })).rows;
  const readPage = pageReadsPerTurn((values) => rows<NumberedPetRow>('list_pages', text.listPages, values));
  return {
    insert: async ({ name, categoryId, status }, events) => {
      const values = [name, categoryId, status, writeDeadline(dataSource), ...eventValues(events)];
      const [row] = await rows<[id: string]>('insert_with_events', text.insert, values);
      if (!row)
        throw new ServiceUnavailableError('database', 5, {
          cause: new Error('PostgreSQL started the insert after its deadline: nothing was stored'),
        });
      return { id: toSafeInteger(row[0]), name, categoryId, status, version: 1 };
    },
    findById: async (id) => {
      const [row] = await rows('find_by_id', text.findById, [id]);
      return row && toPet(row);
    },
    list: async (status, after, limit) => pageOf(await readPage(status, after, limit + 1), limit),
    update: async (id, expectedVersion, next, timing, events) => {
      const deadline = writeDeadline(dataSource);
      const values = [...updateValues(id, expectedVersion, next, timing), deadline, ...eventValues(events)];
      const [row] = await rows('update_with_events', text.update, values);
      // No row: another change came first, or PostgreSQL started the update after its deadline and changed nothing.
      if (!row && Date.now() >= deadline)
        throw new ServiceUnavailableError('database', 5, {
          cause: new Error('PostgreSQL may have started the update after its deadline: nothing was changed'),
        });
      return row && toPet(row);
    },
  };
}

/** Events as the five arrays the PostgreSQL statements unnest: id suffixes, types and the fields before. */
const eventValues = (events: readonly PetChangeEvent[]) => [
  events.map(() => eventIdSuffix()),
  events.map((event) => event.type),
  events.map((event) => event.before?.name ?? null),
  events.map((event) => event.before?.categoryId ?? null),
  events.map((event) => event.before?.status ?? null),
];

/**
 * Throws unless a write could start on SQLite now, without waiting: reads alone succeed under WAL even while
 * another process holds the write lock and every write would time out.
 */
export function assertSqliteWritable(dataSource: DataSource): void {
  const db = sqliteConnectionOf(dataSource);
  if (!db) throw new Error('SQLite connection is not open');
  const busyTimeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    db.exec('BEGIN IMMEDIATE; ROLLBACK');
  } finally {
    db.pragma(`busy_timeout = ${busyTimeout}`);
  }
}
