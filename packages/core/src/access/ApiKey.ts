import { PLAN_LIMITS, type Plan, type RateLimits } from './Plan.js';
import type { Scope } from './Scope.js';

/** Per-key limits that replace the plan's; null keeps the plan's. Enterprise keys have both (the plan has none). */
export interface LimitOverrides {
  perMinute: number | null;
  perDay: number | null;
}

/**
 * An API key as stored: never a secret, only the SHA-256 hashes of its current secret and (after a rotation) of
 * its previous one, kept beside this record by the KeyStore.
 */
export interface ApiKey {
  id: string;
  name: string;
  plan: Plan;
  limitOverrides: LimitOverrides;
  /** Never empty, in the order of SCOPES. */
  scopes: readonly Scope[];
  /** From this instant on, the key is refused with `key_expired`; null: it does not expire. */
  expiresAt: Date | null;
  /** Refused with `key_disabled` while true; an operator can enable it again. */
  disabled: boolean;
  createdAt: Date;
  /** Revocation is final. */
  revokedAt: Date | null;
  /** Until this instant the secret replaced by the last rotation still works; null when never rotated. */
  previousSecretExpiresAt: Date | null;
}

/**
 * The limits in force for a key: its overrides, else its plan's. A key stored in a state the rules forbid (an
 * Enterprise key without one of its limits, a plan this version does not know: written by hand or by another
 * version) gets the Free plan's limit where it has none of its own, so it is served, shown and listed, never more
 * generously than the smallest plan, until an operator sets its limits.
 */
export function limitsOf(key: Pick<ApiKey, 'plan' | 'limitOverrides'>): RateLimits {
  const { perMinute, perDay } = key.limitOverrides;
  const plan = (PLAN_LIMITS as Partial<Record<string, RateLimits>>)[key.plan] ?? PLAN_LIMITS.free;
  return { perMinute: perMinute ?? plan.perMinute, perDay: perDay ?? plan.perDay };
}

/** What a request with a key's current secret gets. */
export const KEY_STATUSES = ['active', 'expired', 'disabled', 'revoked'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

/** What a request with this key's current secret gets at `now`: revoked first, then expired, then disabled. */
export function statusOf(key: ApiKey, now: number): KeyStatus {
  if (key.revokedAt !== null) return 'revoked';
  if (key.expiresAt !== null && key.expiresAt.getTime() <= now) return 'expired';
  return key.disabled ? 'disabled' : 'active';
}
