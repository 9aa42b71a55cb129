import { PLAN_LIMITS, type Plan, type RateLimits } from './Plan.js';

/** An API key as stored: never the secret itself, only its SHA-256 hash, kept beside this record by the KeyStore. */
export interface ApiKey {
  id: string;
  name: string;
  plan: Plan;
  /** Set for Enterprise keys only. */
  customLimits: RateLimits | null;
  createdAt: Date;
  revokedAt: Date | null;
}

export function limitsOf(key: ApiKey): RateLimits {
  if (key.plan === 'enterprise') {
    if (!key.customLimits) throw new Error(`Enterprise key ${key.id} has no custom limits`);
    return key.customLimits;
  }
  return PLAN_LIMITS[key.plan];
}
