import type { AdmitRequest, AdmitUsageQuery, Clock } from '@petstore/core';
import type { Middleware } from 'koa';
import { setRateLimitHeaders } from '../rateLimitHeaders.js';

const BEARER = /^bearer +([^ ]+) *$/i;

/**
 * The bearer secret of `Authorization: Bearer <key>` (scheme case-insensitive). Any other non-empty value is
 * passed on whole, so core rejects it as a malformed key; absence stays undefined ("missing").
 */
function bearerSecret(header: string): string | undefined {
  if (header === '') return undefined;
  return BEARER.exec(header)?.[1] ?? header;
}

/** Authenticates and rate-limits every request in scope, and puts the limit headers on its response. */
export function admission(admitRequest: AdmitRequest, clock: Clock): Middleware {
  return async function admit(ctx, next) {
    const { key, rateLimit } = await admitRequest.execute({ secret: bearerSecret(ctx.get('Authorization')), clientAddress: ctx.ip });
    ctx.state['keyId'] = key.id;
    setRateLimitHeaders(ctx, rateLimit, clock.now().getTime());
    await next();
  };
}

/**
 * Authenticates a usage query and counts it in its own bucket, whose state the headers show until the route
 * replaces them with the key's quota.
 */
export function usageQueryAdmission(admitUsageQuery: AdmitUsageQuery, clock: Clock): Middleware {
  return async function admitQuery(ctx, next) {
    const { key, rateLimit } = await admitUsageQuery.execute({ secret: bearerSecret(ctx.get('Authorization')), clientAddress: ctx.ip });
    ctx.state['keyId'] = key.id;
    setRateLimitHeaders(ctx, rateLimit, clock.now().getTime());
    await next();
  };
}
