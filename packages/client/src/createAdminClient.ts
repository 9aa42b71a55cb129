import type {
  ApiKey,
  ApiKeyPage,
  ApiKeyUpdate,
  AuditEventPage,
  DeliveryAttemptPage,
  IssuedApiKey,
  IssuedWebhookEndpoint,
  KeyUsage,
  KeyUsageQuery,
  ListAuditEventsQuery,
  ListKeysQuery,
  NewApiKey,
  Overview,
  AdminListPetsQuery,
  NewWebhookEndpoint,
  PageQuery,
  ResendAccepted,
  Rotation,
  StoreEventPage,
  WebhookEndpoint,
  WebhookEndpointPage,
  WebhookEndpointUpdate,
} from './adminTypes.js';
import { nextPageQuery } from './nextPage.js';
import { resolveOptions, type CallOptions, type ClientOptions } from './options.js';
import type { NewPet, Pet, PetPatch } from './types.js';
import { OPEN_GATE, sendRequest, type RequestSpec } from './sendRequest.js';

export interface AdminClientOptions extends Pick<ClientOptions, 'timeoutMs' | 'retry' | 'onWait' | 'fetch'> {
  /** The admin API's base URL, ending in its prefix: `http://10.0.0.5:3001/admin/v1`. */
  baseUrl: string;
  /** The server's `ADMIN_TOKEN`, sent as `Authorization: Bearer <token>`. */
  adminToken: string;
}

/**
 * The admin API (`/admin/v1`): manage the service's API keys from your own backend. Every failure is a
 * `PetstoreError`. Reads, updates, revocations and unbans are retried on 502/503/504 and network failures (doing them
 * twice changes nothing); `createKey` and `rotateKey` are sent once, since a repeat would make a second key or
 * replace the new secret at once.
 */
