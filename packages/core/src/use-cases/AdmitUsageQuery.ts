import type { ApiKey } from '../access/ApiKey.js';
import { DomainError } from '../errors/DomainError.js';
import { DEFAULT_FAILED_AUTH_PER_MINUTE, type Admission, type AdmitRequestInput } from './AdmitRequest.js';
import type { AuthenticateKey } from './AuthenticateKey.js';
import type { EnforceRateLimit } from './EnforceRateLimit.js';

export const DEFAULT_USAGE_QUERIES_PER_MINUTE = 60;

/**
 * Admission to the usage query (`GET /rate_limit`): authenticates the key like AdmitRequest (a failure
 * counts against the client's address), but counts the query in a bucket of its own (`usage:key:<id>`), so it
 * spends none of the key's quota and still answers while the key is rate limited or banned, yet cannot be used
 * to flood the service. The admission's `rateLimit` is that bucket's state.
 */
export class AdmitUsageQuery {
  constructor(
    private readonly authenticate: AuthenticateKey,
    private readonly enforceRateLimit: EnforceRateLimit,
    private readonly failedAuthPerMinute = DEFAULT_FAILED_AUTH_PER_MINUTE,
    private readonly queriesPerMinute = DEFAULT_USAGE_QUERIES_PER_MINUTE,
  ) {}

  async execute({ secret, clientAddress }: AdmitRequestInput): Promise<Admission> {
    let key: ApiKey;
    try {
      key = await this.authenticate.execute(secret);
    } catch (error) {
      if (DomainError.is(error) && error.code === 'unauthorized') {
        error.rateLimit = await this.enforceRateLimit.execute(`address:${clientAddress}`, { minute: this.failedAuthPerMinute });
      }
      throw error;
    }
    const rateLimit = await this.enforceRateLimit.execute(`usage:key:${key.id}`, { minute: this.queriesPerMinute });
    return { key, rateLimit };
  }
}
