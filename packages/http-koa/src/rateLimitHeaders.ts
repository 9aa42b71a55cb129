import { WINDOW_SECONDS, type RateLimitState } from '@petstore/core';
import type { Context } from 'koa';

const policies = new Map<string, string>();
let lastWindows: readonly { name: string; limit: number }[] = [];
let lastPolicy = '';

function sameWindows(windows: RateLimitState['windows']): boolean {
  if (windows.length !== lastWindows.length) return false;
  for (let i = 0; i < windows.length; i++) {
    if (windows[i]!.name !== lastWindows[i]!.name || windows[i]!.limit !== lastWindows[i]!.limit) return false;
  }
  return true;
}

/**
 * `"minute";q=60;w=60, "day";q=1000;w=86400`: the same few strings for every key of a plan, so built once, and the
 * last one answered again without building its lookup key (consecutive requests are mostly of the same plan).
 */
function policyOf(state: RateLimitState): string {
  if (sameWindows(state.windows)) return lastPolicy;
  let id = '';
  for (const w of state.windows) id += `${w.name}${w.limit};`;
  let policy = policies.get(id);
  if (policy === undefined) {
    policy = state.windows.map((w) => `"${w.name}";q=${w.limit};w=${WINDOW_SECONDS[w.name]}`).join(', ');
    if (policies.size < 10_000) policies.set(id, policy);
  }
  lastWindows = state.windows.map(({ name, limit }) => ({ name, limit }));
  lastPolicy = policy;
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
