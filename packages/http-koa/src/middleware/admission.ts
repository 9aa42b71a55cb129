import { DomainError, type Admission, type AdmissionRequest, type Clock, type Scope } from '@petstore/core';
import type { Middleware } from 'koa';
import { clientAddressOf } from '../clientAddress.js';
import { HttpError } from '../HttpError.js';
import { setRateLimitHeaders } from '../rateLimitHeaders.js';

const BEARER = /^bearer +([^ ]+) *$/i;

/**
 * The bearer secret of `Authorization: Bearer <key>` (scheme case-insensitive). Any other non-empty value, a bare
 * key included, is null: a credential in another form, which core rejects as invalid (RFC 6750 requires the
 * scheme). Absence stays undefined ("missing").
 */
function bearerSecret(header: string): string | null | undefined {
  if (header === '') return undefined;
  return BEARER.exec(header)?.[1] ?? null;
}

/** Node keeps the first of repeated Authorization headers and drops the others silently: count them in the raw list. */
function authorizationHeaderCount(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 13 && name.toLowerCase() === 'authorization') count++; // lower-cases only same-length names
  }
  return count;
}

/** What admits a request: `AdmitRequest` for the operations, `AdmitUsageQuery` for `GET /rate_limit`. */
interface Admitter {
  execute(input: AdmissionRequest): Promise<Admission>;
}

/** Interim (issue 25): creating a pet needs `pets:write`, every other operation `pets:read`. */
const scopeOf = (method: string): Scope => (method === 'POST' ? 'pets:write' : 'pets:read');

/**
 * Authenticates and rate-limits every request in scope (with the given use case), and puts the limit headers on its
 * response. Repeated Authorization headers are refused, and counted as a failed authentication of the address.
 */
export function admission(admitter: Admitter, clock: Clock, trustedProxyHops = 0): Middleware {
  return async function admit(ctx, next) {
    const clientAddress = clientAddressOf(ctx, trustedProxyHops);
    if (authorizationHeaderCount(ctx.req.rawHeaders) > 1) {
      // Counted as a failed authentication of the address (so it cannot be used to probe for free), answered 400.
      const refused = await admitter.execute({ secret: null, clientAddress, scope: scopeOf(ctx.method) }).then(
        () => null,
        (error: unknown) => error,
      );
      if (!DomainError.is(refused) || refused.code !== 'unauthorized') throw refused;
      if (refused.rateLimit) setRateLimitHeaders(ctx, refused.rateLimit, clock.now().getTime());
      throw new HttpError('bad_request', 'Send one Authorization header, not several.');
    }
    const { key, rateLimit } = await admitter.execute({ secret: bearerSecret(ctx.get('Authorization')), clientAddress, scope: scopeOf(ctx.method) });
    ctx.state['keyId'] = key.id;
    setRateLimitHeaders(ctx, rateLimit, clock.now().getTime());
    await next();
  };
}
