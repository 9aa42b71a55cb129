import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  eventually,
  issueUnlimitedKey,
  rawRequest,
  spawnServer,
  STOPPED_AT_ONCE,
  WITH_ADMIN_API,
  type RawResponse,
  type ServerProcess,
} from '@petstore/test-support';
import { describeWithPostgres } from '@petstore/test-support/jest';
import { betterSqlite3 } from '@petstore/persistence-typeorm';
import pg from 'pg';
import { auth, postPet, type StoredPet } from './testing/api.js';
import { patchPet } from './testing/staleReads.js';

/** A connection of its own that holds what the pet's change and an idempotency claim need, until released. */
interface LockHolder {
  /**
   * True once no server has a change's webhook round to come: on SQLite a round's writes would wait for the lock
   * too, and a server asleep on one is not yet waiting for the request the test sent it.
   */
  settled(): Promise<boolean>;
  hold(petId: number): Promise<void>;
  /** How many of the servers' requests are waiting for what it holds. */
  waiting(): Promise<number>;
  release(): Promise<void>;
  /** The pet's changes away from `pending`, as recorded in the event log. */
  changesFromPending(petId: number): Promise<{ at: number; status: string }[]>;
}

const ROUNDS = 6;

/**
 * Whether the server has read everything sent to it: each of its connections' receive queues is empty (Linux:
 * /proc/net/tcp and tcp6, the server's end of each connection, `tx_queue:rx_queue` in hexadecimal).
 */
function readEverything(server: ServerProcess): boolean {
  const port = new URL(server.url).port;
  const ownEnds = ['/proc/net/tcp', '/proc/net/tcp6']
    .flatMap((table) => readFileSync(table, 'utf8').trim().split('\n').slice(1))
    .map((line) => line.trim().split(/\s+/))
    .filter(([, local, , state]) => state === '01' && Number.parseInt(local!.split(':').at(-1)!, 16) === Number(port));
  return ownEnds.every(([, , , , queues]) => Number.parseInt(queues!.split(':')[1]!, 16) === 0);
}

interface SentPatch {
  /** Settles once the whole request is handed to the kernel: on loopback, it is then in the server's receive queue. */
  sent: Promise<void>;
  answer: Promise<RawResponse>;
}

/**
 * A PATCH whose sending can be waited for: `fetch` does not say when it wrote, and a server that has read everything
 * before the request arrived is not waiting for it.
 */
function sendPatch(server: ServerProcess, key: string, id: number, patch: object, headers: Record<string, string> = {}): SentPatch {
  let onSent!: () => void;
  const sent = new Promise<void>((resolve) => (onSent = resolve));
  const answer = rawRequest(`${server.url}/pets/${id}`, {
    method: 'PATCH',
    headers: { ...auth(key), 'Content-Type': 'application/merge-patch+json', ...headers },
    body: JSON.stringify(patch),
    onSent,
  });
  return { sent, answer };
}

async function pendingPet(server: ServerProcess, key: string, round: number): Promise<StoredPet> {
  const created = (await (await postPet(server, key, `contested ${round}`)).json()) as StoredPet;
  const pending = await patchPet(server, key, created.id, { status: 'pending' });
  expect(pending.status).toBe(200);
  return (await pending.json()) as StoredPet;
}

/**
 * `pending -> available` goes to `a` and, once it waits for the lock (it has read the pet and decided),
 * `pending -> sold` with an Idempotency-Key goes to `b` and waits too; then the lock is released. Both left
 * `pending`, so exactly one may win (sold after available would be a second change the second request never saw
 * happen: it arrived before the first was stored). The winner's event is dated after the release: at its commit.
 */
async function contestFromPending(a: ServerProcess, b: ServerProcess, key: string, holder: LockHolder, round: number): Promise<void> {
  const pet = await pendingPet(a, key, round);
  await eventually(() => holder.settled(), { intervalMs: 5 });
  await holder.hold(pet.id);
  let released: number;
  let answers: Promise<RawResponse>[];
  try {
    const toAvailable = sendPatch(a, key, pet.id, { status: 'available' });
    await toAvailable.sent;
    await eventually(async () => (await holder.waiting()) === 1, { intervalMs: 5 });
    const toSold = sendPatch(b, key, pet.id, { status: 'sold' }, { 'Idempotency-Key': `contest-${pet.id}` });
    await toSold.sent;
    await eventually(async () => (await holder.waiting()) === 2, { intervalMs: 5 });
    answers = [toAvailable.answer, toSold.answer];
  } finally {
    released = Date.now();
    await holder.release();
  }
  const [available, sold] = await Promise.all(answers);
  const statuses = [available!.status, sold!.status];
  expect(statuses.sort()).toEqual([200, 409]);
  const [winner, loser] = available!.status === 200 ? [available!, sold!] : [sold!, available!];
  expect((loser.json as { code: string }).code).toBe('invalid_transition');
  const stored = winner.json as StoredPet;
  const changes = await holder.changesFromPending(pet.id);
  expect(changes).toEqual([{ at: expect.any(Number), status: stored.status }]);
  expect(changes[0]!.at).toBeGreaterThanOrEqual(released);
}

