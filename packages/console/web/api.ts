import type {
  ApiKey,
  ApiKeyPage,
  AuditEventPage,
  DeliveryAttemptPage,
  IssuedApiKey,
  IssuedWebhookEndpoint,
  KeyUsage,
  NewApiKey,
  NewWebhookEndpoint,
  ResendAccepted,
  StoreEventPage,
  WebhookEndpoint,
  WebhookEndpointPage,
  WebhookEndpointUpdate,
  Pet,
  NewPet,
  PetPatch,
  PetStatus,
  Overview,
} from './types.js';

const BASE = '/admin/v1';

/** An error answer of the admin API, as its Error body says it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** For `validation_error`: the message of each invalid field. */
    readonly fields: Readonly<Record<string, string>>,
    readonly headers: Headers,
  ) {
    super(message);
  }
}

/** A pet and its entity tag (`If-Match` for the next change). */
export interface TaggedPet {
  pet: Pet;
  etag: string;
}

/** Calls of the admin API with the operator's token; `onUnauthorized` runs on any 401 (the token is wrong or gone). */
export class AdminApi {
  constructor(
    private readonly token: string,
    private readonly onUnauthorized: () => void,
  ) {}

  private async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const response = await fetch(`${BASE}${path}`, {
      method,
      headers: { Authorization: `Bearer ${this.token}`, ...(body !== undefined && { 'Content-Type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
    });
    if (response.ok) return response;
    const error = (await response.json().catch(() => ({}))) as { code?: string; message?: string; details?: { field: string; message: string }[] };
    if (response.status === 401) this.onUnauthorized();
    const fields = Object.fromEntries((error.details ?? []).map((detail) => [detail.field, detail.message]));
    throw new ApiError(
      response.status,
      error.code ?? 'unknown',
      error.message ?? `${response.status} ${response.statusText}`,
      fields,
      response.headers,
    );
  }

  private async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.call(method, path, body);
    return response.status === 204 ? (undefined as T) : ((await response.json()) as T);
  }

  /** Checks the token with the cheapest read there is. */
  async signIn(): Promise<void> {
    await this.call('GET', '/keys?limit=1');
  }

  async listPets(query: { status?: PetStatus | undefined; cursor?: string | undefined }): Promise<{ pets: Pet[]; next: string | null }> {
    const response = await this.call('GET', `/pets?${params({ limit: 20, ...query })}`);
    const next = /<[^>]*[?&]cursor=([^&>]+)[^>]*>;\s*rel="next"/.exec(response.headers.get('Link') ?? '')?.[1];
    return { pets: (await response.json()) as Pet[], next: next === undefined ? null : decodeURIComponent(next) };
  }
  async getPet(id: number): Promise<TaggedPet> {
    return tagged(await this.call('GET', `/pets/${id}`));
  }
  async createPet(pet: NewPet): Promise<TaggedPet> {
    return tagged(await this.call('POST', '/pets', pet));
  }
  async updatePet(id: number, patch: PetPatch, etag: string): Promise<TaggedPet> {
    return tagged(await this.call('PATCH', `/pets/${id}`, patch, { 'If-Match': etag }));
  }

  listKeys = (query: { name?: string | undefined; cursor?: string | undefined }) =>
    this.json<ApiKeyPage>('GET', `/keys?${params({ limit: 20, ...query })}`);
  getKey = (id: string) => this.json<ApiKey>('GET', `/keys/${encodeURIComponent(id)}`);
  createKey = (key: NewApiKey) => this.json<IssuedApiKey>('POST', '/keys', key);
  rotateKey = (id: string, gracePeriodSeconds: number) =>
    this.json<IssuedApiKey>('POST', `/keys/${encodeURIComponent(id)}/rotate`, { gracePeriodSeconds });
  revokeKey = (id: string) => this.json<ApiKey>('POST', `/keys/${encodeURIComponent(id)}/revoke`);
  unbanKey = (id: string) => this.json<ApiKey>('POST', `/keys/${encodeURIComponent(id)}/unban`);
  getKeyUsage = (id: string) => this.json<KeyUsage>('GET', `/keys/${encodeURIComponent(id)}/usage`);
  listAuditEvents = (keyId: string) => this.json<AuditEventPage>('GET', `/audit-events?${params({ keyId, limit: 20 })}`);

  listEndpoints = (cursor?: string) => this.json<WebhookEndpointPage>('GET', `/webhook-endpoints?${params({ limit: 20, cursor })}`);
  getEndpoint = (id: string) => this.json<WebhookEndpoint>('GET', `/webhook-endpoints/${encodeURIComponent(id)}`);
  createEndpoint = (endpoint: NewWebhookEndpoint) => this.json<IssuedWebhookEndpoint>('POST', '/webhook-endpoints', endpoint);
  updateEndpoint = (id: string, changes: WebhookEndpointUpdate) =>
    this.json<WebhookEndpoint>('PATCH', `/webhook-endpoints/${encodeURIComponent(id)}`, changes);
  deleteEndpoint = (id: string) => this.json<void>('DELETE', `/webhook-endpoints/${encodeURIComponent(id)}`);
  rotateEndpointSecret = (id: string) => this.json<IssuedWebhookEndpoint>('POST', `/webhook-endpoints/${encodeURIComponent(id)}/rotate-secret`);
  listDeliveries = (id: string, cursor?: string) =>
    this.json<DeliveryAttemptPage>('GET', `/webhook-endpoints/${encodeURIComponent(id)}/deliveries?${params({ limit: 20, cursor })}`);
  resend = (endpointId: string, eventId: string) =>
    this.json<ResendAccepted>('POST', `/webhook-endpoints/${encodeURIComponent(endpointId)}/resend`, { eventId });
  listEvents = (cursor?: string) => this.json<StoreEventPage>('GET', `/events?${params({ limit: 20, cursor })}`);

  getOverview = () => this.json<Overview>('GET', '/overview');
}

function params(values: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== '') search.set(name, String(value));
  return search.toString();
}

async function tagged(response: Response): Promise<TaggedPet> {
  return { pet: (await response.json()) as Pet, etag: response.headers.get('ETag') ?? '' };
}
