import type { PurgedHistory, PurgeWebhookHistory } from '@petstore/core';

/** How often an instance purges: a tenth of the retention, between 1 s and a minute. */
export const purgeIntervalOf = (retentionMs: number): number => Math.min(60_000, Math.max(1_000, Math.round(retentionMs / 10)));

/** After a batch, the purge rests this many times as long as the batch took: it takes at most a tenth of the time. */
const REST_PER_BATCH_TIME = 9;
/** And at least this long, so that requests waiting for the database (SQLite's one writer) go first. */
const MIN_REST_MS = 10;

/**
 * Deletes the events, deliveries and attempts older than the retention, in the background: every `intervalMs`, batch
 * after batch until one is not full, resting after each nine times as long as it took (a batch is one short statement
 * per kind; on SQLite it runs on this thread, and requests wait meanwhile). A backlog is therefore deleted at a tenth of
 * the database's pace, and requests keep the rest. Every instance purges; on PostgreSQL they take different rows, on
 * SQLite they take turns as writers. A failed purge is reported and tried again at the next interval. Its timers keep
 * no process alive.
 */
export class HistoryPurger {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly purge: Pick<PurgeWebhookHistory, 'execute'>,
    private readonly intervalMs: number,
    private readonly onPurged: (purged: PurgedHistory) => void,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    if (this.stopped || this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.running = this.purgeAll().finally(() => {
        this.running = null;
        this.timer = null;
        this.start();
      });
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Stops purging; waits for the batch under way (the database closes after it). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    await this.running;
  }

  private rest(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms).unref());
  }

  private async purgeAll(): Promise<void> {
    const total: PurgedHistory = { events: 0, deliveries: 0, attempts: 0 };
    try {
      for (let more = true; more && !this.stopped;) {
        const started = performance.now();
        const { more: full, ...purged } = await this.purge.execute();
        total.events += purged.events;
        total.deliveries += purged.deliveries;
        total.attempts += purged.attempts;
        more = full;
        if (more) await this.rest(Math.max(MIN_REST_MS, REST_PER_BATCH_TIME * (performance.now() - started)));
      }
    } catch (error) {
      this.onError(error);
    }
    if (total.events + total.deliveries + total.attempts > 0) this.onPurged(total);
  }
}
