import {
  ServiceUnavailableError,
  type Pet,
  type PetDraft,
  type PetListRequest,
  type PetPage,
  type PetRepository,
  type PetStatus,
} from '@petstore/core';
import type { Database, Statement } from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import { dialectOf } from './dialect.js';
import { postgresPoolOf, sqliteConnectionOf } from './driverConnections.js';
import { toSafeInteger } from './schemas/safeInteger.js';
import { translateDatabaseError } from './translateDatabaseError.js';
import { beforeDeadline, writeDeadline } from './writeDeadline.js';

/** A row as `[id, name, category_id, status]`: positional rows skip building a keyed object per row. */
type PetTuple = [id: number | string, name: string, categoryId: number | string, status: string];

const COLUMNS = '"id", "name", "category_id", "status"';

function sql(p: (position: number) => string) {
  return {
    insert: `INSERT INTO "pets" ("name", "category_id", "status") VALUES (${p(1)}, ${p(2)}, ${p(3)}) RETURNING "id"`,
    findById: `SELECT ${COLUMNS} FROM "pets" WHERE "id" = ${p(1)}`,
    // Keyset pagination: one extra row tells whether a next page exists. Both are index range scans, so a page
    // costs the same at any depth and any table size.
    listAll: `SELECT ${COLUMNS} FROM "pets" WHERE "id" > ${p(1)} ORDER BY "id" LIMIT ${p(2)}`,
    listByStatus: `SELECT ${COLUMNS} FROM "pets" WHERE "status" = ${p(1)} AND "id" > ${p(2)} ORDER BY "id" LIMIT ${p(3)}`,
  };
}

function toPet(row: PetTuple): Pet {
  return { id: toSafeInteger(row[0]), name: row[1], categoryId: toSafeInteger(row[2]), status: row[3] as PetStatus };
}

/** The four statements the repository runs, per database. */
interface PetStatements {
  insert(draft: PetDraft): Promise<number | string>;
  findById(id: number): Promise<PetTuple | undefined>;
  list(status: PetStatus | undefined, after: number, count: number): Promise<PetTuple[]>;
}

/**
 * better-sqlite3 statements prepared once on TypeORM's connection. Inserts use group commit: the creates that reach
 * the repository in one turn of the event loop are written in one transaction, so under load a commit (the costly
 * part of a write) is shared by many requests, and each caller still resolves only after its row is committed.
 */
function sqliteStatements(dataSource: DataSource): PetStatements {
  const text = sql(() => '?');
  type Prepared = {
    db: Database;
    insert: Statement;
    findById: Statement;
    listAll: Statement;
    listByStatus: Statement;
    insertMany: (drafts: PetDraft[]) => number[];
  };
  let prepared: Prepared | undefined;
  const statements = (): Prepared => {
    const db = sqliteConnectionOf(dataSource);
    if (!db) throw new ServiceUnavailableError('database');
    // Prepared again only if the DataSource was re-initialized with a new connection.
    if (prepared?.db !== db) {
      const insert = db.prepare(text.insert).pluck();
      prepared = {
        db,
        insert,
        findById: db.prepare(text.findById).raw(),
        listAll: db.prepare(text.listAll).raw(),
        listByStatus: db.prepare(text.listByStatus).raw(),
        // IMMEDIATE takes the write lock up front, so the transaction cannot fail half-way on SQLITE_BUSY.
        insertMany: db.transaction((drafts: PetDraft[]) => drafts.map((d) => insert.get(d.name, d.categoryId, d.status) as number)).immediate,
      };
    }
    return prepared;
  };

  let batch: { draft: PetDraft; resolve: (id: number) => void; reject: (error: unknown) => void }[] = [];
  const commitBatch = () => {
    const pending = batch;
    batch = [];
    try {
      const ids = statements().insertMany(pending.map((p) => p.draft));
      pending.forEach((p, i) => p.resolve(ids[i]!));
    } catch (error) {
      for (const p of pending) p.reject(error);
    }
  };

  return {
    insert: (draft) =>
      new Promise<number>((resolve, reject) => {
        if (batch.length === 0) setImmediate(commitBatch);
        batch.push({ draft, resolve, reject });
      }),
    findById: async (id) => statements().findById.get(id) as PetTuple | undefined,
    list: async (status, after, count) =>
      (status === undefined ? statements().listAll.all(after, count) : statements().listByStatus.all(status, after, count)) as PetTuple[],
  };
}

/**
 * Named (server-side prepared) queries on TypeORM's pg pool, returning positional rows. The insert carries a
 * deadline that PostgreSQL checks on its own clock: started late (the server stalled with the insert queued), it
 * inserts nothing, so a create that timed out on the client (503) never appears later.
 */
function postgresStatements(dataSource: DataSource): PetStatements {
  const text = {
    ...sql((n) => `$${n}`),
    insert: `INSERT INTO "pets" ("name", "category_id", "status") SELECT $1::text, $2::bigint, $3::text WHERE ${beforeDeadline('$4')} RETURNING "id"`,
  };
  const rows = async (name: string, query: string, values: unknown[]) =>
    (await postgresPoolOf(dataSource).query<PetTuple>({ name: `petstore_${name}`, text: query, values, rowMode: 'array' })).rows;
  return {
    insert: async ({ name, categoryId, status }) => {
      const [row] = await rows('insert_before_deadline', text.insert, [name, categoryId, status, writeDeadline(dataSource)]);
      if (!row)
        throw new ServiceUnavailableError('database', 5, {
          cause: new Error('PostgreSQL started the insert after its deadline: nothing was stored'),
        });
      return row[0];
    },
    findById: async (id) => (await rows('find_by_id', text.findById, [id]))[0],
    list: (status, after, count) =>
      status === undefined ? rows('list_all', text.listAll, [after, count]) : rows('list_by_status', text.listByStatus, [status, after, count]),
  };
}

/**
 * PetRepository on a TypeORM DataSource (SQLite or PostgreSQL). The schema and connections are TypeORM's; the
 * three hot queries are prepared statements on its connection, mapped by hand from positional rows, because entity
 * hydration and a query runner per call would cost more than the query itself.
 */
export class TypeOrmPetRepository implements PetRepository {
  /**
   * SQLite has one writer, which assigns ids and commits them in order (group commit keeps that: one transaction per
   * batch, ids ascending within it). PostgreSQL hands out sequence values before commit, and transactions can
   * commit out of order.
   */
  readonly pagesWithSuccessorNeverChange: boolean;
  private readonly statements: PetStatements;

  constructor(dataSource: DataSource) {
    const postgres = dialectOf(dataSource) === 'postgres';
    this.pagesWithSuccessorNeverChange = !postgres;
    this.statements = postgres ? postgresStatements(dataSource) : sqliteStatements(dataSource);
  }

  async create(draft: PetDraft): Promise<Pet> {
    try {
      return { id: toSafeInteger(await this.statements.insert(draft)), ...draft };
    } catch (error) {
      translateDatabaseError(error);
    }
  }

  async findById(id: number): Promise<Pet | null> {
    let row: PetTuple | undefined;
    try {
      row = await this.statements.findById(id);
    } catch (error) {
      translateDatabaseError(error);
    }
    return row ? toPet(row) : null;
  }

  async list({ status, limit, after = 0 }: PetListRequest): Promise<PetPage> {
    let rows: PetTuple[];
    try {
      rows = await this.statements.list(status, after, limit + 1);
    } catch (error) {
      translateDatabaseError(error);
    }
    const pets = rows.slice(0, limit).map(toPet);
    return rows.length > limit ? { pets, next: pets[pets.length - 1]!.id } : { pets };
  }
}
