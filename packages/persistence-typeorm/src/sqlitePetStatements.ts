// The pet statements on SQLite: better-sqlite3 statements prepared once on TypeORM's connection
// (driverConnections.ts), group-committed inserts, kept listing rows, and the readiness probe, which must not wait
// for the lock (only the connection's own busy timeout can say that).
import { generateEventId, ServiceUnavailableError, type ChangeTiming, type Pet, type PetChangeEvent, type PetDraft } from '@petstore/core';
import type { Database, Statement } from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import { sqliteConnectionOf } from './driverConnections.js';
import { ListingRuns } from './ListingRuns.js';
import { pageOf, petStatementSql, updateValues, type Create, type PetStatements } from './PetStatements.js';
import { beforeValues, fieldValues, keptRow, STATUS_POSITION, toPet, type PetTuple } from './petRows.js';

/** A row as SQLite returns it: integers are numbers. */
type SqlitePetRow = [id: number, ...fieldsAndVersion: unknown[]];

export const SQLITE_SQL = petStatementSql(
  () => '?',
  () => 'CAST(? AS INTEGER)',
);

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
export function sqlitePetStatements(dataSource: DataSource, keptListingRows: number): PetStatements {
  const statements = preparedOn(dataSource, () => kept?.forget());
  // One set of kept runs for the repository's life, so that its revision never comes back to an earlier value.
  const kept = keptListingRows > 0 ? keptListings(keptListingRows, statements) : undefined;
  const lockTimeoutMs = lockTimeoutOf(dataSource);
  return {
    insert: groupCommit(statements, lockTimeoutMs, kept),
    findById: async (id) => {
      const row = statements().reads.findById.get(id) as PetTuple | undefined;
      return row && toPet(row);
    },
    list: async (status, after, limit) => {
      const prepared = statements();
      const { listAll, listByStatus } = prepared.reads;
      const read = (from: number, rows: number) =>
        (status === undefined ? listAll.all(from, rows) : listByStatus.all(status, from, rows)) as SqlitePetRow[];
      const runs = kept?.current(prepared);
      const rows = runs ? runs.page(status ?? '', after, limit + 1, (from, count) => read(from, count).map(keptRow)) : read(after, limit + 1);
      return pageOf(rows, limit);
    },
    ...(kept && { listingRevision: kept.revision }),
    update: async (id, expectedVersion, next, timing, events) => {
      // Like a batch of inserts, an update waits for a transaction opened through TypeORM to end rather than join it.
      for (const since = Date.now(); statements().db.inTransaction; await new Promise((resolve) => setTimeout(resolve, 1))) {
        if (Date.now() - since >= lockTimeoutMs) throw typeOrmTransactionStayedOpen();
      }
      const row = statements().writes.update(id, expectedVersion, next, timing, events);
      if (!row) return undefined;
      kept?.runs.changed(keptRow(row));
      return toPet(row);
    },
  };
}

/** The statements prepared on one connection. */
interface Prepared {
  db: Database;
  reads: ReturnType<typeof prepareReads>;
  writes: ReturnType<typeof prepareWrites>;
}

/**
 * The statements of TypeORM's connection, prepared the first time they run and again only if the DataSource was
 * re-initialized with a new connection (then `onNewConnection` runs: nothing kept from the old one holds).
 */
function preparedOn(dataSource: DataSource, onNewConnection: () => void): () => Prepared {
  let prepared: Prepared | undefined;
  return () => {
    const db = sqliteConnectionOf(dataSource);
    if (!db) throw new ServiceUnavailableError('database');
    if (prepared?.db !== db) {
      const reads = prepareReads(db);
      prepared = { db, reads, writes: prepareWrites(db, reads.findById) };
      onNewConnection();
    }
    return prepared;
  };
}

/** The reads: a pet, a page of each listing, and the file's `data_version` (another connection's commit changes it). */
function prepareReads(db: Database) {
  return {
    findById: db.prepare(SQLITE_SQL.findById).raw(),
    listAll: db.prepare(SQLITE_SQL.listAll).raw(),
    listByStatus: db.prepare(SQLITE_SQL.listByStatus).raw(),
    dataVersion: db.prepare('PRAGMA data_version').pluck(),
  };
}

/**
 * The writes, each a transaction with its events. IMMEDIATE takes the write lock up front, so the transaction cannot
 * fail half-way on SQLITE_BUSY. Each answers the rows as the database holds them, for the kept runs.
 */
