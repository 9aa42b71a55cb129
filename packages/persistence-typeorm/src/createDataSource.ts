import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import 'reflect-metadata';
import type pg from 'pg';
import { DataSource } from 'typeorm';
import { betterSqlite3 } from './betterSqlite3.js';
import { parseDatabaseUrl } from './databaseUrl.js';
import { migrations } from './migrations/index.js';
import { petstoreEntities } from './schemas/index.js';
import { clientWithTimeoutsPerTransaction } from './transactionPooling.js';
import { clientTimeoutFor } from './writeDeadline.js';

/** SQLite's `synchronous` pragma in WAL mode: NORMAL survives a killed process; FULL also a power loss or OS crash. */
export const SQLITE_SYNCHRONOUS_MODES = ['NORMAL', 'FULL'] as const;
export type SqliteSynchronous = (typeof SQLITE_SYNCHRONOUS_MODES)[number];

/**
 * How PostgreSQL is reached: `session`, a connection of its own per pooled client (directly, or a pooler in session
 * mode); `transaction`, through a transaction pooler (PgBouncer's `pool_mode = transaction`), where nothing may
 * outlive a transaction on a server connection.
 */
export const DATABASE_POOL_MODES = ['session', 'transaction'] as const;
export type DatabasePoolMode = (typeof DATABASE_POOL_MODES)[number];

export interface DataSourceSettings {
  /** Milliseconds a statement may wait for a lock (SQLite busy timeout) or run (PostgreSQL statement_timeout). */
  statementTimeoutMs?: number;
  /** PostgreSQL pool size per process. */
  poolSize?: number;
  /**
   * SQLite only, default NORMAL: a committed transaction survives a killed process, but the last ones can be lost on
   * a power loss or OS crash. FULL syncs the WAL on every commit, which survives those too, at a few times the
   * cost of each commit.
   */
  sqliteSynchronous?: SqliteSynchronous;
  /**
   * PostgreSQL only, default `session`: named prepared statements and the timeouts set once per connection.
   * `transaction`: unnamed statements, the timeouts set in every transaction (transactionPooling.ts).
   */
  poolMode?: DatabasePoolMode;
}

/**
 * pg's Pool, except that every client it creates listens for 'error' from the start. pg emits 'error' on a connected
 * client that is between queries when the server drops it (`terminating connection due to administrator command`
 * when PostgreSQL stops), and an 'error' nobody listens to ends the process. The pool listens while a client is idle,
 * and TypeORM once its query runner holds it, but not in the moment between (a promise's turn), when a client that
 * the pool has just handed out is dropped: found by the soak's PostgreSQL outage, which crashed an instance. The
 * error itself needs no handling here: the next query on that client fails and is translated as usual.
 */
function pgWithListeningClients(pgModule: typeof pg): typeof pg {
  class PoolOfListeningClients extends pgModule.Pool {
    constructor(options?: pg.PoolConfig) {
      super(options);
      this.on('connect', (client) => client.on('error', () => undefined));
    }
  }
  /** The pg module with that Pool, for TypeORM's documented `driver` option. */
  return Object.assign(Object.create(pgModule) as typeof pg, { Pool: PoolOfListeningClients });
}

/**
 * A TypeORM DataSource (not yet initialized) for a DATABASE_URL: `sqlite:<path>` or `sqlite::memory:` (better-sqlite3,
 * WAL, synchronous=NORMAL unless set to FULL, foreign keys on, busy timeout) or `postgres://...` (pg, with connect and statement
 * timeouts so a request never hangs on a dead server, set per connection or, behind a transaction pooler, per
 * transaction). Schema changes come from migrations only.
 */
export function createDataSource(databaseUrl: string, settings: DataSourceSettings = {}): DataSource {
  const target = parseDatabaseUrl(databaseUrl);
  const timeout = settings.statementTimeoutMs ?? 5_000;
  const common = { entities: petstoreEntities(target.kind), migrations, synchronize: false, logging: false };

  if (target.kind === 'sqlite') {
    if (target.path !== ':memory:') mkdirSync(dirname(target.path), { recursive: true });
    return new DataSource({
      ...common,
      type: 'better-sqlite3',
      driver: betterSqlite3(),
      database: target.path,
      enableWAL: true,
      timeout,
      statementCacheSize: 200,
      prepareDatabase: (db: { pragma(source: string): unknown }) => {
        db.pragma(`synchronous = ${settings.sqliteSynchronous ?? 'NORMAL'}`);
      },
    });
  }
  // Loaded here rather than imported, so that a server on SQLite never holds pg (docs/performance.md).
  const pgModule = createRequire(import.meta.url)('pg') as typeof pg;
  return new DataSource({
    ...common,
    type: 'postgres',
    driver: pgWithListeningClients(pgModule),
    url: target.url,
    connectTimeoutMS: timeout,
    poolSize: settings.poolSize ?? 10,
    extra: {
      // query_timeout is long enough that a write the client gave up on can no longer take effect (writeDeadline.ts).
      statement_timeout: timeout,
      query_timeout: clientTimeoutFor(timeout),
      idle_in_transaction_session_timeout: timeout * 2,
      ...(settings.poolMode === 'transaction' && { Client: clientWithTimeoutsPerTransaction(pgModule) }),
    },
  });
}
