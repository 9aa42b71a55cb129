import type { Clock } from '../ports/Clock.js';
import type { Admission } from './AdmitRequest.js';
import type { AuthenticateCaller, CallerCredentials } from './AuthenticateCaller.js';
import type { EnforceRateLimit } from './EnforceRateLimit.js';
import type { RefundRequest } from './RefundRequest.js';
import type { KeyUsageRecorder } from './KeyUsageRecorder.js';

export const DEFAULT_USAGE_QUERIES_PER_MINUTE = 60;

/**
 * Admission to the usage query (`GET /rate_limit`): authenticates the caller like AdmitRequest, but counts the
 * query in a bucket of its own (`usage:key:<id>`), so it spends none of the key's quota and still answers while the
 * key is rate limited or banned, yet cannot be used to flood the service. Any valid key may ask, whatever its
 * scopes. The admission's `rateLimit` is that bucket's state. The query is a use of the key (its last use moves),
 * not a request counted in its usage per day.
 */
export class AdmitUsageQuery {
  constructor(
    private readonly authenticateCaller: AuthenticateCaller,
    private readonly enforceRateLimit: EnforceRateLimit,
    private readonly refundRequest: RefundRequest,
    private readonly usage: KeyUsageRecorder,
    private readonly clock: Clock,
    private readonly queriesPerMinute = DEFAULT_USAGE_QUERIES_PER_MINUTE,
  ) {}

  async execute(credentials: CallerCredentials): Promise<Admission> {
    const now = this.clock.now().getTime();
    const key = await this.authenticateCaller.execute(credentials, now);
    this.usage.record(key.id, now, false);
    const subject = `usage:key:${key.id}`;
    const rateLimit = await this.enforceRateLimit.execute(subject, { minute: this.queriesPerMinute }, now, key.id);
    return { key, rateLimit, release: () => this.refundRequest.execute(subject, rateLimit) };
  }
}
