import { DomainError } from '../errors/DomainError.js';
import { InsufficientScopeError } from '../errors/InsufficientScopeError.js';
import type { Admission, AdmissionRequest } from './AdmitRequest.js';
import type { AuthenticateKey } from './AuthenticateKey.js';

/**
 * Checks an admitted request's key again, just before the operation runs (once a slow request body has arrived):
 * a revocation, disabling, expiry or scope change made meanwhile applies to it too, seen within the key cache's TTL.
 * Counts nothing (the request was counted at admission); an error carries the admission's rate-limit state.
 * Costs one hash and a cache hit.
 */
export class ConfirmAdmission {
  constructor(private readonly authenticate: AuthenticateKey) {}

  async execute(request: AdmissionRequest, admission: Admission): Promise<void> {
    let key;
    try {
      key = await this.authenticate.execute(request.secret);
    } catch (error) {
      if (DomainError.is(error) && (error.code === 'unauthorized' || error.code === 'key_expired' || error.code === 'key_disabled')) {
        error.rateLimit = admission.rateLimit;
      }
      throw error;
    }
    if (request.scope !== undefined && !key.scopes.includes(request.scope))
      throw new InsufficientScopeError(request.scope, admission.rateLimit, key.id);
  }
}
