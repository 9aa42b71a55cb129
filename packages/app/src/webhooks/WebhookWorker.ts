import type { DeliverWebhooks } from '@petstore/core';

export interface WorkerTimers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const nodeTimers: WorkerTimers = { setTimeout: (run, ms) => setTimeout(run, ms), clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout) };

/**
 * Runs the delivery rounds: one within 50 ms of a change committed in this process, else every `pollIntervalMs`
 * (changes made by other instances, retries falling due). A round that filled a batch is followed by another at once.
 * Up to `maxRounds` run side by side, so that a receiver slow to answer (up to the timeout) holds up only the round
 * its delivery is in. A failing round (the database down) is reported and tried again at the next poll.
 */
export class WebhookWorker {
  private timer: unknown = null;
  private soon: unknown = null;
  private readonly rounds = new Set<Promise<void>>();
  private pending = false;
  private stopped = false;

  constructor(
    private readonly deliver: Pick<DeliverWebhooks, 'execute'>,
    private readonly pollIntervalMs: number,
    private readonly onError: (error: unknown) => void,
    private readonly maxRounds = 4,
    private readonly timers: WorkerTimers = nodeTimers,
    private readonly coalesceMs = 50,
  ) {}

  start(): void {
    this.wake();
  }

  /**
   * A change was committed here: a round runs within `coalesceMs`, for it and the changes committed meanwhile. Not at
   * once: the request that made the change is answered first, and one round for the changes of 50 ms costs the
   * requests served meanwhile less than a round per change (`pnpm bench --webhooks`, docs/performance.md).
   */
  changed(): void {
    if (this.stopped || this.soon !== null) return;
    this.soon = this.timers.setTimeout(() => {
      this.soon = null;
      this.wake();
    }, this.coalesceMs);
  }

  /** Runs a round now, or as soon as one of those under way ends. */
  wake(): void {
    if (this.stopped) return;
    if (this.rounds.size >= this.maxRounds) {
      this.pending = true;
      return;
    }
    this.pending = false;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    const round: Promise<void> = this.round().then((more) => {
      this.rounds.delete(round);
      if (this.stopped) return;
      if (more || this.pending) this.wake();
      else if (this.timer === null) this.timer = this.timers.setTimeout(() => this.wake(), this.pollIntervalMs);
    });
    this.rounds.add(round);
  }

  /** Stops polling and waits for the rounds under way (their attempts are recorded). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    if (this.soon !== null) this.timers.clearTimeout(this.soon);
    await Promise.all(this.rounds);
  }

  /** Whether more work may be waiting. */
  private async round(): Promise<boolean> {
    try {
      return (await this.deliver.execute()).more;
    } catch (error) {
      this.onError(error);
      return false;
    }
  }
}
