import type { ApiKey } from '../access/ApiKey.js';
import { DomainError } from '../errors/DomainError.js';
import type { AuthenticateKey } from './AuthenticateKey.js';
import type { EnforceRateLimit } from './EnforceRateLimit.js';

export interface CallerCredentials {
  /** The bearer token: undefined when none was sent, null when one was sent in another form than `Bearer`. */
  secret: string | null | undefined;
  /** The client's address, for the failed-authentication limit. */
  clientAddress: string;
}

export const DEFAULT_FAILED_AUTH_PER_MINUTE = 60;

/**
 * Authenticates the caller's key. A failed authentication (unauthorized, key_expired, key_disabled) is counted
 * against the client's address instead (so guessing keys is rate limited), and the error carries that address
 * bucket's state for the headers.
 */
export class AuthenticateCaller {
  constructor(
    private readonly authenticate: AuthenticateKey,
    private readonly enforceRateLimit: EnforceRateLimit,
    private readonly failedAuthPerMinute = DEFAULT_FAILED_AUTH_PER_MINUTE,
  ) {}

  /** `now` (epoch ms): the request's clock reading, when the caller has one. */
  async execute({ secret, clientAddress }: CallerCredentials, now?: number): Promise<ApiKey> {
    try {
      return await this.authenticate.execute(secret, now);
    } catch (error) {
      if (DomainError.is(error) && (error.code === 'unauthorized' || error.code === 'key_expired' || error.code === 'key_disabled')) {
        error.rateLimit = await this.enforceRateLimit.execute(`address:${clientAddress}`, { minute: this.failedAuthPerMinute }, now);
      }
      throw error;
    }
  }
}
