// The Fastify peer: the Koa peer's listing on Fastify 5 with a response schema (its compiled
// serializer), as a team that picked Fastify would write it. Same key lookup, limits, query, Link and headers; a
// status change is one UPDATE.
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { openPeerDatabase } from './peerDatabase.js';
import { countRequest, listingQuery, nextPageLink } from './peerLimits.js';

const db = openPeerDatabase(process.env['DATABASE_PATH']);

const pet = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' }, categoryId: { type: 'integer' }, status: { type: 'string' } },
};
const error = { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } } };

/** Authenticates and counts the request; false when it has been answered (401 or 429). */
function admitted(request: FastifyRequest, reply: FastifyReply): boolean {
  const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  const key = bearer && db.keyOf(bearer);
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
  const rows = db.pets(status, after, limit + 1);
  const pets = rows.slice(0, limit);
  if (rows.length > limit) reply.header('Link', nextPageLink(status, limit, pets[pets.length - 1]!.id));
  return pets;
});
app.patch('/v1/pets/:id', { schema: { response: { 200: pet, 401: error, 404: error, 429: error } } }, (request, reply) => {
  if (!admitted(request, reply)) return reply;
  const { status } = request.body as { status: string };
  const updated = db.setStatus(Number((request.params as { id: string }).id), status);
  if (!updated) return reply.code(404).send({ code: 'not_found', message: 'No such pet.', status: 404 });
  return updated;
});
const address = await app.listen({ port: Number(process.env['PORT'] ?? 0), host: '127.0.0.1' });
process.stderr.write(`ready ${new URL(address).port}\n`);
process.on('SIGTERM', () => process.exit(0));
