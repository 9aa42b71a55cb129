import { WINDOW_SECONDS, type RateLimitState } from '@petstore/core';
import type { Context } from 'koa';

/**
 * `X-RateLimit-*` for the binding window, plus the IETF draft's structured `RateLimit-Policy` and `RateLimit`
 * (draft-ietf-httpapi-ratelimit-headers) describing every window.
 */
export function setRateLimitHeaders(ctx: Context, state: RateLimitState, nowMs: number): void {
  const now = Math.floor(nowMs / 1000);
  ctx.set('X-RateLimit-Limit', String(state.limit));
  ctx.set('X-RateLimit-Remaining', String(state.remaining));
  ctx.set('X-RateLimit-Reset', String(state.reset));
  ctx.set('RateLimit-Policy', state.windows.map((w) => `"${w.name}";q=${w.limit};w=${WINDOW_SECONDS[w.name]}`).join(', '));
  ctx.set('RateLimit', state.windows.map((w) => `"${w.name}";r=${w.remaining};t=${Math.max(0, w.reset - now)}`).join(', '));
}
