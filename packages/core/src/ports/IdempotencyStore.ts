import type { Pet } from '../pet/Pet.js';

export interface IdempotencyClaim {
  /** Whose key it is: the API key id. Idempotency keys of different API keys never meet. */
  scope: string;
  key: string;
  /** Identifies the request body: the same key with another fingerprint is a misuse. */
  fingerprint: string;
  /** Epoch milliseconds. */
  now: number;
  /** When the record expires (epoch ms); an in-flight claim older than `staleAfter` may be taken over. */
  expiresAt: number;
  staleAfter: number;
}

export type IdempotencyOutcome = { state: 'claimed' } | { state: 'in_progress' } | { state: 'mismatch' } | { state: 'completed'; pet: Pet };

/**
 * Remembers the outcome of a create per (scope, key), atomically across every process that shares the store.
 * `claim` records an in-flight request unless the key is already known (and not expired); `complete` stores the
 * result; `release` forgets a claim whose request failed, so nothing is stored for it.
 */
export interface IdempotencyStore {
  claim(claim: IdempotencyClaim): Promise<IdempotencyOutcome>;
  complete(scope: string, key: string, pet: Pet): Promise<void>;
  release(scope: string, key: string): Promise<void>;
  /** Deletes expired records; returns how many. */
  purgeExpired(now: number): Promise<number>;
}
