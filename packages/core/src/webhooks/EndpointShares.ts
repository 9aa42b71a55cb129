import type { DeliveryResult } from '../ports/WebhookSender.js';

export interface ShareOptions {
  /**
   * Attempts under way to one endpoint at most, once it has answered that many times in a row (default 16: a round
   * runs every 50 to 100 ms under load, and a busy endpoint needs more than 8 a round to take 100 events a second).
   */
  maxInFlight: number;
  /** The first pause after a failure (default 1 s); each failure in a row doubles it, up to `maxPauseMs` (default 60 s). */
  pauseMs: number;
  maxPauseMs: number;
}

export const DEFAULT_SHARE_OPTIONS: ShareOptions = { maxInFlight: 16, pauseMs: 1_000, maxPauseMs: 60_000 };

interface Share {
  inFlight: number;
  /** Deliveries taken in a row: the endpoint may have one more than this under way (a slow start). */
  streak: number;
  /** Failures in a row; while above 0, one attempt at a time, after a pause. */
  failures: number;
  pausedUntil: number;
}

/**
 * Each endpoint's share of one process's delivery work, so that no endpoint, however many fail or hang, holds up
 * another: an endpoint has one attempt under way at first and one more with each delivery it takes in a row (up to
 * `maxInFlight`); after a failure it has one at a time, after a pause that doubles with each failure in a row.
 * Kept in memory: one entry per endpoint this process has attempted, dropped once it is deleted or disabled.
 */
export class EndpointShares {
  private readonly shares = new Map<string, Share>();

  constructor(private readonly options: ShareOptions = DEFAULT_SHARE_OPTIONS) {}

  /** The share of an endpoint not listed in `slots`: one never attempted by this process. */
  readonly perEndpoint = 1;

  /** How many more attempts each endpoint listed may start now (none while paused). */
  at(now: Date): Map<string, number> {
    const slots = new Map<string, number>();
    for (const [endpointId, share] of this.shares)
      slots.set(endpointId, share.pausedUntil > now.getTime() ? 0 : Math.max(0, this.limitOf(share) - share.inFlight));
    return slots;
  }

  started(endpointId: string): void {
    const share = this.shares.get(endpointId) ?? { inFlight: 0, streak: 0, failures: 0, pausedUntil: 0 };
    share.inFlight += 1;
    this.shares.set(endpointId, share);
  }

  /**
   * An attempt ended with `result`; null when nothing was sent (the endpoint deleted or disabled meanwhile). Answers
   * the end of the pause that a failure starts, null otherwise.
   */
  ended(endpointId: string, result: DeliveryResult | null, now: Date): Date | null {
    const share = this.shares.get(endpointId);
    if (!share) return null;
    share.inFlight -= 1;
    if (result === 'delivered') {
      share.failures = 0;
      share.streak += 1;
    } else if (result === 'retry') {
      share.failures += 1;
      share.streak = 0;
      const pause = Math.min(this.options.maxPauseMs, this.options.pauseMs * 2 ** Math.min(share.failures - 1, 30));
      share.pausedUntil = now.getTime() + pause;
    }
    // Deleted or disabled: nothing more will be sent to it.
    if (share.inFlight === 0 && (result === null || result === 'refused')) this.shares.delete(endpointId);
    return result === 'retry' ? new Date(share.pausedUntil) : null;
  }

  private limitOf(share: Share): number {
    return share.failures > 0 ? 1 : Math.min(this.options.maxInFlight, 1 + share.streak);
  }
}
