import { limitsOf, type ApiKey } from '../access/ApiKey.js';
import type { RateLimitState } from '../access/RateLimitState.js';
import { DomainError } from '../errors/DomainError.js';
import type { AuthenticateKey } from './AuthenticateKey.js';
import type { EnforceRateLimit } from './EnforceRateLimit.js';

export interface Admission {
  key: ApiKey;
  rateLimit: RateLimitState;
}

export interface AdmitRequestInput {
  /** The bearer token; undefined when no credential was sent, null when one was sent but not as a bearer token. */
  secret: string | null | undefined;
  /** The client's address, for the failed-authentication limit. */
  clientAddress: string;
}

export const DEFAULT_FAILED_AUTH_PER_MINUTE = 60;

/**
 * Admission to every API operation: authenticates the key and counts the request against its plan.
 * A failed authentication is counted against the client's address instead (so guessing keys is rate limited),
 * and the resulting UnauthorizedError carries that address bucket's state for the headers.
 */
export class AdmitRequest {
  constructor(
    private readonly authenticate: AuthenticateKey,
    private readonly enforceRateLimit: EnforceRateLimit,
    private readonly failedAuthPerMinute = DEFAULT_FAILED_AUTH_PER_MINUTE,
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
    const { perMinute, perDay } = limitsOf(key);
    const rateLimit = await this.enforceRateLimit.execute(`key:${key.id}`, { minute: perMinute, day: perDay });
    return { key, rateLimit };
  }
}