export interface AdminClient {
  /** `POST /keys`: a new key; the answer's `key` is its secret, shown this once. */
  createKey(key: NewApiKey, options?: CallOptions): Promise<IssuedApiKey>;
  /** `GET /keys`: a page of keys, oldest first (`nextCursor` for the next). */
  listKeys(query?: ListKeysQuery, options?: CallOptions): Promise<ApiKeyPage>;
  /** Every key, page after page. */
  iterateKeys(query?: Omit<ListKeysQuery, 'cursor'>, options?: CallOptions): AsyncIterableIterator<ApiKey>;
  /** `GET /keys/{keyId}`. */
  getKey(keyId: string, options?: CallOptions): Promise<ApiKey>;
  /** `PATCH /keys/{keyId}`: changes the settings given, keeps the others. */
  updateKey(keyId: string, changes: ApiKeyUpdate, options?: CallOptions): Promise<ApiKey>;
  /** `POST /keys/{keyId}/rotate`: a new secret (`key`); the old one works for `gracePeriodSeconds` (default 24 h). */
  rotateKey(keyId: string, rotation?: Rotation, options?: CallOptions): Promise<IssuedApiKey>;
  /** `POST /keys/{keyId}/revoke`: for good. */
  revokeKey(keyId: string, options?: CallOptions): Promise<ApiKey>;
  /** `POST /keys/{keyId}/unban`: lifts a rate-limit ban. */
  unbanKey(keyId: string, options?: CallOptions): Promise<ApiKey>;
  /** `GET /keys/{keyId}/usage`: requests per UTC day (`from`, `to`: `YYYY-MM-DD`; default the last 30 days). */
  getKeyUsage(keyId: string, query?: KeyUsageQuery, options?: CallOptions): Promise<KeyUsage>;
  /** `GET /audit-events`: newest first, of every key or of one (`keyId`). */
  listAuditEvents(query?: ListAuditEventsQuery, options?: CallOptions): Promise<AuditEventPage>;
  /** `POST /webhook-endpoints`: a new endpoint; the answer's `secret` is shown this once. Sent once. */
  createWebhookEndpoint(endpoint: NewWebhookEndpoint, options?: CallOptions): Promise<IssuedWebhookEndpoint>;
  /** `GET /webhook-endpoints`: a page of endpoints, oldest first. */
  listWebhookEndpoints(query?: PageQuery, options?: CallOptions): Promise<WebhookEndpointPage>;
  /** `GET /webhook-endpoints/{endpointId}`. */
  getWebhookEndpoint(endpointId: string, options?: CallOptions): Promise<WebhookEndpoint>;
  /** `PATCH /webhook-endpoints/{endpointId}`: changes the settings given (`disabled: false` enables it again). */
  updateWebhookEndpoint(endpointId: string, changes: WebhookEndpointUpdate, options?: CallOptions): Promise<WebhookEndpoint>;
  /** `DELETE /webhook-endpoints/{endpointId}`. Sent once (a repeat would answer 404). */
  deleteWebhookEndpoint(endpointId: string, options?: CallOptions): Promise<void>;
  /** `POST /webhook-endpoints/{endpointId}/rotate-secret`: a new `secret`; the old one signs too for 24 hours. Sent once. */
  rotateWebhookSecret(endpointId: string, options?: CallOptions): Promise<IssuedWebhookEndpoint>;
  /** `GET /webhook-endpoints/{endpointId}/deliveries`: the delivery log, newest first. */
  listWebhookDeliveries(endpointId: string, query?: PageQuery, options?: CallOptions): Promise<DeliveryAttemptPage>;
  /** `POST /webhook-endpoints/{endpointId}/resend`: the event again, with the same `webhook-id`. Sent once. */
  resendWebhookEvent(endpointId: string, eventId: string, options?: CallOptions): Promise<ResendAccepted>;
  /** `GET /events`: the recorded events, newest first. */
  listEvents(query?: PageQuery, options?: CallOptions): Promise<StoreEventPage>;
  /** `GET /pets`: a page of animals, ascending by id, as `GET /v1/pets` answers it (`nextCursor` for the next). */
  listPets(query?: AdminListPetsQuery, options?: CallOptions): Promise<{ pets: Pet[]; nextCursor: string | null }>;
  /** `GET /pets/{petId}`: an animal and its `etag`. */
  getPet(petId: number, options?: CallOptions): Promise<TaggedPet>;
  /** `POST /pets`: adds an animal (recorded and sent to the webhooks like any other). Sent once. */
  createPet(pet: NewPet, options?: CallOptions): Promise<TaggedPet>;
  /** `PATCH /pets/{petId}`: with `ifMatch`, only if the animal still has that tag (else 412 `precondition_failed`). */
  updatePet(petId: number, patch: PetPatch, options?: CallOptions & { ifMatch?: string }): Promise<TaggedPet>;
  /** `GET /overview`: this instance's traffic since it started and the webhook backlog. */
  getOverview(options?: CallOptions): Promise<Overview>;
}

/** An animal and its entity tag (`If-Match` of its next change). */
export interface TaggedPet {
  pet: Pet;
  etag: string;
}

function queryOf(query: Readonly<Record<string, string | number | undefined>>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  return params;
}

const keyPath = (keyId: string, action = '') => `/keys/${encodeURIComponent(keyId)}${action}`;
const endpointPath = (endpointId: string, action = '') => `/webhook-endpoints/${encodeURIComponent(endpointId)}${action}`;

