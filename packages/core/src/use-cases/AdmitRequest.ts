import { limitsOf, type ApiKey } from '../access/ApiKey.js';
import type { RateLimitState } from '../access/RateLimitState.js';
import type { Scope } from '../access/Scope.js';
import { DomainError } from '../errors/DomainError.js';
import { InsufficientScopeError } from '../errors/InsufficientScopeError.js';
import type { Clock } from '../ports/Clock.js';
import type { AuthenticateCaller, CallerCredentials } from './AuthenticateCaller.js';
import type { EnforceRateLimit } from './EnforceRateLimit.js';
import type { RefundRequest } from './RefundRequest.js';
import type { KeyUsageRecorder } from './KeyUsageRecorder.js';

export interface Admission {
  key: ApiKey;
  rateLimit: RateLimitState;
  /**
   * Gives back what this admission counted. Call it when the request then fails because a dependency is down
   * (`service_unavailable`): an outage must not spend quota. Answers the state to show in the request's headers
   * then, or null when the count could not be given back (the rate-limit store is down too). Never throws.
   */
  release(): Promise<RateLimitState | null>;
}

export interface AdmissionRequest extends CallerCredentials {
  /**
   * The scope the operation needs: `pets:read` for the `GET` operations, `pets:write` for creating a pet; none for a
   * request that names no operation (an unknown path or method, answered 404 or 405 once admitted).
   */
  scope: Scope | undefined;
}

/**
 * Admission to every API operation: authenticates the caller, counts the request against its key's limits, then
 * checks the operation's scope. A request outside the key's scopes is counted like any other answered request
 * (InsufficientScopeError carries the state for the headers). The key's use is recorded in memory, no write: a
 * request counted, or one its rate limit refused.
 */
export class AdmitRequest {
  constructor(
    private readonly authenticateCaller: AuthenticateCaller,
    private readonly enforceRateLimit: EnforceRateLimit,
    private readonly refundRequest: RefundRequest,
    private readonly usage: KeyUsageRecorder,
    private readonly clock: Clock,
  ) {}

  async execute(request: AdmissionRequest): Promise<Admission> {
    const now = this.clock.now().getTime();
    const key = await this.authenticateCaller.execute(request, now);
    const { perMinute, perDay } = limitsOf(key);
    const subject = `key:${key.id}`;
    let rateLimit: RateLimitState;
    try {
      rateLimit = await this.enforceRateLimit.execute(subject, { minute: perMinute, day: perDay }, now, key.id);
    } catch (refused) {
      if (DomainError.is(refused) && (refused.code === 'rate_limited' || refused.code === 'key_banned')) this.usage.recordLimited(key.id, now);
      else this.usage.record(key.id, now, false);
      throw refused;
    }
    this.usage.record(key.id, now, true);
    if (request.scope !== undefined && !key.scopes.includes(request.scope)) throw new InsufficientScopeError(request.scope, rateLimit, key.id);
    return { key, rateLimit, release: () => this.refundRequest.execute(subject, rateLimit) };
  }
}
