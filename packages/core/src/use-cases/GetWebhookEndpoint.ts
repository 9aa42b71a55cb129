import type { WebhookEndpointStore } from '../ports/WebhookEndpointStore.js';
import { viewOfEndpoint, type WebhookEndpointView } from '../webhooks/WebhookEndpoint.js';
import { findEndpoint } from './findEndpoint.js';

/** One webhook endpoint, never its secret; NotFoundError for an unknown id. */
export class GetWebhookEndpoint {
  constructor(private readonly store: WebhookEndpointStore) {}

  async execute(id: string): Promise<WebhookEndpointView> {
    return viewOfEndpoint(await findEndpoint(this.store, id));
  }
}
