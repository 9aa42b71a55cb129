export const PLANS = ['free', 'pro', 'business', 'enterprise'] as const;

export type Plan = (typeof PLANS)[number];

export interface RateLimits {
  perMinute: number;
  perDay: number;
}

/**
 * The largest limit a key may have: the rate-limit headers carry it as a structured field integer, which has at most
 * 15 digits (RFC 8941 section 3.3.1).
 */
export const MAX_RATE_LIMIT = 999_999_999_999_999;

/** The spec's table. Enterprise quotas are agreed per key and stored on the key. */
export const PLAN_LIMITS: Readonly<Record<Exclude<Plan, 'enterprise'>, RateLimits>> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
};

export function isPlan(value: unknown): value is Plan {
  return typeof value === 'string' && (PLANS as readonly string[]).includes(value);
}
