import { limitsOf, type ApiKey } from '../access/ApiKey.js';
import type { RateLimitState } from '../access/RateLimitState.js';
import type { AuthenticateCaller, CallerCredentials } from './AuthenticateCaller.js';
import type { EnforceRateLimit } from './EnforceRateLimit.js';

export interface Admission {
  key: ApiKey;
  rateLimit: RateLimitState;
}

/** Admission to every API operation: authenticates the caller and counts the request against its key's plan. */
export class AdmitRequest {
  constructor(
    private readonly authenticateCaller: AuthenticateCaller,
    private readonly enforceRateLimit: EnforceRateLimit,
  ) {}

  async execute(credentials: CallerCredentials): Promise<Admission> {
    const key = await this.authenticateCaller.execute(credentials);
    const { perMinute, perDay } = limitsOf(key);
    const rateLimit = await this.enforceRateLimit.execute(`key:${key.id}`, { minute: perMinute, day: perDay });
    return { key, rateLimit };
  }
}
