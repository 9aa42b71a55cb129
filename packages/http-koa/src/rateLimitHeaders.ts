import { WINDOW_SECONDS, type RateLimitState } from '@petstore/core';
import type { Context } from 'koa';

/** `"minute";q=60;w=60, "day";q=1000;w=86400`: every window of the key's plan (or its own limits). */
function policyOf(state: RateLimitState): string {
  let policy = '';
  for (const w of state.windows) policy += `${policy === '' ? '' : ', '}"${w.name}";q=${w.limit};w=${WINDOW_SECONDS[w.name]}`;
  return policy;
}

/**
 * `X-RateLimit-*` for the binding window, plus the IETF draft's structured `RateLimit-Policy` and `RateLimit`
 * (draft-ietf-httpapi-ratelimit-headers) describing every window.
 */
export function setRateLimitHeaders(ctx: Context, state: RateLimitState, nowMs: number): void {
  const now = Math.floor(nowMs / 1000);
  ctx.set('X-RateLimit-Limit', String(state.limit));
  ctx.set('X-RateLimit-Remaining', String(state.remaining));
  ctx.set('X-RateLimit-Reset', String(state.reset));
  ctx.set('RateLimit-Policy', policyOf(state));
  let current = '';
  for (const w of state.windows) current += `${current === '' ? '' : ', '}"${w.name}";r=${w.remaining};t=${Math.max(0, w.reset - now)}`;
  ctx.set('RateLimit', current);
}
