import { WINDOW_SECONDS, withOneGivenBack, type RateLimitState } from '../access/RateLimitState.js';
import { DomainError } from '../errors/DomainError.js';
import type { Clock } from '../ports/Clock.js';
import type { RateLimitStore } from '../ports/RateLimitStore.js';

/**
 * Gives back the count of an admitted request that then failed because a dependency was down (`service_unavailable`),
 * so an outage spends no quota. The windows are the ones the admission counted in (named by their reset, so a refund
 * that lands after a window turned never credits the next one). Answers the state the request's rate-limit headers
 * should then show. When the rate-limit store is down too, the count stays and the answer is null: nothing is
 * thrown, since the request already has its answer.
 */
export class RefundRequest {
  constructor(
    private readonly store: RateLimitStore,
    private readonly clock: Clock,
  ) {}

  async execute(subject: string, counted: RateLimitState): Promise<RateLimitState | null> {
    const windows = counted.windows.map((window) => {
      const resetAt = window.reset * 1000;
      return { name: window.name, start: resetAt - WINDOW_SECONDS[window.name] * 1000, resetAt, limit: window.limit };
    });
    try {
      await this.store.release({ subject, now: this.clock.now().getTime(), windows });
    } catch (error) {
      if (!DomainError.is(error) || error.code !== 'service_unavailable') throw error;
      return null;
    }
    return withOneGivenBack(counted);
  }
}