describe('two instances on one SQLite file while another connection holds the write lock', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-commit-'));
  const path = join(dir, 'petstore.db');
  let a: ServerProcess;
  let b: ServerProcess;
  let key: string;
  let holder: LockHolder;
  let db: ReturnType<ReturnType<typeof betterSqlite3>> | undefined;

  beforeAll(async () => {
    // No write of their own while the lock is held (usage flushes, delivery polls): a server asleep on the lock is
    // waiting for the request the test sent it.
    const quiet = { KEY_USAGE_FLUSH_MS: '60000', WEBHOOK_POLL_INTERVAL_MS: '60000' };
    const env = { ...STOPPED_AT_ONCE, ...quiet, DATABASE_URL: `sqlite:${path}`, NODE_ENV: 'production', LOG_LEVEL: 'warn' };
    a = await spawnServer({ ...env, ...WITH_ADMIN_API });
    b = await spawnServer(env);
    key = await issueUnlimitedKey(a);
    const connection = new (betterSqlite3())(path);
    db = connection;
    // A server's main thread asleep in the kernel is in SQLite's busy handler: Node's event loop never sleeps so
    // (Linux: /proc/<pid>/wchan names where a thread waits). It sleeps there for the test's request only once it has
    // read it: a webhook round's write can hold it there too, with the request still unread (it reads it when that
    // write gives up, after the database timeout, and then waits for the lock for it).
    const sleepsOnLock = (server: ServerProcess) => readFileSync(`/proc/${server.child.pid}/wchan`, 'utf8') === 'hrtimer_nanosleep';
    const waitsForRequest = (server: ServerProcess) => sleepsOnLock(server) && readEverything(server);
    holder = {
      // Every event dispatched, then each server idle in its event loop: a round writes once more after its dispatch
      // (its claim), with no turn of the event loop between, so a server seen idle after that has ended its round.
      settled: async () =>
        (connection.prepare('SELECT count(*) FROM "pet_events" WHERE "dispatched" = 0').pluck().get() as number) === 0 &&
        [a, b].every((server) => readFileSync(`/proc/${server.child.pid}/wchan`, 'utf8') === 'do_epoll_wait'),
      hold: async () => void connection.exec('BEGIN IMMEDIATE'),
      waiting: async () => [a, b].filter(waitsForRequest).length,
      release: async () => void connection.exec('ROLLBACK'),
      changesFromPending: async (petId) =>
        connection
          .prepare(`SELECT "at_ms" AS "at", "status" FROM "pet_events" WHERE "pet_id" = ? AND "before_status" = 'pending' AND "status" <> 'pending'`)
          .all(petId) as { at: number; status: string }[],
    };
  }, 60_000);
  afterAll(async () => {
    db?.close();
    await Promise.all([a?.stop(), b?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('lets exactly one of two transitions from pending win, the second with an Idempotency-Key, dated at its commit', async () => {
    for (let round = 0; round < ROUNDS; round++) await contestFromPending(a, b, key, holder, round);
  }, 60_000);
});

/** A PostgreSQL transaction of its own that holds the pet's row and the idempotency keys' table. */
function postgresLockHolder(connection: pg.Client): LockHolder {
  return {
    // The servers' webhook rounds take no lock the holder holds.
    settled: async () => true,
    hold: async (petId) => {
      await connection.query('BEGIN');
      await connection.query('SELECT 1 FROM "pets" WHERE "id" = $1 FOR UPDATE', [petId]);
      await connection.query('LOCK TABLE "idempotency_keys" IN EXCLUSIVE MODE');
    },
    waiting: async () =>
      Number(
        (
          await connection.query<{ count: string }>(
            `SELECT count(*) FROM pg_stat_activity WHERE "wait_event_type" = 'Lock' AND "datname" = current_database()`,
          )
        ).rows[0]!.count,
      ),
    release: async () => void (await connection.query('ROLLBACK')),
    changesFromPending: async (petId) =>
      (
        await connection.query<{ at: string; status: string }>(
          `SELECT "at_ms" AS "at", "status" FROM "pet_events" WHERE "pet_id" = $1 AND "before_status" = 'pending' AND "status" <> 'pending'`,
          [petId],
        )
      ).rows.map(({ at, status }) => ({ at: Number(at), status })),
  };
}

describeWithPostgres('two instances on PostgreSQL while another transaction holds the pet and the idempotency keys', (postgres) => {
  let a: ServerProcess;
  let b: ServerProcess;
  let key: string;

  beforeAll(async () => {
    const env = { ...STOPPED_AT_ONCE, DATABASE_URL: postgres().url, NODE_ENV: 'production', LOG_LEVEL: 'warn' };
    [a, b] = await Promise.all([spawnServer({ ...env, ...WITH_ADMIN_API }), spawnServer(env)]);
    key = await issueUnlimitedKey(a);
  }, 90_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  }, 30_000);

  it('lets exactly one of two transitions from pending win, the second with an Idempotency-Key, dated at its commit', async () => {
    // Ended here: the suite stops PostgreSQL before its own afterAll runs.
    const connection = new pg.Client({ connectionString: postgres().url });
    await connection.connect();
    try {
      const holder = postgresLockHolder(connection);
      for (let round = 0; round < ROUNDS; round++) await contestFromPending(a, b, key, holder, round);
    } finally {
      await connection.end();
    }
  }, 60_000);
});
