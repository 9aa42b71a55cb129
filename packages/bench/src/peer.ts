// The peer (issue 17): the same listing written by hand on Koa 3 + @koa/router + better-sqlite3, as a team would
// without the product's layers. Hashed-key auth (SHA-256 of the bearer, looked up by an indexed prepared statement),
// minute and day limits counted in memory, the same keyset query (one extra row), JSON body, Link and the three
// X-RateLimit headers. No request id, access log, metrics, ETag, bans or structured RateLimit headers.
import { createHash } from 'node:crypto';
import Router from '@koa/router';
import Database from 'better-sqlite3';
import Koa from 'koa';

const db = new Database(process.env['DATABASE_PATH'], { readonly: true });
const findKey = db.prepare('SELECT "id", "per_minute", "per_day" FROM "api_keys" WHERE "secret_hash" = ? AND "revoked_at_ms" IS NULL');
const listAll = db.prepare('SELECT "id", "name", "category_id" AS "categoryId", "status" FROM "pets" WHERE "id" > ? ORDER BY "id" LIMIT ?');
const listByStatus = db.prepare(
  'SELECT "id", "name", "category_id" AS "categoryId", "status" FROM "pets" WHERE "status" = ? AND "id" > ? ORDER BY "id" LIMIT ?',
);

interface Counter {
  minuteStart: number;
  minute: number;
  dayStart: number;
  day: number;
}
const counters = new Map<string, Counter>();

const app = new Koa();
const router = new Router();
router.get('/v1/pets', (ctx) => {
  const bearer = /^Bearer (.+)$/.exec(ctx.get('Authorization'))?.[1];
  const key =
    bearer &&
    (findKey.get(createHash('sha256').update(bearer).digest('hex')) as { id: string; per_minute: number | null; per_day: number | null } | undefined);
  if (!key) {
    ctx.status = 401;
    ctx.body = { code: 'unauthorized', message: 'Invalid API key.', status: 401 };
    return;
  }
  const now = Date.now();
  const minuteStart = now - (now % 60_000);
  const dayStart = now - (now % 86_400_000);
  let counter = counters.get(key.id);
  if (!counter) counters.set(key.id, (counter = { minuteStart, minute: 0, dayStart, day: 0 }));
  if (counter.minuteStart !== minuteStart) Object.assign(counter, { minuteStart, minute: 0 });
  if (counter.dayStart !== dayStart) Object.assign(counter, { dayStart, day: 0 });
  const perMinute = key.per_minute ?? Number.MAX_SAFE_INTEGER;
  const perDay = key.per_day ?? Number.MAX_SAFE_INTEGER;
  if (counter.minute >= perMinute || counter.day >= perDay) {
    ctx.status = 429;
    ctx.set('Retry-After', String(Math.ceil((minuteStart + 60_000 - now) / 1000)));
    ctx.body = { code: 'rate_limited', message: 'Too many requests.', status: 429 };
    return;
  }
  counter.minute++;
  counter.day++;
  ctx.set('X-RateLimit-Limit', String(perMinute));
  ctx.set('X-RateLimit-Remaining', String(perMinute - counter.minute));
  ctx.set('X-RateLimit-Reset', String((minuteStart + 60_000) / 1000));

  const limit = Math.min(100, Math.max(1, Number(ctx.query['limit'] ?? 20) || 20));
  const after = Number(ctx.query['after'] ?? 0) || 0;
  const status = ctx.query['status'] as string | undefined;
  const rows = (status ? listByStatus.all(status, after, limit + 1) : listAll.all(after, limit + 1)) as { id: number }[];
  const pets = rows.slice(0, limit);
  if (rows.length > limit)
    ctx.set('Link', `<http://127.0.0.1/v1/pets?${status ? `status=${status}&` : ''}limit=${limit}&after=${pets[pets.length - 1]!.id}>; rel="next"`);
  ctx.body = pets;
});
app.use(router.routes());
const server = app.listen(Number(process.env['PORT'] ?? 0), '127.0.0.1', () => {
  process.stderr.write(`ready ${(server.address() as { port: number }).port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
