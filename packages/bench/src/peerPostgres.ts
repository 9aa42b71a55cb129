// The PostgreSQL + Redis peer: the Koa peer's listing on Koa 3 + @koa/router + pg + ioredis, as a team
// that scales out would write it by hand: the key looked up by the SHA-256 of the bearer in PostgreSQL, minute and
// day counters in Redis (INCR and EXPIRE of both windows in one MULTI: one round trip), the same keyset query, JSON,
// Link and the three X-RateLimit headers; a status change is one UPDATE.
//
// PEER_STATEMENTS=unnamed sends the queries unnamed, as they must be behind a transaction pooler (PgBouncer); by
// default they are named, prepared once per connection. The Redis client is built from the environment by
// `counterStore()` (a cluster client with REDIS_CLUSTER_NODES) and handed to `createPeerApp`.
import { createHash } from 'node:crypto';
import Router from '@koa/router';
import { Cluster, Redis } from 'ioredis';
import Koa, { type Context } from 'koa';
import pg from 'pg';
import { listingQuery, nextPageLink, readBody } from './peerLimits.js';

/** Where the counters live: what the handler needs of an ioredis client. */
type CounterStore = Pick<Redis, 'multi'>;
type PetRow = { id: string; name: string; categoryId: string; status: string };
const COLUMNS = '"id", "name", "category_id" AS "categoryId", "status"';

/** bigint columns arrive as strings from pg. */
const toPet = (row: PetRow) => ({ id: Number(row.id), name: row.name, categoryId: Number(row.categoryId), status: row.status });

function createPeerApp(pool: pg.Pool, counters: CounterStore, named: boolean): Koa {
  /** The query, named (prepared once per connection) or not. */
  const statement = (name: string, text: string, values: unknown[]): pg.QueryConfig => (named ? { name, text, values } : { text, values });
  const app = new Koa();
  const router = new Router();
  /** Authenticates and counts the request; false when it has been answered (401 or 429). */
  async function admitted(ctx: Context): Promise<boolean> {
    const bearer = /^Bearer (.+)$/.exec(ctx.get('Authorization'))?.[1];
    const { rows: keys } = bearer
      ? await pool.query<{ id: string; per_minute: number | null }>(
          statement('find_key', 'SELECT "id", "per_minute" FROM "api_keys" WHERE "secret_hash" = $1 AND "revoked_at_ms" IS NULL', [
            createHash('sha256').update(bearer).digest('hex'),
          ]),
        )
      : { rows: [] };
    const key = keys[0];
    if (!key) {
      ctx.status = 401;
      ctx.body = { code: 'unauthorized', message: 'Invalid API key.', status: 401 };
      return false;
    }
    const now = Date.now();
    const minuteStart = now - (now % 60_000);
    // Both counters of a key in one hash slot (braces), so that a cluster client sends the MULTI to one node.
    const minuteKey = `peer:{${key.id}}:m:${minuteStart}`;
    const dayKey = `peer:{${key.id}}:d:${now - (now % 86_400_000)}`;
    const counts = await counters.multi().incr(minuteKey).expire(minuteKey, 60).incr(dayKey).expire(dayKey, 86_400).exec();
    const minute = Number(counts?.[0]?.[1] ?? 0);
    const perMinute = key.per_minute ?? Number.MAX_SAFE_INTEGER;
    if (minute > perMinute) {
      ctx.status = 429;
      ctx.set('Retry-After', String(Math.ceil((minuteStart + 60_000 - now) / 1000)));
      ctx.body = { code: 'rate_limited', message: 'Too many requests.', status: 429 };
      return false;
    }
    ctx.set('X-RateLimit-Limit', String(perMinute));
    ctx.set('X-RateLimit-Remaining', String(perMinute - minute));
    ctx.set('X-RateLimit-Reset', String((minuteStart + 60_000) / 1000));
    return true;
  }

  router.get('/v1/pets', async (ctx) => {
    if (!(await admitted(ctx))) return;
    const { limit, after, status } = listingQuery(ctx.query);
    const { rows } = status
      ? await pool.query<PetRow>(
          statement('list_by_status', `SELECT ${COLUMNS} FROM "pets" WHERE "status" = $1 AND "id" > $2 ORDER BY "id" LIMIT $3`, [
            status,
            after,
            limit + 1,
          ]),
        )
      : await pool.query<PetRow>(statement('list_all', `SELECT ${COLUMNS} FROM "pets" WHERE "id" > $1 ORDER BY "id" LIMIT $2`, [after, limit + 1]));
    const pets = rows.slice(0, limit).map(toPet);
    if (rows.length > limit) ctx.set('Link', nextPageLink(status, limit, pets[pets.length - 1]!.id));
    ctx.body = pets;
  });
  router.patch('/v1/pets/:id', async (ctx) => {
    if (!(await admitted(ctx))) return;
    const { status } = JSON.parse(await readBody(ctx)) as { status: string };
    const { rows } = await pool.query<PetRow>(
      statement('update_status', `UPDATE "pets" SET "status" = $1 WHERE "id" = $2 RETURNING ${COLUMNS}`, [status, Number(ctx.params['id'])]),
    );
    if (!rows[0]) {
      ctx.status = 404;
      ctx.body = { code: 'not_found', message: 'No such pet.', status: 404 };
      return;
    }
    ctx.body = toPet(rows[0]);
  });
  app.use(router.routes());
  return app;
}

/** The Redis client the environment names, as the server reads it: REDIS_CLUSTER_NODES (`host:port,...`) or REDIS_URL. */
function counterStore(): CounterStore {
  const nodes = process.env['REDIS_CLUSTER_NODES'];
  if (!nodes) return new Redis(process.env['REDIS_URL']!);
  return new Cluster(
    nodes.split(',').map((node) => ({ host: node.slice(0, node.lastIndexOf(':')), port: Number(node.slice(node.lastIndexOf(':') + 1)) })),
  );
}

const pool = new pg.Pool({ connectionString: process.env['DATABASE_URL'], max: 10 });
const app = createPeerApp(pool, counterStore(), process.env['PEER_STATEMENTS'] !== 'unnamed');
const server = app.listen(Number(process.env['PORT'] ?? 0), '127.0.0.1', () => {
  process.stderr.write(`ready ${(server.address() as { port: number }).port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
