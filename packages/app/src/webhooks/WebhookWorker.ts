import type { DeliverWebhooks } from '@petstore/core';

export interface WorkerTimers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const nodeTimers: WorkerTimers = { setTimeout: (run, ms) => setTimeout(run, ms), clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout) };

/**
 * Runs the delivery rounds: at once when woken (a change committed in this process), else every `pollIntervalMs`
 * (changes made by other instances, retries falling due). A round that found work is followed by another at once;
 * rounds never overlap. A failing round (the database down) is reported and tried again at the next poll.
 */
export class WebhookWorker {
  private timer: unknown = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly deliver: Pick<DeliverWebhooks, 'execute'>,
    private readonly pollIntervalMs: number,
    private readonly onError: (error: unknown) => void,
    private readonly timers: WorkerTimers = nodeTimers,
  ) {}

  start(): void {
    this.wake();
  }

  /** Runs a round now, or right after the one under way. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    this.running = this.loop().finally(() => {
      this.running = null;
      if (this.stopped) return;
      if (this.again) this.wake();
      else this.timer = this.timers.setTimeout(() => this.wake(), this.pollIntervalMs);
    });
  }

  /** Stops polling and waits for the round under way (its attempts are recorded). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    await this.running;
  }

  private async loop(): Promise<void> {
    for (;;) {
      this.again = false;
      try {
        const { dispatched, attempts } = await this.deliver.execute();
        if (dispatched === 0 && attempts.length === 0 && !this.again) return;
      } catch (error) {
        this.onError(error);
        return;
      }
      if (this.stopped) return;
    }
  }
}
