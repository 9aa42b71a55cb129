import { parsePageQuery } from '../access/parsePageQuery.js';
import { encodePositionCursor } from '../access/PositionCursor.js';
import { ValidationError } from '../errors/ValidationError.js';
import type { DeliveryQueue } from '../ports/DeliveryQueue.js';
import type { WebhookEndpointStore } from '../ports/WebhookEndpointStore.js';
import type { DeliveryAttempt } from '../webhooks/Delivery.js';
import { findEndpoint } from './findEndpoint.js';

/** One attempt as the delivery log shows it (its instant as ISO 8601 text). */
export type DeliveryAttemptView = Omit<DeliveryAttempt, 'at' | 'id'> & { at: string };

/** The delivery log of one endpoint: every attempt, newest first, a page at a time (`limit`, `cursor`). */
export class ListWebhookDeliveries {
  constructor(
    private readonly store: WebhookEndpointStore,
    private readonly queue: DeliveryQueue,
  ) {}

  async execute(
    endpointId: string,
    input: Readonly<Record<string, unknown>> = {},
  ): Promise<{ attempts: DeliveryAttemptView[]; nextCursor: string | null }> {
    const endpoint = await findEndpoint(this.store, endpointId);
    const listing = `deliveries|${endpoint.id}`;
    const { query, problems } = parsePageQuery(input, listing);
    if (problems.length > 0) throw new ValidationError(problems);
    const found = await this.queue.listAttempts({ endpointId: endpoint.id, before: query.after, limit: query.limit + 1 });
    const page = found.slice(0, query.limit);
    const last = page.at(-1);
    return {
      attempts: page.map(({ id: _, at, ...attempt }) => ({ ...attempt, at: at.toISOString() })),
      nextCursor: found.length > query.limit && last ? encodePositionCursor(listing, last) : null,
    };
  }
}
