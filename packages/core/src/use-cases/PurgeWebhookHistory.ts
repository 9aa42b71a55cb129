import type { Clock } from '../ports/Clock.js';
import type { PurgedHistory, WebhookHistory } from '../ports/WebhookHistory.js';

/** How long events, deliveries and attempts are kept by default: 30 days, as Stripe keeps its events. */
export const DEFAULT_EVENT_RETENTION_MS = 30 * 86_400_000;

/** Rows of each kind one batch deletes at most: a few milliseconds of the database's time. */
export const PURGE_BATCH_SIZE = 200;

/**
 * Deletes one batch of the events, deliveries and attempts older than the retention (an event still owed to an
 * endpoint is kept). `more` says a batch was full: call again (after letting other work run) until it is not.
 */
export class PurgeWebhookHistory {
  constructor(
    private readonly history: WebhookHistory,
    private readonly clock: Clock,
    readonly retentionMs = DEFAULT_EVENT_RETENTION_MS,
    private readonly batchSize = PURGE_BATCH_SIZE,
  ) {
    if (!Number.isSafeInteger(retentionMs) || retentionMs <= 0)
      throw new RangeError(`event retention must be a positive number of ms (got ${retentionMs})`);
  }

  async execute(): Promise<PurgedHistory & { more: boolean }> {
    const purged = await this.history.purge(new Date(this.clock.now().getTime() - this.retentionMs), this.batchSize);
    return { ...purged, more: Math.max(purged.events, purged.deliveries, purged.attempts) >= this.batchSize };
  }
}
