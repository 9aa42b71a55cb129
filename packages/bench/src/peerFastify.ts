// The Fastify peer: the Koa peer's listing on Fastify 5 with a response schema (its compiled
// serializer), as a team that picked Fastify would write it. Same key lookup, limits, query, Link and headers; a
// status change is one UPDATE.
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { countRequest, listingQuery, nextPageLink } from './peerLimits.js';

const db = new Database(process.env['DATABASE_PATH']);
db.pragma('journal_mode = WAL');
const findKey = db.prepare('SELECT "id", "per_minute", "per_day" FROM "api_keys" WHERE "secret_hash" = ? AND "revoked_at_ms" IS NULL');
const listAll = db.prepare('SELECT "id", "name", "category_id" AS "categoryId", "status" FROM "pets" WHERE "id" > ? ORDER BY "id" LIMIT ?');
const listByStatus = db.prepare(
  'SELECT "id", "name", "category_id" AS "categoryId", "status" FROM "pets" WHERE "status" = ? AND "id" > ? ORDER BY "id" LIMIT ?',
);

const pet = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' }, categoryId: { type: 'integer' }, status: { type: 'string' } },
};
const error = { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } } };

const updateStatus = db.prepare('UPDATE "pets" SET "status" = ? WHERE "id" = ? RETURNING "id", "name", "category_id" AS "categoryId", "status"');

/** Authenticates and counts the request; false when it has been answered (401 or 429). */
function admitted(request: FastifyRequest, reply: FastifyReply): boolean {
  const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  const key =
    bearer &&
    (findKey.get(createHash('sha256').update(bearer).digest('hex')) as { id: string; per_minute: number | null; per_day: number | null } | undefined);
  if (!key) {
    void reply.code(401).send({ code: 'unauthorized', message: 'Invalid API key.', status: 401 });
    return false;
  }
  const counted = countRequest(key.id, key.per_minute, key.per_day);
  if ('retryAfter' in counted) {
    void reply.code(429).header('Retry-After', String(counted.retryAfter)).send({ code: 'rate_limited', message: 'Too many requests.', status: 429 });
    return false;
  }
  reply.headers(counted);
  return true;
}

const app = Fastify({ logger: false });
app.get('/v1/pets', { schema: { response: { 200: { type: 'array', items: pet }, 401: error, 429: error } } }, (request, reply) => {
  if (!admitted(request, reply)) return reply;
  const { limit, after, status } = listingQuery(request.query as Record<string, unknown>);
  const rows = (status ? listByStatus.all(status, after, limit + 1) : listAll.all(after, limit + 1)) as { id: number }[];
  const pets = rows.slice(0, limit);
  if (rows.length > limit) reply.header('Link', nextPageLink(status, limit, pets[pets.length - 1]!.id));
  return pets;
});
app.patch('/v1/pets/:id', { schema: { response: { 200: pet, 401: error, 404: error, 429: error } } }, (request, reply) => {
  if (!admitted(request, reply)) return reply;
  const { status } = request.body as { status: string };
  const updated = updateStatus.get(status, Number((request.params as { id: string }).id));
  if (!updated) return reply.code(404).send({ code: 'not_found', message: 'No such pet.', status: 404 });
  return updated;
});
const address = await app.listen({ port: Number(process.env['PORT'] ?? 0), host: '127.0.0.1' });
process.stderr.write(`ready ${new URL(address).port}\n`);
process.on('SIGTERM', () => process.exit(0));
