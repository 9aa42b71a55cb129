import type { DeliverWebhooks } from '@petstore/core';

export interface WorkerTimers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const nodeTimers: WorkerTimers = { setTimeout: (run, ms) => setTimeout(run, ms), clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout) };

/**
 * Runs the delivery rounds, one at a time: one within 50 ms of a change committed in this process or of an attempt
 * ending (its endpoint may take another), else every `pollIntervalMs` (changes made by other instances, retries
 * falling due). A round that filled a batch is followed by another at once. A round starts its attempts and ends
 * without waiting for them, so a receiver slow to answer (up to the timeout) holds up nothing else. A failing round
 * (the database down) is reported and tried again at the next poll.
 */
export class WebhookWorker {
  private timer: unknown = null;
  private soon: unknown = null;
  private round: Promise<void> | null = null;
  private readonly attempts = new Set<Promise<unknown>>();
  private pending = false;
  private stopped = false;

  constructor(
    private readonly deliver: Pick<DeliverWebhooks, 'execute'>,
    private readonly pollIntervalMs: number,
    private readonly onError: (error: unknown) => void,
    private readonly timers: WorkerTimers = nodeTimers,
    private readonly coalesceMs = 50,
  ) {}

  start(): void {
    this.wake();
  }

  /**
   * A change was committed here (or an attempt ended): a round runs within `coalesceMs`, for it and what happened
   * meanwhile. Not at once: the request that made the change is answered first, and one round for the changes of
   * 50 ms costs the requests served meanwhile less than a round per change (`pnpm bench --webhooks`).
   */
  changed(): void {
    if (this.stopped || this.soon !== null) return;
    this.soon = this.timers.setTimeout(() => {
      this.soon = null;
      this.wake();
    }, this.coalesceMs);
  }

  /** Runs a round now, or as soon as the one under way ends. */
  wake(): void {
    if (this.stopped) return;
    if (this.round !== null) {
      this.pending = true;
      return;
    }
    this.pending = false;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    this.round = this.run().then((more) => {
      this.round = null;
      if (this.stopped) return;
      if (more || this.pending) this.wake();
      else if (this.timer === null) this.timer = this.timers.setTimeout(() => this.wake(), this.pollIntervalMs);
    });
  }

  /** Stops polling and waits for the round and the attempts under way (each ends by its deadline and is recorded). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    if (this.soon !== null) this.timers.clearTimeout(this.soon);
    await this.round;
    await Promise.all(this.attempts);
  }

  /** Whether more work may be waiting. */
  private async run(): Promise<boolean> {
    try {
      const { started, more } = await this.deliver.execute();
      for (const attempt of started) {
        const tracked: Promise<unknown> = attempt.then(
          () => this.ended(tracked),
          (error: unknown) => {
            this.onError(error);
            this.ended(tracked);
          },
        );
        this.attempts.add(tracked);
      }
      return more;
    } catch (error) {
      this.onError(error);
      return false;
    }
  }

  private ended(attempt: Promise<unknown>): void {
    this.attempts.delete(attempt);
    this.changed();
  }
}
