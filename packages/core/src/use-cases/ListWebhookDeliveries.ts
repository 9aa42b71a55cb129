import { parsePageQuery } from '../access/parsePageQuery.js';
import { encodePositionCursor, type Position } from '../access/PositionCursor.js';
import { NotFoundError } from '../errors/NotFoundError.js';
import { ValidationError } from '../errors/ValidationError.js';
import type { DeliveryQueue } from '../ports/DeliveryQueue.js';
import type { WebhookEndpointStore } from '../ports/WebhookEndpointStore.js';
import type { LoggedAttempt } from '../webhooks/Delivery.js';
import { isEndpointId } from '../webhooks/WebhookEndpoint.js';

/** A cursor continues the listing it came from: one endpoint's log. */
const listingOf = (endpointId: string) => `deliveries|${endpointId}`;

const notFound = (id: string) => new NotFoundError(`No webhook endpoint with id ${id}.`);

/** One attempt as the delivery log shows it (its instants as ISO 8601 text). */
export type DeliveryAttemptView = Omit<LoggedAttempt, 'at' | 'id' | 'nextAttemptAt'> & { at: string; nextAttemptAt: string | null };

/**
 * The delivery log of one endpoint: every attempt, newest first, a page at a time (`limit`, `cursor`). The log of a
 * deleted endpoint stays readable; an id with neither an endpoint nor any attempt is NotFoundError.
 */
export class ListWebhookDeliveries {
  constructor(
    private readonly store: WebhookEndpointStore,
    private readonly queue: DeliveryQueue,
  ) {}

  /** The cursor of the page after the attempt at `position` (its `at` and id) in the delivery log of `endpointId`. */
  static cursorAt(endpointId: string, position: Position): string {
    return encodePositionCursor(listingOf(endpointId), position);
  }

  async execute(
    endpointId: string,
    input: Readonly<Record<string, unknown>> = {},
  ): Promise<{ attempts: DeliveryAttemptView[]; nextCursor: string | null }> {
    if (!isEndpointId(endpointId)) throw notFound(endpointId);
    // A deleted endpoint is known by its attempts.
    const known = (await this.store.findById(endpointId)) ?? (await this.queue.listAttempts({ endpointId, before: null, limit: 1 })).at(0);
    if (!known) throw notFound(endpointId);
    const { query, problems } = parsePageQuery(input, listingOf(endpointId));
    if (problems.length > 0) throw new ValidationError(problems);
    const found = await this.queue.listAttempts({ endpointId, before: query.after, limit: query.limit + 1 });
    const page = found.slice(0, query.limit);
    const last = page.at(-1);
    return {
      attempts: page.map(({ id: _, at, nextAttemptAt, ...attempt }) => ({
        ...attempt,
        at: at.toISOString(),
        nextAttemptAt: nextAttemptAt?.toISOString() ?? null,
      })),
      nextCursor: found.length > query.limit && last ? ListWebhookDeliveries.cursorAt(endpointId, last) : null,
    };
  }
}
