import { limitsOf, statusOf, type ApiKey, type KeyStatus, type LimitOverrides } from './ApiKey.js';
import type { Plan, RateLimits } from './Plan.js';
import type { Scope } from './Scope.js';

/**
 * A key as the CLI and the admin API show it (JSON-ready: instants as ISO 8601 text). Never a secret nor a hash.
 */
export interface KeyView {
  id: string;
  name: string;
  plan: Plan;
  /** The limits in force: the key's overrides, else its plan's. */
  limits: RateLimits;
  /** The key's own limits; null where the plan's apply. */
  limitOverrides: LimitOverrides;
  scopes: Scope[];
  /** What a request with its current secret gets now. */
  status: KeyStatus;
  expiresAt: string | null;
  disabled: boolean;
  createdAt: string;
  /** At most a flush interval (30 s in the app) behind. */
  lastUsedAt: string | null;
  /** The end of a rate-limit ban in force; null when none. */
  bannedUntil: string | null;
  revokedAt: string | null;
  /** When the secret replaced by the last rotation stops (or stopped) working; null when never rotated. */
  previousSecretExpiresAt: string | null;
}

/** What the view shows beside the stored key: read from the usage store and the rate-limit store. */
export interface KeyStanding {
  lastUsedAt: Date | null;
  /** Epoch milliseconds. */
  bannedUntil: number | null;
}

const iso = (instant: Date | null) => instant?.toISOString() ?? null;

export function toKeyView(key: ApiKey, standing: KeyStanding, now: number): KeyView {
  return {
    id: key.id,
    name: key.name,
    plan: key.plan,
    limits: limitsOf(key),
    limitOverrides: { ...key.limitOverrides },
    scopes: [...key.scopes],
    status: statusOf(key, now),
    expiresAt: iso(key.expiresAt),
    disabled: key.disabled,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: iso(standing.lastUsedAt),
    bannedUntil: standing.bannedUntil === null ? null : new Date(standing.bannedUntil).toISOString(),
    revokedAt: iso(key.revokedAt),
    previousSecretExpiresAt: iso(key.previousSecretExpiresAt),
  };
}
