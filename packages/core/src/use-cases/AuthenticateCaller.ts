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
 * Authenticates the caller's key. A failed authentication is counted against the client's address instead (so
 * guessing keys is rate limited), and the UnauthorizedError carries that address bucket's state for the headers.
 */
export class AuthenticateCaller {
  constructor(
    private readonly authenticate: AuthenticateKey,
    private readonly enforceRateLimit: EnforceRateLimit,
    private readonly failedAuthPerMinute = DEFAULT_FAILED_AUTH_PER_MINUTE,
  ) {}

  async execute({ secret, clientAddress }: CallerCredentials): Promise<ApiKey> {
    try {
      return await this.authenticate.execute(secret);
    } catch (error) {
      if (DomainError.is(error) && error.code === 'unauthorized') {
        error.rateLimit = await this.enforceRateLimit.execute(`address:${clientAddress}`, { minute: this.failedAuthPerMinute });
      }
      throw error;
    }
  }
}
