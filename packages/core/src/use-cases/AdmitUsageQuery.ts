import type { Admission } from './AdmitRequest.js';
import type { AuthenticateCaller, CallerCredentials } from './AuthenticateCaller.js';
import type { EnforceRateLimit } from './EnforceRateLimit.js';
import type { RefundRequest } from './RefundRequest.js';

export const DEFAULT_USAGE_QUERIES_PER_MINUTE = 60;

/**
 * Admission to the usage query (`GET /rate_limit`): authenticates the caller like AdmitRequest, but counts the
 * query in a bucket of its own (`usage:key:<id>`), so it spends none of the key's quota and still answers while the
 * key is rate limited or banned, yet cannot be used to flood the service. The admission's `rateLimit` is that
 * bucket's state.
 */
export class AdmitUsageQuery {
  constructor(
    private readonly authenticateCaller: AuthenticateCaller,
    private readonly enforceRateLimit: EnforceRateLimit,
    private readonly refundRequest: RefundRequest,
    private readonly queriesPerMinute = DEFAULT_USAGE_QUERIES_PER_MINUTE,
  ) {}

  async execute(credentials: CallerCredentials): Promise<Admission> {
    const key = await this.authenticateCaller.execute(credentials);
    const subject = `usage:key:${key.id}`;
    const rateLimit = await this.enforceRateLimit.execute(subject, { minute: this.queriesPerMinute });
    return { key, rateLimit, release: () => this.refundRequest.execute(subject, rateLimit) };
  }
}
