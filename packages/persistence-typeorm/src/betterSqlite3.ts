import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * The better-sqlite3 module this package runs SQLite on (13.x: prebuilt N-API binaries for Linux glibc and musl,
 * macOS and Windows on x64 and arm64, so an install compiles nothing), for TypeORM's `driver` option:
 * `new DataSource({ type: 'better-sqlite3', driver: betterSqlite3(), ... })`. TypeORM 1.x then never loads a
 * module named `better-sqlite3`, whose peer range (`^12`) it declares; this package depends on 13 under another name
 * (`better-sqlite3-driver`) so that neither npm nor pnpm matches the two. Loaded on the first call: a server on
 * PostgreSQL never holds it.
 */
export function betterSqlite3(): typeof BetterSqlite3 {
  return createRequire(import.meta.url)('better-sqlite3-driver') as typeof BetterSqlite3;
}
