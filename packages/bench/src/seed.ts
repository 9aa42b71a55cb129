import Database from 'better-sqlite3';
import pg from 'pg';
import { issueUnlimitedKey, runCli } from '@petstore/test-support';

const STATUSES = ['available', 'pending', 'sold'] as const;

async function migrateThroughCli(databaseUrl: string): Promise<void> {
  const result = await runCli(['migrate'], { DATABASE_URL: databaseUrl });
  if (result.code !== 0) throw new Error(`petstore migrate failed: ${result.stderr}`);
}

/** Creates the schema through the real CLI, then inserts `count` pets in bulk (one transaction, one prepared statement). */
export async function seedSqlite(path: string, count: number): Promise<void> {
  await migrateThroughCli(`sqlite:${path}`);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  const insert = db.prepare('INSERT INTO "pets" ("name", "category_id", "status") VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let i = 1; i <= count; i++) insert.run(`pet ${i}`, 1 + (i % 50), STATUSES[i % 3]);
  })();
  db.close();
}

export async function seedPostgres(url: string, count: number): Promise<void> {
  await migrateThroughCli(url);
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
export const benchKey = issueUnlimitedKey;