/** A client of the admin API, for one admin token. */
export function createAdminClient({ adminToken, ...clientOptions }: AdminClientOptions): AdminClient {
  // The admin API has no rate limits: no gate to pass.
  const options = resolveOptions({ ...clientOptions, apiKey: adminToken });
  const send = async <T>(spec: RequestSpec, call?: CallOptions) => (await sendRequest<T>(options, OPEN_GATE, spec, call)).body;

  const tagged = async (spec: RequestSpec, call?: CallOptions): Promise<TaggedPet> => {
    const answer = await sendRequest<Pet>(options, OPEN_GATE, spec, call);
    return { pet: answer.body, etag: answer.headers.get('ETag') ?? '' };
  };
  const petPath = (petId: number) => `/pets/${encodeURIComponent(String(petId))}`;

  const listKeys = (query: ListKeysQuery = {}, call?: CallOptions) =>
    send<ApiKeyPage>({ operation: 'listKeys', method: 'GET', path: '/keys', query: queryOf(query) }, call);

  return {
    createKey: (key, call) => send({ operation: 'createKey', method: 'POST', path: '/keys', body: key, once: true }, call),
    listKeys,
    async *iterateKeys(query = {}, call) {
      let cursor: string | null | undefined;
      do {
        const page: ApiKeyPage = await listKeys({ ...query, ...(cursor ? { cursor } : {}) }, call);
        yield* page.keys;
        cursor = page.nextCursor;
      } while (cursor);
    },
    getKey: (keyId, call) => send({ operation: 'getKey', method: 'GET', path: keyPath(keyId) }, call),
    updateKey: (keyId, changes, call) => send({ operation: 'updateKey', method: 'PATCH', path: keyPath(keyId), body: changes }, call),
    rotateKey: (keyId, rotation = {}, call) =>
      send({ operation: 'rotateKey', method: 'POST', path: keyPath(keyId, '/rotate'), body: rotation, once: true }, call),
    revokeKey: (keyId, call) => send({ operation: 'revokeKey', method: 'POST', path: keyPath(keyId, '/revoke') }, call),
    unbanKey: (keyId, call) => send({ operation: 'unbanKey', method: 'POST', path: keyPath(keyId, '/unban') }, call),
    getKeyUsage: (keyId, query = {}, call) =>
      send({ operation: 'getKeyUsage', method: 'GET', path: keyPath(keyId, '/usage'), query: queryOf(query) }, call),
    listAuditEvents: (query = {}, call) => send({ operation: 'listAuditEvents', method: 'GET', path: '/audit-events', query: queryOf(query) }, call),
    createWebhookEndpoint: (endpoint, call) =>
      send({ operation: 'createWebhookEndpoint', method: 'POST', path: '/webhook-endpoints', body: endpoint, once: true }, call),
    listWebhookEndpoints: (query = {}, call) =>
      send({ operation: 'listWebhookEndpoints', method: 'GET', path: '/webhook-endpoints', query: queryOf(query) }, call),
    getWebhookEndpoint: (endpointId, call) => send({ operation: 'getWebhookEndpoint', method: 'GET', path: endpointPath(endpointId) }, call),
    updateWebhookEndpoint: (endpointId, changes, call) =>
      send({ operation: 'updateWebhookEndpoint', method: 'PATCH', path: endpointPath(endpointId), body: changes }, call),
    deleteWebhookEndpoint: async (endpointId, call) => {
      await send({ operation: 'deleteWebhookEndpoint', method: 'DELETE', path: endpointPath(endpointId), once: true }, call);
    },
    rotateWebhookSecret: (endpointId, call) =>
      send({ operation: 'rotateWebhookSecret', method: 'POST', path: endpointPath(endpointId, '/rotate-secret'), once: true }, call),
    listWebhookDeliveries: (endpointId, query = {}, call) =>
      send({ operation: 'listWebhookDeliveries', method: 'GET', path: endpointPath(endpointId, '/deliveries'), query: queryOf(query) }, call),
    resendWebhookEvent: (endpointId, eventId, call) =>
      send({ operation: 'resendWebhookEvent', method: 'POST', path: endpointPath(endpointId, '/resend'), body: { eventId }, once: true }, call),
    listEvents: (query = {}, call) => send({ operation: 'listEvents', method: 'GET', path: '/events', query: queryOf(query) }, call),
    async listPets(query = {}, call) {
      const answer = await sendRequest<Pet[]>(
        options,
        OPEN_GATE,
        { operation: 'listPets', method: 'GET', path: '/pets', query: queryOf(query) },
        call,
      );
      return { pets: answer.body, nextCursor: nextPageQuery(answer.headers.get('Link'))?.get('cursor') ?? null };
    },
    getPet: (petId, call) => tagged({ operation: 'getPet', method: 'GET', path: petPath(petId) }, call),
    createPet: (pet, call) => tagged({ operation: 'createPet', method: 'POST', path: '/pets', body: pet, once: true }, call),
    updatePet: (petId, patch, { ifMatch, ...call } = {}) =>
      tagged(
        {
          operation: 'updatePet',
          method: 'PATCH',
          path: petPath(petId),
          body: patch,
          contentType: 'application/merge-patch+json',
          ...(ifMatch !== undefined && { headers: { 'If-Match': ifMatch } }),
        },
        call,
      ),
    getOverview: (call) => send({ operation: 'getOverview', method: 'GET', path: '/overview' }, call),
  };
}
