// The Koa peer: the same listing written by hand on Koa 3 + @koa/router + better-sqlite3, as a
// team would without the product's layers. Hashed-key auth (SHA-256 of the bearer, looked up by an indexed prepared
// statement), minute and day limits counted in memory, the same keyset query (one extra row), JSON body, Link and
// the three X-RateLimit headers; a status change is one UPDATE. No request id, access log, metrics, ETag, bans,
// structured RateLimit headers, transition rules or conditional updates.
import Router from '@koa/router';
import Koa, { type Context } from 'koa';
import { openPeerDatabase } from './peerDatabase.js';
import { countRequest, listingQuery, nextPageLink, readBody } from './peerLimits.js';

const db = openPeerDatabase(process.env['DATABASE_PATH']);

/** Authenticates and counts the request; false when it has been answered (401 or 429). */
function admitted(ctx: Context): boolean {
  const bearer = /^Bearer (.+)$/.exec(ctx.get('Authorization'))?.[1];
  const key = bearer && db.keyOf(bearer);
  if (!key) {
    ctx.status = 401;
    ctx.body = { code: 'unauthorized', message: 'Invalid API key.', status: 401 };
    return false;
  }
  const counted = countRequest(key.id, key.per_minute, key.per_day);
  if ('retryAfter' in counted) {
    ctx.status = 429;
    ctx.set('Retry-After', String(counted.retryAfter));
    ctx.body = { code: 'rate_limited', message: 'Too many requests.', status: 429 };
    return false;
  }
  ctx.set(counted);
  return true;
}

const app = new Koa();
const router = new Router();
router.get('/v1/pets', (ctx) => {
  if (!admitted(ctx)) return;
  const { limit, after, status } = listingQuery(ctx.query);
  const rows = db.pets(status, after, limit + 1);
  const pets = rows.slice(0, limit);
  if (rows.length > limit) ctx.set('Link', nextPageLink(status, limit, pets[pets.length - 1]!.id));
  ctx.body = pets;
});
router.patch('/v1/pets/:id', async (ctx) => {
  if (!admitted(ctx)) return;
  const { status } = JSON.parse(await readBody(ctx)) as { status: string };
  const pet = db.setStatus(Number(ctx.params['id']), status);
  if (!pet) {
    ctx.status = 404;
    ctx.body = { code: 'not_found', message: 'No such pet.', status: 404 };
    return;
  }
  ctx.body = pet;
});
app.use(router.routes());
const server = app.listen(Number(process.env['PORT'] ?? 0), '127.0.0.1', () => {
  process.stderr.write(`ready ${(server.address() as { port: number }).port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
