import { limitsOf, type ApiKey } from '../access/ApiKey.js';
import type { RateLimitState } from '../access/RateLimitState.js';
import type { AuthenticateCaller, CallerCredentials } from './AuthenticateCaller.js';
import type { EnforceRateLimit } from './EnforceRateLimit.js';
import type { RefundRequest } from './RefundRequest.js';

export interface Admission {
  key: ApiKey;
  rateLimit: RateLimitState;
  /**
   * Gives back what this admission counted. Call it when the request then fails because a dependency is down
   * (`service_unavailable`): an outage must not spend quota. Never throws.
   */
  release(): Promise<void>;
}

/** Admission to every API operation: authenticates the caller and counts the request against its key's plan. */
export class AdmitRequest {
  constructor(
    private readonly authenticateCaller: AuthenticateCaller,
    private readonly enforceRateLimit: EnforceRateLimit,
    private readonly refundRequest: RefundRequest,
  ) {}

  async execute(credentials: CallerCredentials): Promise<Admission> {
    const key = await this.authenticateCaller.execute(credentials);
    const { perMinute, perDay } = limitsOf(key);
    const subject = `key:${key.id}`;
    const rateLimit = await this.enforceRateLimit.execute(subject, { minute: perMinute, day: perDay });
    return { key, rateLimit, release: () => this.refundRequest.execute(subject, rateLimit) };
  }
}
