import Router from '@koa/router';
import type { Clock, CreatePet, CreatePetIdempotently, GetPet, GetRateLimitUsage, ListPets } from '@petstore/core';
import { sendWithEntityTag } from '../conditionalRequests.js';
import { ListingPages, type FullPageCacheOptions } from '../listingPages.js';
import { jsonBody } from '../middleware/jsonBody.js';
import { setRateLimitHeaders } from '../rateLimitHeaders.js';
import { serializePet, serializeRateLimitUsage } from '../serializers.js';

export interface PetsRoutesDeps {
  listPets: ListPets;
  createPet: CreatePet;
  createPetIdempotently: CreatePetIdempotently;
  getPet: GetPet;
  getRateLimitUsage: GetRateLimitUsage;
  clock: Clock;
  /** Absolute base of the API as clients reach it, ending in the version: `https://api.example.com/v1`. */
  publicBaseUrl: string;
  /** The OpenAPI document served at `/openapi.json`. */
  openApiDocument: object;
  /** Keep full listing pages in memory; only where a full page can never change (see ListingPages). */
  fullPageCache?: FullPageCacheOptions;
}

/** The three operations of the specification (and the OpenAPI document), on a router with the given prefix. */
export function createPetsRouter(deps: PetsRoutesDeps, prefix: string): Router {
  const router = new Router({ prefix, strict: true, sensitive: true });

  const pages = new ListingPages(deps.listPets, deps.publicBaseUrl, deps.fullPageCache);
  router.get('listPets', '/pets', async (ctx) => {
    const rendered = pages.page(ctx.querystring, () => ctx.query);
    const page = rendered instanceof Promise ? await rendered : rendered;
    if (page.link !== '') ctx.set('Link', page.link);
    sendWithEntityTag(ctx, page.body, page.etag);
  });

  router.post('createPet', '/pets', jsonBody(), async (ctx) => {
    const idempotencyKey = ctx.headers['idempotency-key'];
    let pet;
    if (idempotencyKey === undefined) {
      pet = await deps.createPet.execute(ctx.request.body);
    } else {
      const result = await deps.createPetIdempotently.execute({ body: ctx.request.body, scope: String(ctx.state['keyId']), idempotencyKey: String(idempotencyKey) });
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
    sendWithEntityTag(ctx, serializePet(pet));
  });

  // Read, not counted: the headers show the key's quota as it stands.
  router.get('getRateLimit', '/rate_limit', async (ctx) => {
    const usage = await deps.getRateLimitUsage.execute(String(ctx.state['keyId']));
    setRateLimitHeaders(ctx, usage.state, deps.clock.now().getTime());
    ctx.type = 'application/json';
    ctx.body = serializeRateLimitUsage(usage);
  });

  router.get('openapi', '/openapi.json', (ctx) => {
    ctx.body = deps.openApiDocument;
  });

  return router;
}
