import Router from '@koa/router';
import type { CreatePet, CreatePetIdempotently, GetPet, ListPets } from '@petstore/core';
import { jsonBody, jsonBodyOf } from '../middleware/jsonBody.js';
import { serializePet, serializePets } from '../serializers.js';

export interface PetsRoutesDeps {
  listPets: ListPets;
  createPet: CreatePet;
  createPetIdempotently: CreatePetIdempotently;
  getPet: GetPet;
  /** Absolute base of the API as clients reach it, ending in the version: `https://api.example.com/v1`. */
  publicBaseUrl: string;
  /** The OpenAPI document served at `/openapi.json`. */
  openApiDocument: object;
}

/** Builds the `Link: <...>; rel="next"` target: the same query with the next page's cursor. */
function nextPageUrl(base: string, query: Record<string, unknown>, cursor: string): string {
  const params = new URLSearchParams();
  if (typeof query['status'] === 'string') params.set('status', query['status']);
  if (typeof query['limit'] === 'string') params.set('limit', query['limit']);
  params.set('cursor', cursor);
  return `${base}/pets?${params.toString()}`;
}

/** The three operations of the specification (and the OpenAPI document), on a router with the given prefix. */
export function createPetsRouter(deps: PetsRoutesDeps, prefix: string): Router {
  const router = new Router({ prefix, strict: true, sensitive: true });

  router.get('listPets', '/pets', async (ctx) => {
    const listing = await deps.listPets.execute(ctx.query);
    if (listing.nextCursor) ctx.set('Link', `<${nextPageUrl(deps.publicBaseUrl, ctx.query, listing.nextCursor)}>; rel="next"`);
    ctx.type = 'application/json';
    ctx.body = serializePets(listing.pets);
  });

  router.post('createPet', '/pets', jsonBody(), async (ctx) => {
    const idempotencyKey = ctx.headers['idempotency-key'];
    const { value: body, numberLiterals } = jsonBodyOf(ctx);
    let pet;
    if (idempotencyKey === undefined) {
      pet = await deps.createPet.execute(body, numberLiterals);
    } else {
      const result = await deps.createPetIdempotently.execute({ body, scope: String(ctx.state['keyId']), idempotencyKey: String(idempotencyKey), numberLiterals });
      pet = result.pet;
      if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
    }
    ctx.status = 201;
    ctx.set('Location', `${deps.publicBaseUrl}/pets/${pet.id}`);
    ctx.type = 'application/json';
    ctx.body = serializePet(pet);
  });

  router.get('getPet', '/pets/:petId', async (ctx) => {
    const pet = await deps.getPet.execute(ctx.params['petId']);
    ctx.type = 'application/json';
    ctx.body = serializePet(pet);
  });

  router.get('openapi', '/openapi.json', (ctx) => {
    ctx.body = deps.openApiDocument;
  });

  return router;
}
