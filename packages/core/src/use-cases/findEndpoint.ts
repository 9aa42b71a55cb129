import { NotFoundError } from '../errors/NotFoundError.js';
import type { WebhookEndpointStore } from '../ports/WebhookEndpointStore.js';
import { isEndpointId, type WebhookEndpoint } from '../webhooks/WebhookEndpoint.js';

/** The endpoint of that id, or NotFoundError (also for text that is no endpoint id). */
export async function findEndpoint(store: WebhookEndpointStore, id: string): Promise<WebhookEndpoint> {
  const endpoint = isEndpointId(id) ? await store.findById(id) : null;
  if (!endpoint) throw new NotFoundError(`No webhook endpoint with id ${id}.`);
  return endpoint;
}
