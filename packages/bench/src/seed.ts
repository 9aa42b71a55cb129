import Database from 'better-sqlite3';
import pg from 'pg';
import { cli } from './processes.js';

const STATUSES = ['available', 'pending', 'sold'] as const;

/** Creates the schema through the real CLI, then inserts `count` pets in bulk (one transaction, one prepared statement). */
export async function seedSqlite(path: string, count: number): Promise<void> {
  await cli(['migrate'], `sqlite:${path}`);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  const insert = db.prepare('INSERT INTO "pets" ("name", "category_id", "status") VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let i = 1; i <= count; i++) insert.run(`pet ${i}`, 1 + (i % 50), STATUSES[i % 3]);
  })();
  db.close();
}

export async function seedPostgres(url: string, count: number): Promise<void> {
  await cli(['migrate'], url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(
    `INSERT INTO "pets" ("name", "category_id", "status") SELECT 'pet ' || i, 1 + i % 50, (ARRAY['available','pending','sold'])[1 + i % 3] FROM generate_series(1, $1::int) AS i`,
    [count],
  );
  await client.query('ANALYZE "pets"');
  await client.end();
}

/** An Enterprise key whose limits never interfere with the load. */
export function benchKey(databaseUrl: string): Promise<string> {
  return cli(['keys', 'create', '--plan', 'enterprise', '--name', 'bench', '--per-minute', '1000000000', '--per-day', '1000000000000'], databaseUrl);
}
