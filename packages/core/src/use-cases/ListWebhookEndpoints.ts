import { parsePageQuery } from '../access/parsePageQuery.js';
import { encodePositionCursor, type Position } from '../access/PositionCursor.js';
import { ValidationError } from '../errors/ValidationError.js';
import type { WebhookEndpointStore } from '../ports/WebhookEndpointStore.js';
import { viewOfEndpoint, type WebhookEndpointView } from '../webhooks/WebhookEndpoint.js';

const LISTING = 'webhook-endpoints';

/** The webhook endpoints, oldest first, a page at a time (`limit`, `cursor`); never a secret. */
export class ListWebhookEndpoints {
  constructor(private readonly store: WebhookEndpointStore) {}

  /** The cursor of the page after the endpoint created at `position` (its `createdAt` and id). */
  static cursorAt(position: Position): string {
    return encodePositionCursor(LISTING, position);
  }

  async execute(input: Readonly<Record<string, unknown>> = {}): Promise<{ endpoints: WebhookEndpointView[]; nextCursor: string | null }> {
    const { query, problems } = parsePageQuery(input, LISTING);
    if (problems.length > 0) throw new ValidationError(problems);
    const found = await this.store.list({ after: query.after, limit: query.limit + 1 });
    const page = found.slice(0, query.limit);
    const last = page.at(-1);
    return {
      endpoints: page.map(viewOfEndpoint),
      nextCursor: found.length > query.limit && last ? ListWebhookEndpoints.cursorAt({ at: last.createdAt, id: last.id }) : null,
    };
  }
}
