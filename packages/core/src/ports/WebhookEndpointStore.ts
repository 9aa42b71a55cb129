import type { WebhookEndpoint } from '../webhooks/WebhookEndpoint.js';

/** A place in the endpoints' order: by creation, then id. */
export interface EndpointPosition {
  at: Date;
  id: string;
}

/** Where webhook endpoints, with their secrets, are kept. An absent endpoint is null. */
export interface WebhookEndpointStore {
  create(endpoint: WebhookEndpoint): Promise<void>;
  findById(id: string): Promise<WebhookEndpoint | null>;
  /** The endpoints of these ids that exist, in any order (a delivery round reads its endpoints at once). */
  findByIds(ids: readonly string[]): Promise<WebhookEndpoint[]>;
  /** Oldest first (by `createdAt`, then `id`), after `after` when given. */
  list(request: { after: EndpointPosition | null; limit: number }): Promise<WebhookEndpoint[]>;
  /**
   * Replaces the stored endpoint of the same id with `endpoint` and the version after `endpoint.version`, only if
   * the stored version is still `endpoint.version` (a compare-and-set); false when another change came first or
   * there is no such endpoint.
   */
  save(endpoint: WebhookEndpoint): Promise<boolean>;
  /** Deletes the endpoint and its pending deliveries; false when there was none. */
  delete(id: string): Promise<boolean>;
}
