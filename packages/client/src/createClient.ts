import { resolveOptions, type CallOptions, type ClientOptions, type CreatePetOptions, type UpdatePetOptions } from './options.js';
import { nextPageQuery } from './nextPage.js';
import type { RateLimitState } from './rateLimitHeaders.js';
import { gateFor } from './RateLimitGate.js';
import { randomId } from './randomId.js';
import { sendRequest, type RequestSpec } from './sendRequest.js';
import type {
  CreatePetResult,
  GetPetResult,
  ListPetsQuery,
  ListPetsResult,
  NewPet,
  Pet,
  PetId,
  PetPatch,
  RateLimitUsage,
  UpdatePetResult,
} from './types.js';

/** One page of `listPets`, ascending by id. */
export interface PetPage {
  pets: ListPetsResult;
  /** The opaque cursor of the next page (to resume later with `listPets({ ..., cursor })`), or null on the last. */
  nextCursor: string | null;
  /** Fetches the next page, following `Link: rel="next"`; null on the last page. */
  next: ((options?: CallOptions) => Promise<PetPage>) | null;
}

export interface PetstoreClient {
  /** `GET /pets`: one page of animals, optionally of one `status`; `limit` 1-100 (default 20). */
  listPets(query?: ListPetsQuery, options?: CallOptions): Promise<PetPage>;
  /** Every animal (of one `status`), page after page, each exactly once, ascending by id. */
  iteratePets(query?: Omit<ListPetsQuery, 'cursor'>, options?: CallOptions): AsyncIterableIterator<Pet>;
  /**
   * `POST /pets`: adds an animal. Every attempt of one call carries the same `Idempotency-Key`, so a retried create
   * never makes two animals.
   */
  createPet(pet: NewPet, options?: CreatePetOptions): Promise<CreatePetResult>;
  /**
   * `GET /pets/{petId}`: one animal.
   * @deprecated The service removes this operation on 2030-12-05 (sunset; it answers `410 gone` from then on).
   * Use `listPets({ status })` or `iteratePets({ status })` instead.
   */
  getPet(id: PetId, options?: CallOptions): Promise<GetPetResult>;
  /**
   * `PATCH /pets/{petId}`: changes any of an animal's name, category and status; answers the animal as changed and
   * its new `etag`. With `ifMatch`, only if the animal still has that tag. Every attempt carries the same
   * `Idempotency-Key`, so a retried change is applied once. Fails with `invalid_transition` (409) or
   * `precondition_failed` (412, the error's `etag` is the current one) as `PetstoreError`s.
   */
  updatePet(id: PetId, patch: PetPatch, options?: UpdatePetOptions): Promise<{ pet: UpdatePetResult; etag: string }>;
  /**
   * `GET /rate_limit`: how much of its quota the key has used, and its ban, without spending any. Not held back by
   * the key's gate (the service answers it during a ban); its own bound (60 a minute) surfaces as a 429 error.
   */
  getRateLimit(options?: CallOptions): Promise<RateLimitUsage>;
  /** The last rate-limit state any answer carried for this key (shared by every client of the key), or null. */
  readonly rateLimit: RateLimitState | null;
}

function listQuery(query: ListPetsQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.status !== undefined) params.set('status', query.status);
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.cursor !== undefined) params.set('cursor', query.cursor);
  return params;
}

/**
 * A client of the pet store API for one key. It follows the service's rate-limit rules by itself (see
 * docs/client.md): one gate per key shared by every call in the process, `Retry-After` honoured, 503s and network
 * failures retried with backoff and jitter, creates made idempotent.
 */
export function createClient(clientOptions: ClientOptions): PetstoreClient {
  const options = resolveOptions(clientOptions);
  const gate = gateFor(options.baseUrl, options.apiKey);
  const send = <T>(spec: RequestSpec, call?: CallOptions) => sendRequest<T>(options, gate, spec, call);

  async function pageAt(query: URLSearchParams, call?: CallOptions): Promise<PetPage> {
    const { body, headers } = await send<ListPetsResult>({ operation: 'listPets', method: 'GET', path: '/pets', query }, call);
    const next = nextPageQuery(headers.get('Link'));
    return {
      pets: body,
      nextCursor: next?.get('cursor') ?? null,
      next: next ? (nextCall?: CallOptions) => pageAt(next, nextCall ?? call) : null,
    };
  }

  return {
    listPets: (query = {}, call) => pageAt(listQuery(query), call),

    async *iteratePets(query = {}, call) {
      let page: PetPage | null = await pageAt(listQuery(query), call);
      while (page) {
        yield* page.pets;
        page = page.next ? await page.next() : null;
      }
    },

    async createPet(pet, call) {
      const idempotencyKey = call?.idempotencyKey ?? randomId();
      const spec: RequestSpec = { operation: 'createPet', method: 'POST', path: '/pets', body: pet, headers: { 'Idempotency-Key': idempotencyKey } };
      return (await send<CreatePetResult>(spec, call)).body;
    },

    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the implementation of the deprecated operation
    async getPet(id, call) {
      return (await send<GetPetResult>({ operation: 'getPet', method: 'GET', path: `/pets/${encodeURIComponent(String(id))}` }, call)).body;
    },

    async updatePet(id, patch, call) {
      const headers: Record<string, string> = { 'Idempotency-Key': call?.idempotencyKey ?? randomId() };
      if (call?.ifMatch !== undefined) headers['If-Match'] = call.ifMatch;
      const path = `/pets/${encodeURIComponent(String(id))}`;
      const spec: RequestSpec = { operation: 'updatePet', method: 'PATCH', path, body: patch, contentType: 'application/merge-patch+json', headers };
      const answer = await send<UpdatePetResult>(spec, call);
      return { pet: answer.body, etag: answer.headers.get('ETag') ?? '' };
    },

    async getRateLimit(call) {
      return (await send<RateLimitUsage>({ operation: 'getRateLimit', method: 'GET', path: '/rate_limit', bypassGate: true }, call)).body;
    },

    get rateLimit() {
      return gate.state;
    },
  };
}