function prepareWrites(db: Database, findById: Statement) {
  const insert = db.prepare(SQLITE_SQL.insert).pluck();
  const update = db.prepare(SQLITE_SQL.update).raw();
  const record = prepareEventRecords(db);
  return {
    insertMany: db.transaction((creates: Create[]) => {
      const at = Date.now();
      return creates.map(({ draft, events }) => {
        const row = findById.get(insert.get(...fieldValues(draft))) as SqlitePetRow;
        record(events, row, at);
        return row;
      });
    }).immediate,
    update: db.transaction((id: number, expectedVersion: number, next: PetDraft, timing: ChangeTiming, events: readonly PetChangeEvent[]) => {
      // Dated once the write lock is held: after every change that held it before, before this one commits.
      const at = Math.max(timing.at, Date.now());
      const row = update.get(...updateValues(id, expectedVersion, next, { at, requestedAt: timing.requestedAt })) as SqlitePetRow | undefined;
      if (row) record(events, row, at);
      return row;
    }).immediate,
  };
}

/** Records a change's events, with the pet as the change left it (`row`), in the change's transaction. */
function prepareEventRecords(db: Database) {
  const recordEvent = db.prepare(SQLITE_SQL.recordEvent);
  return (events: readonly PetChangeEvent[], row: PetTuple, at: number) => {
    for (const event of events) recordEvent.run(generateEventId(new Date(at)), event.type, at, ...row, ...beforeValues(event));
  };
}

/**
 * How long a write waits for a transaction opened through TypeORM to end: as long as SQLite would wait for another
 * process's lock. TypeORM runs everything on this one connection, so a transaction opened through TypeORM (by an
 * embedder's `dataSource.transaction()`) may be open between two of its statements. A batch started then would
 * become a savepoint of that transaction, and its rollback would undo pets already answered 201.
 */
function lockTimeoutOf(dataSource: DataSource): number {
  return (dataSource.options as { timeout?: number }).timeout ?? 5_000;
}

const typeOrmTransactionStayedOpen = () =>
  new ServiceUnavailableError('database', 5, { cause: new Error('a transaction opened through TypeORM stayed open') });

/**
 * Inserts by group commit: the creates of one turn of the event loop are written in one transaction, in the turn's
 * check phase; each caller resolves once its row is committed. A batch waits for a transaction opened through
 * TypeORM to end (looking again every millisecond), up to `lockTimeoutMs`.
 */
function groupCommit(statements: () => Prepared, lockTimeoutMs: number, kept: KeptListings | undefined): PetStatements['insert'] {
  let batch: (Create & { resolve: (pet: Pet) => void; reject: (error: unknown) => void })[] = [];
  let waitingSince: number | undefined;
  const commitBatch = () => {
    const pending = batch;
    try {
      const { db, writes } = statements();
      if (db.inTransaction) {
        waitingSince ??= Date.now();
        if (Date.now() - waitingSince < lockTimeoutMs) return void setTimeout(commitBatch, 1);
        throw typeOrmTransactionStayedOpen();
      }
      waitingSince = undefined;
      batch = [];
      const rows = writes.insertMany(pending);
      for (const row of rows) kept?.runs.changed(keptRow(row));
      pending.forEach((p, i) => p.resolve(toPet(rows[i]!)));
    } catch (error) {
      waitingSince = undefined;
      batch = [];
      for (const p of pending) p.reject(error);
    }
  };
  return (draft, events) =>
    new Promise<Pet>((resolve, reject) => {
      if (batch.length === 0) setImmediate(commitBatch);
      batch.push({ draft, events, resolve, reject });
    });
}

/** The listings' rows kept in memory (ListingRuns), and the `data_version` they hold for. */
interface KeptListings {
  runs: ListingRuns<SqlitePetRow>;
  /**
   * The runs, first made as current as the file (another connection's commit drops them all), unless the turn's
   * `data_version` read has just done so; undefined while none may be used (inside a TypeORM transaction).
   */
  current(prepared: Prepared): ListingRuns<SqlitePetRow> | undefined;
  /** The runs' revision, read once a turn (oneReadPerTurn): see PetRepository.listingRevision. */
  revision(): Promise<number | undefined>;
  /** Drops everything: the connection is new. */
  forget(): void;
}

/**
 * Up to `maxRows` rows of the listings (named by their status, or '' for all pets). Every change to a pet is
 * reported to the runs (or clears them), so their revision is the listings'; another connection's commit changes
 * `data_version` and drops them all.
 */
function keptListings(maxRows: number, statements: () => Prepared): KeptListings {
  const runs = new ListingRuns<SqlitePetRow>(maxRows, (listing, row) => listing === '' || listing === row[STATUS_POSITION]);
  let dataVersion: unknown;
  const current = ({ db, reads }: Prepared) => {
    if (db.inTransaction) return undefined;
    if (perTurn.justRead()) return runs;
    const now = reads.dataVersion.get();
    if (now !== dataVersion) {
      runs.clear();
      dataVersion = now;
    }
    return runs;
  };
  const perTurn = oneReadPerTurn(() => current(statements())?.revision);
  return {
    runs,
    current,
    revision: perTurn.next,
    forget: () => {
      runs.clear();
      dataVersion = undefined;
    },
  };
}

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
