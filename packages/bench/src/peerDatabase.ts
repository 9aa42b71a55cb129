// What the two SQLite peers share: the database, opened as a team would (WAL), and the statements their handlers
// run, prepared once.
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';

interface PeerKey {
  id: string;
  per_minute: number | null;
  per_day: number | null;
}

export interface PeerDatabase {
  /** The key whose secret is `bearer` (looked up by its SHA-256), unless unknown or revoked. */
  keyOf(bearer: string): PeerKey | undefined;
  /** Up to `limit` pets after the id `after`, with `status` if given, ascending by id. */
  pets(status: string | undefined, after: number, limit: number): { id: number }[];
  /** The pet with its new status; undefined when there is no such pet. */
  setStatus(id: number, status: string): unknown;
}

export function openPeerDatabase(path: string | undefined): PeerDatabase {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  const findKey = db.prepare('SELECT "id", "per_minute", "per_day" FROM "api_keys" WHERE "secret_hash" = ? AND "revoked_at_ms" IS NULL');
  const listAll = db.prepare('SELECT "id", "name", "category_id" AS "categoryId", "status" FROM "pets" WHERE "id" > ? ORDER BY "id" LIMIT ?');
  const listByStatus = db.prepare(
    'SELECT "id", "name", "category_id" AS "categoryId", "status" FROM "pets" WHERE "status" = ? AND "id" > ? ORDER BY "id" LIMIT ?',
  );
  const updateStatus = db.prepare('UPDATE "pets" SET "status" = ? WHERE "id" = ? RETURNING "id", "name", "category_id" AS "categoryId", "status"');
  return {
    keyOf: (bearer) => findKey.get(createHash('sha256').update(bearer).digest('hex')) as PeerKey | undefined,
    pets: (status, after, limit) => (status ? listByStatus.all(status, after, limit) : listAll.all(after, limit)) as { id: number }[],
    setStatus: (id, status) => updateStatus.get(status, id),
  };
}
