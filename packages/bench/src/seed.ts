import { copyFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { issueUnlimitedKeyWithCli, runCli } from '@petstore/test-support';

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
export const benchKey = issueUnlimitedKeyWithCli;

/** The database seeded for each pet count, with its bench key: made once per run, then copied. */
const seeded = new Map<number, Promise<{ path: string; key: string }>>();

/**
 * A SQLite file of `count` pets at `path` and its bench key: a copy of the one seeded for that count, since the
 * migration and the key each take a CLI run (a Node start) and a smoke run starts a dozen servers on 10,000 pets.
 */
export async function seededSqliteCopy(path: string, count: number): Promise<string> {
  let original = seeded.get(count);
  if (!original) {
    const originalPath = join(dirname(path), `seeded-${count}.db`);
    original = seedSqlite(originalPath, count).then(async () => ({ path: originalPath, key: await benchKey(`sqlite:${originalPath}`) }));
    seeded.set(count, original);
  }
  const { path: from, key } = await original;
  copyFileSync(from, path);
  return key;
}
