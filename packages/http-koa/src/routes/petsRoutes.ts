import Router from '@koa/router';
import type { PetsApiDeps } from '../createPetsApi.js';
import { sendWithEntityTag } from '../conditionalRequests.js';
import { ListingPages, type FullPageCacheOptions } from '../listingPages.js';
import { jsonBody, jsonBodyOf } from '../middleware/jsonBody.js';
import { setRateLimitHeaders } from '../rateLimitHeaders.js';
import { serializePet, serializeRateLimitUsage } from '../serializers.js';

export type PetsRoutesDeps = Omit<PetsApiDeps, 'admitRequest' | 'admitUsageQuery'> & {
  /** The OpenAPI document served at `/openapi.json`. */
  openApiDocument: object;
  /** Keep full listing pages in memory; only where a full page can never change (see ListingPages). */
  fullPageCache?: FullPageCacheOptions;
};

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
    const { value: body, numberLiterals } = jsonBodyOf(ctx);
    let pet;
    if (idempotencyKey === undefined) {
      pet = await deps.createPet.execute(body, numberLiterals);
    } else {
      const result = await deps.createPetIdempotently.execute({
        body,
        scope: String(ctx.state['keyId']),
        idempotencyKey: String(idempotencyKey),
        numberLiterals,
      });
      pet = result.pet;
      if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
    }
    pages.afterWrite();
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
