import { DomainError, type Admission, type AdmissionRequest, type PetStore, type Scope } from '@petstore/core';
import type { Context } from 'koa';
import { clientAddressOf } from '../clientAddress.js';
import { bearerSecret } from './bearerSecret.js';
import { HttpError } from '../HttpError.js';
import { headerCount } from './headerCount.js';
import type { Admission as AdmissionKind } from '../operations/Operation.js';
import { setRateLimitHeaders } from '../rateLimitHeaders.js';

/**
 * Authenticates a request and counts it (with the use case its operation declares), and sets the limit headers.
 * The admission it answers can give its count back (`release`) when a dependency then refuses the request.
 */
export type Admit = (ctx: Context, kind: Exclude<AdmissionKind, 'none' | 'admin-token'>, scope: Scope | undefined) => Promise<Admission>;

/**
 * Checks an admitted request's key once more, counting nothing (after a slow body: a key revoked, disabled, expired
 * or narrowed meanwhile refuses the request, seen within the key cache's TTL).
 */
export type Confirm = (ctx: Context, scope: Scope | undefined, admitted: Admission) => Promise<void>;

/** Gives an admitted request's count back (a dependency then refused it) and shows the quota that leaves. */
export type Refund = (ctx: Context, admitted: Admission) => Promise<void>;

/**
 * Admission of every request in scope: `counted` with AdmitRequest, `usage-query` with AdmitUsageQuery. Repeated
 * Authorization headers are refused (400), and counted as a failed authentication of the address.
 */
export function admission(
  store: Pick<PetStore, 'admitRequest' | 'admitUsageQuery' | 'confirmAdmission' | 'clock'>,
  trustedProxyHops: number,
): { admit: Admit; confirm: Confirm; refund: Refund } {
  const admitters = { counted: store.admitRequest, 'usage-query': store.admitUsageQuery };
  const setHeaders = (ctx: Context, admission: Pick<Admission, 'rateLimit'>) =>
    setRateLimitHeaders(ctx, admission.rateLimit, store.clock.now().getTime());

  const requestOf = (ctx: Context, scope: Scope | undefined): AdmissionRequest => ({
    secret: bearerSecret(ctx.get('Authorization')),
    clientAddress: clientAddressOf(ctx, trustedProxyHops),
    scope,
  });

  const admit: Admit = async (ctx, kind, scope) => {
    const credentials = requestOf(ctx, scope);
    if (headerCount(ctx.req.rawHeaders, 'authorization') > 1) {
      // Counted as a failed authentication of the address (so it cannot be used to probe for free), answered 400.
      const refused = await admitters[kind].execute({ ...credentials, secret: null }).then(
        () => null,
        (error: unknown) => error,
      );
      if (!DomainError.is(refused) || refused.code !== 'unauthorized') throw refused;
      if (refused.rateLimit) setHeaders(ctx, { rateLimit: refused.rateLimit });
      throw new HttpError('bad_request', 'Send one Authorization header, not several.');
    }
    const admitted = await admitters[kind].execute(credentials);
    ctx.state['keyId'] = admitted.key.id;
    setHeaders(ctx, admitted);
    return admitted;
  };
  const confirm: Confirm = (ctx, scope, admitted) => store.confirmAdmission.execute(requestOf(ctx, scope), admitted);
  const refund: Refund = async (ctx, admitted) => {
    const rateLimit = await admitted.release();
    if (rateLimit) setHeaders(ctx, { rateLimit });
  };
  return { admit, confirm, refund };
}
